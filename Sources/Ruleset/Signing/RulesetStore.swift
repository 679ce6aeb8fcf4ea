import Foundation
import RulesDiagnostics
import RulesExpression

/// What a bundle must satisfy besides loading clean, as the app checks it: signed by a
/// trusted key, for this channel, newer than the last accepted, not expired, and (for a
/// staged rollout) including this install.
public struct BundleTrust: Sendable {
    /// The keys whose signature is accepted (one is enough).
    public var keys: TrustedKeys
    /// The channel accepted; nil accepts any (`rules verify` without `--channel`).
    public var channel: String?
    /// The last sequence accepted: a bundle must have a greater one.
    public var lastSequence: Int
    /// The time expiry is checked at; nil checks none.
    public var now: Date?
    /// The install whose rollout bucket decides a staged bundle; nil ignores rollout.
    public var installID: String?

    /// Trust in `keys`, for `channel`, after `lastSequence`.
    public init(keys: TrustedKeys, channel: String? = "stable", lastSequence: Int = 0, now: Date? = nil, installID: String? = nil) {
        self.keys = keys
        self.channel = channel
        self.lastSequence = lastSequence
        self.now = now
        self.installID = installID
    }
}

/// A bundle checked against a `BundleTrust`: the ruleset when accepted, its release, and
/// every diagnostic (a refusal's first).
public struct TrustedBundleLoad: Sendable {
    /// The ruleset, nil when refused.
    public var ruleset: Ruleset?
    /// The bundle's release, when it has one.
    public var release: BundleRelease?
    /// Why it was refused, and the load's warnings.
    public var diagnostics: [Diagnostic]
    /// The key ids whose signature verified.
    public var verifiedKeys: [String]
}

extension Ruleset {
    /// Loads a bundle as the app does: format, fields and hash; then a signature by a trusted
    /// key (`bundle.unsigned`, `bundle.untrusted_key`, `bundle.bad_signature`), the channel
    /// (`bundle.wrong_channel`), the sequence (`bundle.replayed`), expiry (`bundle.expired`)
    /// and rollout (`bundle.not_in_rollout`), and last the full load and lint.
    public static func load(bundle data: Data, trust: BundleTrust) -> TrustedBundleLoad {
        func refuse(
            _ code: DiagnosticCode, _ message: String, _ hint: String? = nil, release: BundleRelease? = nil, verified: [String] = []
        )
            -> TrustedBundleLoad
        {
            let severity: Severity = code == "bundle.not_in_rollout" ? .note : .error
            let diagnostic = Diagnostic(code: code, severity: severity, file: "bundle", location: .fileStart, message: message, hint: hint)
            return TrustedBundleLoad(ruleset: nil, release: release, diagnostics: [diagnostic], verifiedKeys: verified)
        }
        let (envelope, documents, failure) = RulesetBundle.open(data)
        guard let envelope, failure == nil else {
            return TrustedBundleLoad(ruleset: nil, release: nil, diagnostics: failure?.diagnostics ?? [], verifiedKeys: [])
        }
        guard let release = envelope.release, let signed = envelope.signedBytes, !envelope.signatures.isEmpty else {
            return refuse("bundle.unsigned", "the bundle is not signed", "make it with `rules bundle --sign KEY --sequence N`")
        }
        let byTrusted = envelope.signatures.filter { trust.keys.key($0.keyID) != nil }
        guard !byTrusted.isEmpty else {
            let named = envelope.signatures.map(\.keyID).joined(separator: ", ")
            return refuse(
                "bundle.untrusted_key", "no trusted key signed the bundle (signed by \(named))", "trust the key, or sign with a trusted one",
                release: release)
        }
        let verified = byTrusted.filter { signature in
            trust.keys.key(signature.keyID).map { Ed25519.isValid(signature: signature.signature, of: signed, publicKey: $0) } ?? false
        }.map(\.keyID)
        guard !verified.isEmpty else {
            return refuse(
                "bundle.bad_signature", "the signature of key \(byTrusted[0].keyID) does not verify", "the bundle was changed after it was signed",
                release: release)
        }
        if let channel = trust.channel, release.channel != channel {
            return refuse(
                "bundle.wrong_channel", "the bundle is for channel '\(release.channel)', not '\(channel)'", release: release, verified: verified)
        }
        guard release.sequence > trust.lastSequence else {
            return refuse(
                "bundle.replayed", "the bundle's sequence \(release.sequence) is not above the last accepted, \(trust.lastSequence)",
                "a rollback is the old content signed with a higher sequence", release: release, verified: verified)
        }
        if let now = trust.now, let expires = release.expires, now.timeIntervalSince1970 >= Double(expires + 1) * 86_400 {
            return refuse(
                "bundle.expired", "the bundle expired at the end of \(DateFormat.string(expires)) (UTC)", release: release, verified: verified)
        }
        if let install = trust.installID, !release.includes(installID: install) {
            return refuse(
                "bundle.not_in_rollout",
                "this install's bucket \(release.bucket(installID: install)) is outside the rollout of \(BundleRelease.rolloutText(release.rollout))",
                release: release, verified: verified)
        }
        let (ruleset, diagnostics) = loadPlaced(documents)
        return TrustedBundleLoad(ruleset: ruleset, release: release, diagnostics: diagnostics, verifiedKeys: verified)
    }
}

