import Foundation

/// An executable of the package for tests that must run it as a process of its own (a
/// signal, a file-size limit, two processes' output compared). The one `swift test` built is
/// used; when it is not there (a filtered build), the product is built once, into a scratch
/// path of its own (the test run holds the package's), so such a test never fails for want of
/// it.
public enum BuiltProduct {
    public struct BuildFailure: Error, CustomStringConvertible {
        public var description: String
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var built: [String: Result<String, BuildFailure>] = [:]

    /// The path of the debug build of `product` (`rules`, `EmbeddingExample`), built if absent.
    public static func path(_ product: String) throws -> String {
        let root = Fixtures.repositoryRoot()
        let usual = root + "/.build/debug/" + product
        if FileManager.default.isExecutableFile(atPath: usual) { return usual }
        lock.lock()
        defer { lock.unlock() }
        if let known = built[product] { return try known.get() }
        let scratch = root + "/.build/for-tests"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "build", "--product", product, "--scratch-path", scratch]
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let result: Result<String, BuildFailure>
        do {
            try process.run()
            let log = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let path = scratch + "/debug/" + product
            if process.terminationStatus == 0, FileManager.default.isExecutableFile(atPath: path) {
                result = .success(path)
            } else {
                result = .failure(BuildFailure(description: "swift build --product \(product) failed:\n\(log.suffix(2_000))"))
            }
        } catch {
            result = .failure(BuildFailure(description: "swift build --product \(product) could not start: \(error)"))
        }
        built[product] = result
        return try result.get()
    }
}
