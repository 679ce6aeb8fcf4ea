import Foundation
import RulesCLI
import Ruleset
import RulesetFiles
import TestSupport

/// A signing key for tests, and bundles of a ruleset directory signed with it.
struct SigningFixture {
    let seed: [UInt8]
    let publicKey: [UInt8]
    var id: String { TrustedKeys.keyID(publicKey) }
    var keys: TrustedKeys { TrustedKeys(publicKeys: [publicKey]) ?? TrustedKeys() }

    init() throws {
        guard let pair = Ed25519Signer.generate() else { throw FixtureError.noLibrary }
        seed = pair.seed
        publicKey = pair.publicKey
    }

    enum FixtureError: Error { case noLibrary }

    static func documents(of directory: String) -> [RuleDocument] {
        RulesetDirectory.read(RulesetDirectory.files(in: directory, folders: RulesetDirectory.rulesetFolders)).documents
    }

    /// The bundle of `directory` with `release`, signed by this key and `others`.
    func bundle(of directory: String, release: BundleRelease, others: [SigningFixture] = []) -> String {
        RulesetBundle.make(Self.documents(of: directory), release: release) { message in
            ([self] + others).compactMap { key in
                Ed25519Signer.sign(message, seed: key.seed).map { BundleSignature(keyID: key.id, signature: $0) }
            }
        }
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }

    var isSuccess: Bool { !isFailure }
}