/// The app's hold on its rules (its hot reload): the active ruleset, replaced only by a
/// bundle signed by a trusted key, for the store's channel, with a sequence above the last
/// accepted, not expired, including this install's rollout bucket, and loading clean —
/// atomically (a reader sees the old ruleset or the new one). Anything else keeps the last
/// good ruleset and says why. The app saves `acceptedSequence` with the ruleset and hands it
/// back at the next launch, so a replayed older bundle stays refused across launches.
public final class RulesetStore: @unchecked Sendable {
    private let lock = NSLock()
    private var active: Ruleset
    private var sequence: Int
    private var generationCount = 0
    private let keys: TrustedKeys
    private let channel: String
    private let installID: String

    /// A store holding `ruleset` (accepted at `acceptedSequence`, 0 for the ruleset built
    /// into the app), trusting `keys`, for `channel` and the install `installID`.
    public init(ruleset: Ruleset, keys: TrustedKeys, channel: String = "stable", installID: String, acceptedSequence: Int = 0) {
        active = ruleset
        self.keys = keys
        self.channel = channel
        self.installID = installID
        sequence = acceptedSequence
    }

    /// The ruleset in force.
    public var current: Ruleset { lock.withLock { active } }

    /// The sequence of the bundle in force (to save with it).
    public var acceptedSequence: Int { lock.withLock { sequence } }

    /// How many bundles were accepted since the store was made.
    public var generation: Int { lock.withLock { generationCount } }

    /// Offers a downloaded bundle at `now`: accepted only when it passes every check of
    /// `Ruleset.load(bundle:trust:)`; otherwise the last good ruleset stays and the
    /// diagnostics say why (`bundle.not_in_rollout`, a note, when this install is outside a
    /// staged rollout).
    @discardableResult
    public func offer(bundle data: Data, now: Date = Date()) -> Result<Ruleset, BundleRefusal> {
        // Checked against the sequence in force when the offer began; two offers at once
        // cannot both pass the same sequence (the swap below checks it again).
        let trust = BundleTrust(keys: keys, channel: channel, lastSequence: acceptedSequence, now: now, installID: installID)
        let load = Ruleset.load(bundle: data, trust: trust)
        guard let ruleset = load.ruleset, let release = load.release, !load.diagnostics.contains(where: { $0.severity == .error }) else {
            return .failure(BundleRefusal(diagnostics: load.diagnostics))
        }
        let swapped = lock.withLock { () -> Bool in
            guard release.sequence > sequence else { return false }
            active = ruleset
            sequence = release.sequence
            generationCount += 1
            return true
        }
        guard swapped else {
            let diagnostic = Diagnostic(
                code: "bundle.replayed", severity: .error, file: "bundle", location: .fileStart,
                message: "a bundle of sequence \(acceptedSequence) was accepted meanwhile; \(release.sequence) is not above it")
            return .failure(BundleRefusal(diagnostics: [diagnostic]))
        }
        return .success(ruleset)
    }
}

/// Why a bundle was refused.
public struct BundleRefusal: Error, Sendable {
    /// Why: one diagnostic or more.
    public var diagnostics: [Diagnostic]
}
