import Foundation
import RulesDiagnostics
import RulesDocument
import RulesExpression

/// What a bundle says about itself beside its content: the release it is (`sequence`), the
/// channel it is for, when it expires and to how many installs it rolls out. Signed with
/// the content's hash (see `BundleEnvelope.signedBytes`).
public struct BundleRelease: Sendable, Equatable {
    /// Increases with every release: a store accepts only a sequence above the last one it
    /// accepted (an older bundle replayed is refused). 1 … 2^53 − 1.
    public var sequence: Int
    /// The channel (`stable`, `beta`…): a store accepts only its own.
    public var channel: String
    /// The last day it may be accepted (UTC, days since 1970-01-01), nil for never expiring.
    public var expires: Int?
    /// The share of installs it applies to, in hundredths of a percent (10 % is 1,000;
    /// 10,000 is everyone).
    public var rollout: Int

    /// A release; every install unless `rollout` says otherwise.
    public init(sequence: Int, channel: String = "stable", expires: Int? = nil, rollout: Int = 10_000) {
        self.sequence = sequence
        self.channel = channel
        self.expires = expires
        self.rollout = rollout
    }

    /// Largest sequence (JSON numbers are exact up to 2^53).
    public static let maxSequence = 9_007_199_254_740_991

    /// Whether a channel name is well formed: 1–32 of `a-z`, `0-9`, `-`, `_`.
    public static func isChannel(_ name: String) -> Bool {
        (1...32).contains(name.utf8.count)
            && name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F }
    }

    /// `P%` with P in (0, 100] and at most two decimals → hundredths of a percent.
    public static func rollout(_ text: String) -> Int? {
        guard text.hasSuffix("%") else { return nil }
        let number = text.dropLast()
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = Int(parts[0]), parts[0].allSatisfy(\.isNumber), (0...100).contains(whole) else { return nil }
        var hundredths = whole * 100
        if parts.count == 2 {
            let fraction = parts[1]
            guard (1...2).contains(fraction.count), fraction.allSatisfy(\.isNumber), let digits = Int(fraction) else { return nil }
            hundredths += fraction.count == 1 ? digits * 10 : digits
        }
        return (1...10_000).contains(hundredths) ? hundredths : nil
    }

    /// Hundredths of a percent as `rollout` spells them (`10%`, `2.5%`).
    public static func rolloutText(_ hundredths: Int) -> String {
        let whole = hundredths / 100
        let rest = hundredths % 100
        if rest == 0 { return "\(whole)%" }
        return rest % 10 == 0 ? "\(whole).\(rest / 10)%" : "\(whole).\(rest < 10 ? "0" : "")\(rest)%"
    }

    /// An install's bucket for this release, 0 … 9,999: the first 4 bytes of
    /// SHA-256(sequence as 8 bytes big-endian ‖ the install id's UTF-8) as a big-endian
    /// number, mod 10,000. The same install always lands in the same bucket for a release.
    public func bucket(installID: String) -> Int {
        var bytes: [UInt8] = (0..<8).map { UInt8(truncatingIfNeeded: UInt64(sequence) >> (56 - 8 * $0)) }
        bytes += Array(installID.utf8)
        let digest = SHA256.digest(bytes)
        let number = UInt32(digest[0]) << 24 | UInt32(digest[1]) << 16 | UInt32(digest[2]) << 8 | UInt32(digest[3])
        return Int(number % 10_000)
    }

    /// Whether the release applies to the install of `installID`.
    public func includes(installID: String) -> Bool { bucket(installID: installID) < rollout }
}

/// One signature of a bundle: the signing key's id and the Ed25519 signature of
/// `BundleEnvelope.signedBytes`.
public struct BundleSignature: Sendable, Equatable {
    /// The key id (`TrustedKeys.keyID`).
    public var keyID: String
    /// The 64-byte signature.
    public var signature: [UInt8]

    /// A signature.
    public init(keyID: String, signature: [UInt8]) {
        self.keyID = keyID
        self.signature = signature
    }
}

/// A bundle's envelope: everything but its documents, checked field by field (an unknown
/// key, a repeated one, a number that is not a whole number in range, a malformed date,
/// channel, rollout or signature refuses the bundle).
public struct BundleEnvelope: Sendable {
    /// The bundle format version (1: unsigned, without release; 2: with them).
    public var version: Int
    /// The SHA-256 (hex) of the content.
    public var sha256: String
    /// The release, nil for a bundle made without one (which no store accepts).
    public var release: BundleRelease?
    /// The signatures, in the bundle's order.
    public var signatures: [BundleSignature]

    /// The envelope's keys.
    static let keys: Set<String> = ["format", "version", "sha256", "content", "sequence", "channel", "expires", "rollout", "signatures"]
    /// Most signatures a bundle carries (a key rotation needs two).
    public static let maxSignatures = 8

