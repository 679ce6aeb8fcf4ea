import Foundation
import RulesDiagnostics
import RulesEngine
import RulesTune

/// One telemetry line, read without a general JSON parser: a flat object of the schema's
/// fields whose values are identifiers (`[a-z0-9_]`, at most 64), whole or decimal numbers,
/// or booleans. Anything else — a nested value, an escape, a key the schema does not have, a
/// string that is not an identifier — is refused, so no free text is ever read.
package struct TelemetryLine: Sendable, Equatable {
    package var user = ""
    package var ruleset = ""
    package var day = 0
    package var minute = 0
    package var kind = ""
    /// The kind's own fields: identifiers and words.
    package var words: [String: String] = [:]
    /// The kind's own numbers (booleans as 0 and 1).
    package var numbers: [String: Double] = [:]

    /// The keys a line may have.
    static let keys = Set(Telemetry.fields)

    /// Why a line does not read.
    package struct Problem: Error, Sendable, Equatable {
        package var message: String
        /// Whether the line carried something that may be free text (refused outright).
        package var freeText = false
    }

    /// Reads `bytes` (one line, without its line break).
    package static func parse(_ bytes: ArraySlice<UInt8>) -> Result<TelemetryLine, Problem> {
        var reader = Reader(bytes: bytes)
        return reader.line()
    }

    private struct Reader {
        let bytes: ArraySlice<UInt8>
        var at: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            at = bytes.startIndex
        }

        mutating func skipSpace() {
            while at < bytes.endIndex, [0x20, 0x09, 0x0D].contains(bytes[at]) { at += 1 }
        }

        mutating func expect(_ byte: UInt8, _ what: String) -> Problem? {
            skipSpace()
            guard at < bytes.endIndex, bytes[at] == byte else { return Problem(message: "expected \(what) at byte \(at - bytes.startIndex + 1)") }
            at += 1
            return nil
        }

        /// A string without escapes, as an identifier when it is one.
        mutating func string() -> Result<String, Problem> {
            if let problem = expect(0x22, "a string") { return .failure(problem) }
            let start = at
            while at < bytes.endIndex, bytes[at] != 0x22 {
                let byte = bytes[at]
                let identifier = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
                guard identifier, at - start < 64 else {
                    return .failure(Problem(message: "a string that is not an identifier (telemetry never carries texts)", freeText: true))
                }
                at += 1
            }
            guard at < bytes.endIndex else { return .failure(Problem(message: "a string does not end")) }
            let text = String(decoding: bytes[start..<at], as: UTF8.self)
            at += 1
            return .success(text)
        }

        mutating func number() -> Double? {
            let start = at
            while at < bytes.endIndex, (bytes[at] >= 0x30 && bytes[at] <= 0x39) || [0x2D, 0x2E, 0x65, 0x45, 0x2B].contains(bytes[at]) { at += 1 }
            guard at > start, at - start <= 32, let value = Double(String(decoding: bytes[start..<at], as: UTF8.self)), value.isFinite,
                abs(value) <= 1e12
            else { return nil }
            return value
        }

        static func isHex(_ text: String, count: Int) -> Bool {
            text.utf8.count == count && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
        }

        mutating func word(_ text: String) -> Bool {
            let scalars = Array(text.utf8)
            guard bytes.endIndex - at >= scalars.count, Array(bytes[at..<(at + scalars.count)]) == scalars else { return false }
            at += scalars.count
            return true
        }

        mutating func line() -> Result<TelemetryLine, Problem> {
            var line = TelemetryLine()
            var seen: Set<String> = []
            if let problem = expect(0x7B, "'{'") { return .failure(problem) }
            skipSpace()
            if at < bytes.endIndex, bytes[at] == 0x7D { return .failure(Problem(message: "an empty object")) }
            while true {
                let key: String
                switch string() {
                case .success(let text): key = text
                case .failure(var problem):
                    // A line cut short (the last of a file being written) ends inside its object.
                    problem.message =
                        at >= bytes.endIndex || !bytes[at...].contains(0x7D)
                        ? "the line ends before its object does (a truncated line?)" : "a key is not one of the telemetry's fields"
                    return .failure(problem)
                }
                guard TelemetryLine.keys.contains(key) else {
                    return .failure(Problem(message: "'\(key)' is not a telemetry field (telemetry never carries texts)", freeText: true))
                }
                guard seen.insert(key).inserted else { return .failure(Problem(message: "'\(key)' twice")) }
                if let problem = expect(0x3A, "':'") { return .failure(problem) }
                skipSpace()
                if let problem = value(for: key, into: &line) { return .failure(problem) }
                skipSpace()
                guard at < bytes.endIndex else { return .failure(Problem(message: "the object does not end")) }
                if bytes[at] == 0x2C {
                    at += 1
                    continue
                }
                if bytes[at] == 0x7D { break }
                return .failure(Problem(message: "expected ',' or '}' at byte \(at - bytes.startIndex + 1)"))
            }
            at += 1
            skipSpace()
            guard at == bytes.endIndex else { return .failure(Problem(message: "text after the object")) }
            for required in Telemetry.requiredHead where !seen.contains(required) {
                return .failure(Problem(message: "no '\(required)'"))
            }
            return .success(line)
        }

        mutating func value(for key: String, into line: inout TelemetryLine) -> Problem? {
            guard at < bytes.endIndex else { return Problem(message: "'\(key)' has no value") }
            switch bytes[at] {
            case 0x22:
                switch string() {
                case .failure(let problem): return problem
                case .success(let text):
                    switch key {
                    case "user":
                        guard Self.isHex(text, count: 32) else { return Problem(message: "'user' is not a pseudonym (32 hex digits)") }
                        line.user = text
                    case "ruleset":
                        guard Self.isHex(text, count: 16) else { return Problem(message: "'ruleset' is not a ruleset's key (16 hex digits)") }
                        line.ruleset = text
                    case "kind": line.kind = text
                    case "v", "day", "minute": return Problem(message: "'\(key)' is not a number")
                    default: line.words[key] = text
                    }
                }
            case 0x74, 0x66:
                if word("true") {
                    line.numbers[key] = 1
                } else if word("false") {
                    line.numbers[key] = 0
                } else {
                    return Problem(message: "'\(key)' has no value")
                }
            default:
                guard let number = number() else { return Problem(message: "'\(key)' is not a number, a boolean or an identifier") }
                switch key {
                case "v": if number != 1 { return Problem(message: "version \(number) is not one this reads (1)") }
                case "day", "minute":
                    // Days the engine can live (2000-01-01 to 2199-12-30); minutes of a logical day.
                    let range = key == "day" ? Double(InputLimits.simulatedDays.lowerBound)...Double(InputLimits.simulatedDays.upperBound) : 0...1_440
                    guard number == number.rounded(), range.contains(number) else {
                        return Problem(
                            message: "'\(key)' \(Knob.decimal(number)) is out of range (\(Int(range.lowerBound))–\(Int(range.upperBound)))")
                    }
                    if key == "day" { line.day = Int(number) } else { line.minute = Int(number) }
                case "user", "ruleset", "kind": return Problem(message: "'\(key)' is not an identifier")
                case "value" where number < 0: return Problem(message: "'value' \(Knob.decimal(number)) is negative: a logged amount never is")
                case "seq" where number < 0 || number != number.rounded():
                    return Problem(message: "'seq' \(Knob.decimal(number)) is not a line's number (a whole number from 0)")
                default: line.numbers[key] = number
                }
            }
            return nil
        }
    }
}
