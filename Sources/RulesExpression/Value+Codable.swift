/// A value encodes as a one-key object naming its kind — `{"time": 75600}`,
/// `{"map": {"water": {"time": 72000}}}`, `{"unknown": true}` — so that a saved engine state
/// reads back the same value, never a look-alike of another kind (an int and a time
/// are both numbers in JSON).
extension Value: Codable {
    private enum Kind: String, CodingKey, CaseIterable {
        case bool, int, number, string, duration, time, date, list, map, unknown
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Kind.self)
        switch self {
        case .bool(let value): try container.encode(value, forKey: .bool)
        case .int(let value): try container.encode(value, forKey: .int)
        case .number(let value): try container.encode(value, forKey: .number)
        case .string(let value): try container.encode(value, forKey: .string)
        case .duration(let value): try container.encode(value, forKey: .duration)
        case .time(let value): try container.encode(value, forKey: .time)
        case .date(let value): try container.encode(value, forKey: .date)
        case .list(let value): try container.encode(value, forKey: .list)
        case .map(let value): try container.encode(value, forKey: .map)
        case .unknown: try container.encode(true, forKey: .unknown)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Kind.self)
        guard container.allKeys.count == 1, let kind = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: container.codingPath, debugDescription: "a value names exactly one kind"))
        }
        switch kind {
        case .bool: self = .bool(try container.decode(Bool.self, forKey: kind))
        case .int: self = .int(try container.decode(Int.self, forKey: kind))
        case .number: self = .number(try container.decode(Double.self, forKey: kind))
        case .string: self = .string(try container.decode(String.self, forKey: kind))
        case .duration: self = .duration(try container.decode(Int.self, forKey: kind))
        case .time: self = .time(try container.decode(Int.self, forKey: kind))
        case .date: self = .date(try container.decode(Int.self, forKey: kind))
        case .list: self = .list(try container.decode([Value].self, forKey: kind))
        case .map: self = .map(try container.decode([String: Value].self, forKey: kind))
        case .unknown: self = .unknown
        }
    }
}
