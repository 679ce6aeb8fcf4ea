import Foundation
import RulesDiagnostics
import RulesDocument

/// The public keys the app trusts to sign its ruleset bundles, given in code. Each has a key
/// id: the first 8 bytes of the SHA-256 of the raw public key, in hex (16 digits), which a
/// bundle's signature names.
public struct TrustedKeys: Sendable, Equatable {
    /// Raw 32-byte public keys by key id.
    public private(set) var keys: [String: [UInt8]] = [:]

    /// No key: every bundle is refused as untrusted.
    public init() {}

    /// The keys given as raw 32-byte values; nil if one is not 32 bytes or is a weak key (a
    /// point of small order, all zeros included: `Ed25519.isUsablePublicKey`).
    public init?(publicKeys: [[UInt8]]) {
        for key in publicKeys {
            guard Ed25519.isUsablePublicKey(key) else { return nil }
            keys[Self.keyID(key)] = key
        }
    }

    /// The keys given as public key files (`rules keygen`'s `.pub`); nil if one does not read.
    public init?(publicKeyFiles: [String]) {
        var raw: [[UInt8]] = []
        for text in publicKeyFiles {
            guard let key = SigningKeyFile.publicKey(text) else { return nil }
            raw.append(key)
        }
        self.init(publicKeys: raw)
    }

    /// The key id of a raw public key.
    public static func keyID(_ publicKey: [UInt8]) -> String {
        Hex.string(Array(SHA256.digest(publicKey).prefix(8)))
    }

    /// The key of this id, if trusted.
    public func key(_ id: String) -> [UInt8]? { keys[id] }

    /// Trusted key ids, sorted.
    public var ids: [String] { keys.keys.sorted() }
}

/// The text form of key files (`rules keygen`): one JSON object per file,
/// `{"format":"operator-rules-key","kind":"ed25519-public","key_id":"…","key":"<hex>"}` for
/// a public key and `"kind":"ed25519-private"` with the 32-byte seed for a private one.
public enum SigningKeyFile {
    /// The `format` of every key file.
    public static let format = "operator-rules-key"

    /// The raw public key of a public key file's text; nil when it is not one (or its key id
    /// does not match its key).
    public static func publicKey(_ text: String) -> [UInt8]? {
        guard let (kind, key) = read(text), kind == "ed25519-public", key.count == Ed25519.publicKeyBytes else { return nil }
        return key
    }

    /// The 32-byte seed of a private key file's text; nil when it is not one.
    public static func privateSeed(_ text: String) -> [UInt8]? {
        guard let (kind, seed) = read(text), kind == "ed25519-private", seed.count == 32 else { return nil }
        return seed
    }

    /// The text of a key file.
    public static func text(kind: String, keyID: String, key: [UInt8]) -> String {
        JSONValue.object([("format", .string(format)), ("kind", .string(kind)), ("key_id", .string(keyID)), ("key", .string(Hex.string(key)))])
            .rendered() + "\n"
    }

    private static func read(_ text: String) -> (kind: String, key: [UInt8])? {
        let parsed = JSONReader.parse(text, file: "key", maxBytes: 4096, maxDepth: 2)
        guard parsed.diagnostics.isEmpty, let root = parsed.documents.first, let pairs = root.pairs,
            Set(pairs.compactMap(\.key.scalar)) == ["format", "kind", "key_id", "key"], pairs.count == 4,
            root["format"]?.scalar == format, let kind = root["kind"]?.scalar, let id = root["key_id"]?.scalar,
            let hex = root["key"]?.scalar, let key = Hex.bytes(hex)
        else { return nil }
        if kind == "ed25519-public", id != TrustedKeys.keyID(key) { return nil }
        return (kind, key)
    }
}

/// Lower-case hex.
public enum Hex {
    /// `bytes` as lower-case hex.
    public static func string(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of hex text (either case); nil for an odd length or a non-hex digit.
    public static func bytes(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }
}