    /// What a signature signs: a fixed prefix and the envelope without its content (bound
    /// by `sha256`, which the loader checks against the content) or signatures, rendered
    /// compactly with its keys in this order. The verifier renders these bytes itself from
    /// the values it read, so a signature made over any other spelling (keys reordered,
    /// whitespace added) does not verify.
    public static func signedBytes(version: Int, sha256: String, release: BundleRelease) -> [UInt8] {
        var members: [(String, JSONValue)] = [
            ("format", .string(RulesetBundle.format)), ("version", .int(version)), ("sha256", .string(sha256)),
            ("sequence", .int(release.sequence)), ("channel", .string(release.channel)),
        ]
        if let expires = release.expires { members.append(("expires", .string(DateFormat.string(expires)))) }
        members.append(("rollout", .string(BundleRelease.rolloutText(release.rollout))))
        return Array(("operator-rules-bundle signature\n" + JSONValue.object(members).rendered()).utf8)
    }

    /// The bytes this envelope's signatures sign (nil without a release).
    public var signedBytes: [UInt8]? { release.map { Self.signedBytes(version: version, sha256: sha256, release: $0) } }

    /// Reads the envelope of a bundle's root object; a text saying what is wrong otherwise.
    static func read(_ root: YAMLNode) -> Result<BundleEnvelope, EnvelopeProblem> {
        guard let pairs = root.pairs else { return .failure(.malformed("the bundle is not a JSON object")) }
        if let unknown = pairs.compactMap(\.key.scalar).first(where: { !keys.contains($0) }) {
            return .failure(.malformed("the bundle has an unknown key '\(unknown)'"))
        }
        guard root["format"]?.scalar == RulesetBundle.format, root["format"]?.scalarStyle?.isQuoted == true else {
            return .failure(.malformed("this is not an Operator rules bundle (format '\(root["format"]?.scalar ?? "missing")')"))
        }
        guard let versionNode = root["version"], versionNode.scalarStyle == .plain, let version = Int(versionNode.scalar ?? ""),
            RulesetBundle.versions.contains(version)
        else { return .failure(.unsupportedVersion(root["version"]?.scalar ?? "missing")) }
        guard let hash = root["sha256"]?.scalar, root["sha256"]?.scalarStyle?.isQuoted == true else {
            return .failure(.malformed("the bundle lacks sha256"))
        }
        let releaseKeys = ["sequence", "channel", "expires", "rollout", "signatures"]
        if version == 1, let key = releaseKeys.first(where: { root[$0] != nil }) {
            return .failure(.malformed("a version 1 bundle has no '\(key)'; make it again with this version of rules"))
        }
        var release: BundleRelease?
        if let sequence = root["sequence"] {
            switch readRelease(sequence, root) {
            case .success(let read): release = read
            case .failure(let problem): return .failure(problem)
            }
        } else if let key = releaseKeys.dropFirst().first(where: { root[$0] != nil }) {
            return .failure(.malformed("'\(key)' without a sequence"))
        }
        var signatures: [BundleSignature] = []
        if let list = root["signatures"] {
            guard let items = list.items, items.count <= maxSignatures else {
                return .failure(.malformed("signatures is not a list of at most \(maxSignatures)"))
            }
            for item in items {
                guard let signature = readSignature(item) else {
                    return .failure(.malformed("a signature is not {\"key_id\": 16 hex digits, \"signature\": 128 hex digits}"))
                }
                signatures.append(signature)
            }
        }
        return .success(BundleEnvelope(version: version, sha256: hash, release: release, signatures: signatures))
    }

    private static func readRelease(_ sequence: YAMLNode, _ root: YAMLNode) -> Result<BundleRelease, EnvelopeProblem> {
        guard sequence.scalarStyle == .plain, let text = sequence.scalar, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            text.utf8.count <= 16, let number = Int(text), (1...BundleRelease.maxSequence).contains(number)
        else { return .failure(.malformed("sequence '\(sequence.scalar ?? "")' is not a whole number from 1 to 2^53 − 1")) }
        var release = BundleRelease(sequence: number)
        if let channel = root["channel"] {
            guard channel.scalarStyle?.isQuoted == true, let name = channel.scalar, BundleRelease.isChannel(name) else {
                return .failure(.malformed("channel is not 1–32 of a-z, 0-9, - and _"))
            }
            release.channel = name
        }
        if let expires = root["expires"] {
            guard expires.scalarStyle?.isQuoted == true, let text = expires.scalar, let day = DateFormat.days(text), DateFormat.string(day) == text
            else { return .failure(.malformed("expires is not a date YYYY-MM-DD")) }
            release.expires = day
        }
        if let rollout = root["rollout"] {
            guard rollout.scalarStyle?.isQuoted == true, let text = rollout.scalar, let hundredths = BundleRelease.rollout(text) else {
                return .failure(.malformed("rollout is not a share like \"10%\" (over 0, at most 100)"))
            }
            release.rollout = hundredths
        }
        return .success(release)
    }

    private static func readSignature(_ item: YAMLNode) -> BundleSignature? {
        guard let pairs = item.pairs, pairs.count == 2, let id = item["key_id"]?.scalar, let hex = item["signature"]?.scalar,
            item["key_id"]?.scalarStyle?.isQuoted == true, item["signature"]?.scalarStyle?.isQuoted == true, id.utf8.count == 16,
            Hex.bytes(id) != nil, hex.utf8.count == 128, let signature = Hex.bytes(hex)
        else { return nil }
        return BundleSignature(keyID: id.lowercased(), signature: signature)
    }

    /// What is wrong with an envelope.
    enum EnvelopeProblem: Error {
        case malformed(String)
        case unsupportedVersion(String)
    }
}
