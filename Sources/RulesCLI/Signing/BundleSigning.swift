import Foundation
import RulesDiagnostics
import RulesExpression
import Ruleset
import RulesetFiles

/// What `bundle`, `verify` and `check` share about keys and bundle files.
enum BundleSigning {
    /// `--after N` of `check` and `verify`: the last sequence the app accepted, a whole number
    /// of 0 or more.
    static func lastSequence(_ text: String) throws(UsageError) -> Int {
        guard let number = Int(text), number >= 0 else { throw UsageError(message: "--after '\(text)' is not a whole number of 0 or more") }
        return number
    }

    /// The private keys of `--sign` files: (key id, seed) each; a message naming the file
    /// that does not read.
    static func signingKeys(_ paths: [String], _ io: CommandIO) -> Result<[(id: String, seed: [UInt8])], UsageError> {
        var keys: [(String, [UInt8])] = []
        for path in paths {
            let text: String
            switch readSmall(io.resolve(path)) {
            case .success(let read): text = read
            case .failure(let failure): return .failure(UsageError(message: "--sign \(path): \(failure.description)"))
            }
            guard let seed = SigningKeyFile.privateSeed(text), let pair = Ed25519Signer.keyPair(seed: seed) else {
                return .failure(UsageError(message: "--sign \(path) is not a private key file of `rules keygen`"))
            }
            keys.append((TrustedKeys.keyID(pair.publicKey), seed))
        }
        return .success(keys)
    }

    /// The public keys of `--trust` files; a message naming the file that does not read.
    static func trustedKeys(_ paths: [String], _ io: CommandIO) -> Result<TrustedKeys, UsageError> {
        var keys: [[UInt8]] = []
        for path in paths {
            let text: String
            switch readSmall(io.resolve(path)) {
            case .success(let read): text = read
            case .failure(let failure): return .failure(UsageError(message: "--trust \(path): \(failure.description)"))
            }
            guard let key = SigningKeyFile.publicKey(text) else {
                return .failure(UsageError(message: "--trust \(path) is not a public key file of `rules keygen`"))
            }
            guard Ed25519.isUsablePublicKey(key) else {
                return .failure(
                    UsageError(
                        message: "--trust \(path) is not a usable key: a weak key (a point of small order) lets one signature pass for many bundles"))
            }
            keys.append(key)
        }
        return TrustedKeys(publicKeys: keys).map { .success($0) } ?? .failure(UsageError(message: "a --trust file does not read"))
    }

    /// A key file's text (at most 4 KiB): only a regular file is read (a FIFO or device is
    /// refused at once, never waited on).
    static func readSmall(_ path: String) -> Result<String, FileReader.Failure> {
        FileReader.contents(of: path, limit: 4096).flatMap { bytes in
            String(validating: bytes, as: UTF8.self).map { .success($0) } ?? .failure(.unreadable)
        }
    }

    /// A bundle file's bytes (at most the bundle limit), read as `FileReader` reads: a FIFO or
    /// device is refused at once.
    static func readBundle(_ path: String) -> Result<Data, FileReader.Failure> {
        FileReader.contents(of: path, limit: InputLimits.maxBundleBytes).map { Data($0) }
    }

    /// A line describing a release (`sequence 3, channel stable, expires 2027-01-31, rollout 10%`).
    static func describe(_ release: BundleRelease) -> String {
        var parts = ["sequence \(release.sequence)", "channel \(release.channel)"]
        if let expires = release.expires { parts.append("expires \(DateFormat.string(expires))") }
        parts.append("rollout \(BundleRelease.rolloutText(release.rollout))")
        return parts.joined(separator: ", ")
    }
}
