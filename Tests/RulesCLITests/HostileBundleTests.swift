import Foundation
import RulesCLI
import RulesDiagnostics
import RulesDocument
import RulesExpression
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// Hostile bundles offered to the app's store: each refused with its reason, and the last
/// good ruleset kept (nothing swapped, the accepted sequence unchanged).
@Suite struct HostileBundleTests {
    static let root = Fixtures.repositoryRoot()
    static let now = Date(timeIntervalSince1970: Double(DateFormat.days("2026-12-02") ?? 0) * 86_400)

    /// A store holding the shipped ruleset at sequence 5, trusting `signer`.
    static func store(_ signer: SigningFixture, channel: String = "stable") throws -> RulesetStore {
        RulesetStore(
            ruleset: try #require(Ruleset.load(directory: root).ruleset), keys: signer.keys, channel: channel, installID: "install-1",
            acceptedSequence: 5)
    }

    /// Offers `text` and checks it is refused with `code`, the store unchanged.
    static func expectRefused(_ text: String, _ code: String, by store: RulesetStore, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let before = (store.generation, store.acceptedSequence)
        switch store.offer(bundle: Data(text.utf8), now: now) {
        case .success: Issue.record("accepted; expected \(code)", sourceLocation: sourceLocation)
        case .failure(let refusal):
            #expect(refusal.diagnostics.first?.code.rawValue == code, "\(refusal.diagnostics.map(\.message))", sourceLocation: sourceLocation)
        }
        #expect(store.generation == before.0 && store.acceptedSequence == before.1, sourceLocation: sourceLocation)
        #expect(store.current.policy.maxPerDay == 3, sourceLocation: sourceLocation)
    }

    @Test func aGoodReleaseIsAcceptedAndReplacesTheRuleset() throws {
        let signer = try SigningFixture()
        let store = try Self.store(signer)
        let result = store.offer(bundle: Data(signer.bundle(of: Self.root, release: BundleRelease(sequence: 6)).utf8), now: Self.now)
        #expect(result.isSuccess)
        #expect(store.acceptedSequence == 6 && store.generation == 1)
    }

    /// A signed bundle whose lock-screen text hides a character (a line separator, a mark on
    /// Hangul, an object replacement character) is refused by the app's store as `rules check`
    /// refuses the files: the same lint runs on a bundle's documents.
    @Test(arguments: ["오늘\u{2028}루트", "수\u{0301}면", "오늘\u{FFFC} 루트"])
    func aSignedBundleWithAHiddenCharacterIsRefused(text: String) throws {
        let signer = try SigningFixture()
        let store = try Self.store(signer)
        let directory = try Fixtures.copyOfShipped()
        let escaped = text.unicodeScalars.map { $0.isASCII ? String($0) : String(format: "\\U%08X", $0.value) }.joined()
        try "templates:\n  - id: hidden_line\n    surface: lock_screen\n    text: \"\(escaped)\"\n".write(
            toFile: directory + "/templates/zz.yaml", atomically: true, encoding: .utf8)
        let bundle = signer.bundle(of: directory, release: BundleRelease(sequence: 6))
        switch store.offer(bundle: Data(bundle.utf8), now: Self.now) {
        case .success: Issue.record("accepted a hidden character")
        case .failure(let refusal):
            #expect(refusal.diagnostics.contains { $0.code.rawValue == "lint.hidden_character" }, "\(refusal.diagnostics.map(\.message))")
        }
        #expect(store.acceptedSequence == 5)
    }

