/// Where the values of a JSON text lie, to change one at a time (state mutation tests and
/// the engine fuzzer): the byte ranges of every number and of every string value (keys
/// skipped). The text is the engine's own output, so it is well formed.
public enum JSONSpans {
    public static func values(_ bytes: [UInt8]) -> (numbers: [Range<Int>], strings: [Range<Int>]) {
        var numbers: [Range<Int>] = []
        var strings: [Range<Int>] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
                index += 1
                var next = index
                while next < bytes.count, bytes[next] == UInt8(ascii: " ") || bytes[next] == UInt8(ascii: "\n") { next += 1 }
                if next >= bytes.count || bytes[next] != UInt8(ascii: ":") { strings.append(start..<Swift.min(index, bytes.count)) }
            } else if byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                let start = index
                while index < bytes.count, "+-.eE0123456789".utf8.contains(bytes[index]) { index += 1 }
                numbers.append(start..<index)
            } else {
                index += 1
            }
        }
        return (numbers, strings)
    }

    /// `bytes` with `span` replaced by `text`.
    public static func replacing(_ bytes: [UInt8], _ span: Range<Int>, with text: String) -> [UInt8] {
        Array(bytes[..<span.lowerBound]) + Array(text.utf8) + Array(bytes[span.upperBound...])
    }
}
