/// The tests' one seeded generator (a 64-bit linear congruential generator, its high bits
/// used): the same sequence on every platform and run, so a failure reproduces from its seed.
public struct SeededGenerator: Sendable {
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    /// A number in 0..<bound (0 when bound is not positive).
    public mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(max(bound, 1)))
    }

    /// One of `items` (which must not be empty).
    public mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }
}