    /// The forgery of the issue: the daily cap raised to 10, a lock-screen text changed, the
    /// hash computed again — refused, though its hash holds.
    @Test func aForgeryWithItsHashComputedAgainIsRefused() throws {
        let signer = try SigningFixture()
        let store = try Self.store(signer)
        let good = signer.bundle(of: Self.root, release: BundleRelease(sequence: 6))
        var forged = good.replacingOccurrences(of: #""max_per_day":"3""#, with: #""max_per_day":"10""#)
        #expect(forged != good)
        let lockScreen = try #require(Ruleset.load(directory: Self.root).ruleset?.templates.first { $0.surface == "lock_screen" }?.source)
        forged = forged.replacingOccurrences(of: "\"" + lockScreen + "\"", with: #""지금 안 열면 스트릭 날아감!""#)
        let parsed = try #require(JSONReader.parse(forged, file: "f", maxBytes: .max, maxDepth: 200).documents.first)
        let content = try #require(parsed["content"])
        let hash = SHA256.hex(Array(RulesetBundle.canonical(content).rendered().utf8))
        let oldHash = try #require(parsed["sha256"]?.scalar)
        forged = forged.replacingOccurrences(of: oldHash, with: hash)
        // The hash holds (an unsigned load takes it)…
        #expect(Ruleset.load(bundle: Data(forged.utf8)).ruleset?.policy.maxPerDay == 10)
        // …the signature does not.
        Self.expectRefused(forged, "bundle.bad_signature", by: store)
    }

    @Test func replayedOtherChannelExpiredUnknownKeyAndUnsignedAreRefused() throws {
        let signer = try SigningFixture()
        let stranger = try SigningFixture()
        let store = try Self.store(signer)
        Self.expectRefused(signer.bundle(of: Self.root, release: BundleRelease(sequence: 5)), "bundle.replayed", by: store)
        Self.expectRefused(signer.bundle(of: Self.root, release: BundleRelease(sequence: 2)), "bundle.replayed", by: store)
        Self.expectRefused(signer.bundle(of: Self.root, release: BundleRelease(sequence: 6, channel: "beta")), "bundle.wrong_channel", by: store)
        let yesterday = (DateFormat.days("2026-12-02") ?? 0) - 1
        Self.expectRefused(signer.bundle(of: Self.root, release: BundleRelease(sequence: 6, expires: yesterday)), "bundle.expired", by: store)
        Self.expectRefused(stranger.bundle(of: Self.root, release: BundleRelease(sequence: 6)), "bundle.untrusted_key", by: store)
        let unsigned = RulesetBundle.make(SigningFixture.documents(of: Self.root), release: BundleRelease(sequence: 6))
        Self.expectRefused(unsigned, "bundle.unsigned", by: store)
        Self.expectRefused(RulesetBundle.make(SigningFixture.documents(of: Self.root)), "bundle.unsigned", by: store)
        // Expiring today is still good today.
        let today = DateFormat.days("2026-12-02") ?? 0
        #expect(
            store.offer(bundle: Data(signer.bundle(of: Self.root, release: BundleRelease(sequence: 6, expires: today)).utf8), now: Self.now).isSuccess
        )
        // The same bundle again is a replay.
        Self.expectRefused(signer.bundle(of: Self.root, release: BundleRelease(sequence: 6, expires: today)), "bundle.replayed", by: store)
    }

    @Test func damagedSignaturesAreRefused() throws {
        let signer = try SigningFixture()
        let store = try Self.store(signer)
        let good = signer.bundle(of: Self.root, release: BundleRelease(sequence: 6))
        let signature = try #require(good.components(separatedBy: #""signature":""#).last?.prefix(128)).description
        var flipped = Array(signature)
        flipped[10] = flipped[10] == "0" ? "1" : "0"
        Self.expectRefused(good.replacingOccurrences(of: signature, with: String(flipped)), "bundle.bad_signature", by: store)
        Self.expectRefused(good.replacingOccurrences(of: signature, with: String(signature.dropLast(2))), "bundle.malformed", by: store)
        Self.expectRefused(good.replacingOccurrences(of: signature, with: ""), "bundle.malformed", by: store)
        Self.expectRefused(good.replacingOccurrences(of: signature, with: String(repeating: "0", count: 128)), "bundle.bad_signature", by: store)
        // Truncated anywhere.
        for length in [10, good.utf8.count / 2, good.utf8.count - 3] {
            Self.expectRefused(String(decoding: Array(good.utf8.prefix(length)), as: UTF8.self), "json.syntax", by: store)
        }
    }

    /// A signature made over other bytes than the canonical ones the app renders (keys
    /// reordered, whitespace added) does not verify, though the fields are the same.
    @Test func aSignatureOverNonCanonicalBytesIsRefused() throws {
        let signer = try SigningFixture()
        let store = try Self.store(signer)
        let release = BundleRelease(sequence: 6)
        let documents = SigningFixture.documents(of: Self.root)
        for variant in ["reordered", "spaced"] {
            let text = RulesetBundle.make(documents, release: release) { message in
                var bytes = String(decoding: message, as: UTF8.self)
                if variant == "reordered" {
                    bytes = bytes.replacingOccurrences(of: #""sequence":6,"channel":"stable""#, with: #""channel":"stable","sequence":6"#)
                } else {
                    bytes = bytes.replacingOccurrences(of: ",", with: ", ")
                }
                #expect(bytes != String(decoding: message, as: UTF8.self))
                return Ed25519Signer.sign(Array(bytes.utf8), seed: signer.seed).map { [BundleSignature(keyID: signer.id, signature: $0)] } ?? []
            }
            Self.expectRefused(text, "bundle.bad_signature", by: store)
        }
    }

    @Test func strictJSONAndUnknownKeysAreRefused() throws {
        let signer = try SigningFixture()
        let store = try Self.store(signer)
        let good = signer.bundle(of: Self.root, release: BundleRelease(sequence: 6))
        let cases: [(String, String)] = [
            (good.replacingOccurrences(of: #""sequence":6,"#, with: #""sequence":6,"sequence":7,"#), "json.duplicate_key"),
            (good.replacingOccurrences(of: #""sequence":6"#, with: #""sequence":NaN"#), "json.syntax"),
            (good.replacingOccurrences(of: #""sequence":6"#, with: #""sequence":1e400"#), "bundle.malformed"),
            (good.replacingOccurrences(of: #""sequence":6"#, with: #""sequence":6.0"#), "bundle.malformed"),
            (good.replacingOccurrences(of: #""sequence":6"#, with: #""sequence":"6""#), "bundle.malformed"),
            (good.replacingOccurrences(of: #""sequence":6,"#, with: #""sequence":6,"mirror":"x","#), "bundle.malformed"),
            (good.replacingOccurrences(of: #""content":{"documents""#, with: #""content":{"extra":[],"documents""#), "bundle.malformed"),
            (good.replacingOccurrences(of: #"{"file":"routines/"#, with: #"{"x":"1","file":"routines/"#), "bundle.malformed"),
            (good.replacingOccurrences(of: #""rollout":"100%""#, with: #""rollout":"101%""#), "bundle.malformed"),
            (good.replacingOccurrences(of: #""channel":"stable""#, with: #""channel":"Stable!""#), "bundle.malformed"),
            (good.replacingOccurrences(of: #""version":2"#, with: #""version":3"#), "bundle.unsupported_version"),
        ]
        for (text, code) in cases {
            #expect(text != good, "\(code)")
            Self.expectRefused(text, code, by: store)
        }
        // A key a rule file does not know, inside the content: refused as YAML refuses it
        // (the hash and signature over it made again do not help).
        let directory = try Fixtures.copyOfShipped()
        let water = try String(contentsOfFile: directory + "/routines/water.yaml", encoding: .utf8)
        try (water + "colour: blue\n").write(toFile: directory + "/routines/water.yaml", atomically: true, encoding: .utf8)
        Self.expectRefused(signer.bundle(of: directory, release: BundleRelease(sequence: 6)), "ruleset.unknown_key", by: store)
        // Over the size limit, by one byte.
        Self.expectRefused(String(repeating: " ", count: InputLimits.maxBundleBytes + 1), "json.too_large", by: store)
    }

    /// A key rotation: a bundle signed by the old and the new key is accepted by apps that
    /// trust either; once the old key is retired, a bundle signed by it alone is not.
    @Test func aKeyRotationCarriesTwoSignatures() throws {
        let old = try SigningFixture()
        let new = try SigningFixture()
        let both = old.bundle(of: Self.root, release: BundleRelease(sequence: 6), others: [new])
        #expect(try Self.store(old).offer(bundle: Data(both.utf8), now: Self.now).isSuccess)
        #expect(try Self.store(new).offer(bundle: Data(both.utf8), now: Self.now).isSuccess)
        Self.expectRefused(old.bundle(of: Self.root, release: BundleRelease(sequence: 7)), "bundle.untrusted_key", by: try Self.store(new))
    }

    /// Staged rollout: 10 % of 100,000 install ids fall in (± 1 %), the same ones every time,
    /// and the others keep their ruleset with a note.
    @Test func aTenPercentRolloutReachesTenPercentOfInstalls() throws {
        let release = BundleRelease(sequence: 6, rollout: 1_000)
        let ids = (0..<100_000).map { "install-\($0)" }
        let included = ids.filter { release.includes(installID: $0) }
        #expect(abs(included.count - 10_000) <= 1_000, "\(included.count)")
        #expect(ids.prefix(1_000).filter { release.includes(installID: $0) } == included.filter { ids.prefix(1_000).contains($0) })
        // Another release draws other installs (a bucket is per release).
        let next = BundleRelease(sequence: 7, rollout: 1_000)
        #expect(included.prefix(200).contains { !next.includes(installID: $0) })
        let signer = try SigningFixture()
        let text = signer.bundle(of: Self.root, release: release)
        let outside = try #require(ids.first { !release.includes(installID: $0) })
        let inside = try #require(included.first)
        let keep = RulesetStore(
            ruleset: try #require(Ruleset.load(directory: Self.root).ruleset), keys: signer.keys, installID: outside, acceptedSequence: 5)
        guard case .failure(let refusal) = keep.offer(bundle: Data(text.utf8), now: Self.now) else {
            Issue.record("an install outside the rollout took the bundle")
            return
        }
        #expect(refusal.diagnostics.first?.code == "bundle.not_in_rollout" && refusal.diagnostics.first?.severity == .note)
        let take = RulesetStore(
            ruleset: try #require(Ruleset.load(directory: Self.root).ruleset), keys: signer.keys, installID: inside, acceptedSequence: 5)
        #expect(take.offer(bundle: Data(text.utf8), now: Self.now).isSuccess)
        #expect(BundleRelease.rollout("10%") == 1_000 && BundleRelease.rollout("2.5%") == 250 && BundleRelease.rollout("0%") == nil)
        #expect(BundleRelease.rolloutText(250) == "2.5%" && BundleRelease.rolloutText(1_005) == "10.05%")
    }
}
