/// A user's count, sum and sum of squares of one measure (sleep, wake, steps), held inline:
/// a three-element array was an allocation of its own for every user.
package struct Moments: Sendable, Equatable {
    package var n = 0.0
    package var sum = 0.0
    package var squares = 0.0

    init() {}

    /// From `[n, sum, sum of squares]` (as a features row writes them).
    init(_ values: [Double]) {
        (n, sum, squares) = (values.count > 0 ? values[0] : 0, values.count > 1 ? values[1] : 0, values.count > 2 ? values[2] : 0)
    }

    /// `[n, sum, sum of squares]`.
    package var values: [Double] { [n, sum, squares] }

    /// 0: n, 1: the sum, 2: the sum of squares.
    package subscript(index: Int) -> Double { index == 0 ? n : index == 1 ? sum : squares }

    mutating func add(_ x: Double) {
        n += 1
        sum += x
        squares += x * x
    }
}

/// Counts by a day's place (1st, 2nd, … the last holding every later one), at most five,
/// held inline: an array of them was an allocation of its own for every user.
package struct PlaceCounts: Sendable, Equatable, RandomAccessCollection, MutableCollection {
    private var slots: (Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0)
    package let endIndex: Int
    package var startIndex: Int { 0 }

    /// `places` zeros (at most five).
    init(places: Int) { endIndex = Swift.min(Swift.max(0, places), 5) }

    /// The counts of `values` (at most five).
    init(_ values: [Int]) {
        self.init(places: values.count)
        for index in indices { self[index] = values[index] }
    }

    package subscript(position: Int) -> Int {
        get {
            switch position {
            case 0: slots.0
            case 1: slots.1
            case 2: slots.2
            case 3: slots.3
            default: slots.4
            }
        }
        set {
            switch position {
            case 0: slots.0 = newValue
            case 1: slots.1 = newValue
            case 2: slots.2 = newValue
            case 3: slots.3 = newValue
            default: slots.4 = newValue
            }
        }
    }

    package static func == (a: PlaceCounts, b: PlaceCounts) -> Bool { a.elementsEqual(b) }
}
