import Foundation
import RulesDiagnostics
import RulesDocument
import RulesExpression

/// Ruleset bundles (SPEC §7): what the app downloads and loads with Foundation alone.
///
/// A bundle is one canonical JSON text:
/// `{"format":"operator-rules-bundle","version":2,"sha256":"…","sequence":N,"channel":"…",
/// "expires":"YYYY-MM-DD","rollout":"P%","content":{"documents":[…]},"signatures":[…]}`
/// (the release fields and signatures are optional: a bundle without them loads with
/// `Ruleset.load(bundle:)`, but no `RulesetStore` accepts it; see `BundleEnvelope`).
/// `content` holds every document of the ruleset in path order, each with its source file,
/// its kind and its node tree, every scalar a JSON string (no implicit typing, no YAML
/// spelling: flow or block style, quoting and comments leave no trace). `sha256` is the
/// SHA-256 of `content` written compactly. Loading parses through `JSONReader` and decodes
/// through the same decoder as YAML files, so every expression and reference is checked again.
public enum RulesetBundle {
    /// The `format` of every bundle.
    public static let format = "operator-rules-bundle"
    /// The bundle format version this engine writes.
    public static let version = 2
    /// The versions it reads (1: the unsigned bundles of earlier engines).
    public static let versions: ClosedRange<Int> = 1...2

    /// The diagnostic codes of bundles.
    public static let descriptions: [CodeDescription] = [
        CodeDescription(
            code: "bundle.malformed", severity: .error, summary: "the bundle is not a ruleset bundle",
            rationale: "It is not JSON, or lacks the format, version, sha256 or content fields."),
        CodeDescription(
            code: "bundle.unsupported_version", severity: .error, summary: "a bundle format this engine does not read",
            rationale: "This engine reads format versions 1 (unsigned, from earlier engines) and \(version)."),
        CodeDescription(
            code: "bundle.hash_mismatch", severity: .error, summary: "the content does not match its SHA-256",
            rationale: "The bundle was changed or damaged after it was made; it is refused and the last good ruleset stays."),
        CodeDescription(
            code: "bundle.unsigned", severity: .error, summary: "the bundle carries no signature or no release",
            rationale: "The app accepts only bundles signed by a key it trusts: make it with `rules bundle --sign KEY --sequence N`."),
        CodeDescription(
            code: "bundle.untrusted_key", severity: .error, summary: "no key the app trusts signed the bundle",
            rationale: "Its signatures name keys the app does not trust: sign with a trusted key, or ship the new key in the app first."),
        CodeDescription(
            code: "bundle.bad_signature", severity: .error, summary: "a trusted key's signature does not verify",
            rationale: "The bundle was changed after it was signed, or the signature is damaged; the last good ruleset stays."),
        CodeDescription(
            code: "bundle.replayed", severity: .error, summary: "the bundle's sequence is not above the last accepted one",
            rationale: "An older bundle offered again would roll users back; a rollback is old content signed with a higher sequence."),
        CodeDescription(
            code: "bundle.expired", severity: .error, summary: "the bundle's last day has passed",
            rationale: "A bundle expires at the end of its `expires` day (UTC), so a stale one cannot be held back and served later."),
        CodeDescription(
            code: "bundle.wrong_channel", severity: .error, summary: "the bundle is for another channel",
            rationale: "A store accepts only bundles of its own channel (a beta bundle never reaches stable installs)."),
        CodeDescription(
            code: "bundle.unverified", severity: .note, summary: "the bundle is signed, but `rules check` was given no key to verify it with",
            rationale: "Give the public keys the app trusts (`--trust PUB`) to check the signatures as the app will."),
        CodeDescription(
            code: "bundle.not_in_rollout", severity: .note, summary: "this install is outside the bundle's staged rollout",
            rationale: "The install's bucket for the release is at or above the rollout share: it keeps its ruleset."),
    ]

    /// The canonical JSON of a node: scalars as strings (null for YAML's null), mappings
    /// with their keys in order, sequences.
    public static func canonical(_ node: YAMLNode) -> JSONValue {
        switch node.content {
        case .scalar(let text, _):
            return node.isNull ? .null : .string(text)
        case .mapping(let pairs):
            return .object(pairs.map { ($0.key.scalar ?? "", canonical($0.value)) })
        case .sequence(let items):
            return .array(items.map(canonical))
        }
    }

    static func content(_ documents: [RuleDocument]) -> JSONValue {
        .object([
            (
                "documents",
                .array(
                    documents.map { document in
                        .object([
                            ("file", .string(document.file)),
                            ("kind", .string(document.kind == .routines ? "routines" : "sections")),
                            ("node", canonical(document.node)),
                        ])
                    })
            )
        ])
    }

    /// SHA-256 (hex) of `documents`' canonical content: the bundle's `sha256`.
    public static func contentHash(_ documents: [RuleDocument]) -> String {
        SHA256.hex(Array(content(documents).rendered().utf8))
    }

    /// The bundle text of `documents` (which the caller has checked), with its release and
    /// the signatures `sign` makes of `BundleEnvelope.signedBytes` (key id, signature).
    public static func make(
        _ documents: [RuleDocument], release: BundleRelease? = nil, sign: ([UInt8]) -> [BundleSignature] = { _ in [] }
    ) -> String {
        let content = content(documents)
        let hash = SHA256.hex(Array(content.rendered().utf8))
        var members: [(String, JSONValue)] = [("format", .string(format)), ("version", .int(version)), ("sha256", .string(hash))]
        if let release {
            members.append(("sequence", .int(release.sequence)))
            members.append(("channel", .string(release.channel)))
            if let expires = release.expires { members.append(("expires", .string(DateFormat.string(expires)))) }
            members.append(("rollout", .string(BundleRelease.rolloutText(release.rollout))))
        }
        members.append(("content", content))
        if let release {
            let signatures = sign(BundleEnvelope.signedBytes(version: version, sha256: hash, release: release))
            if !signatures.isEmpty {
                members.append(
                    (
                        "signatures",
                        .array(signatures.map { .object([("key_id", .string($0.keyID)), ("signature", .string(Hex.string($0.signature)))]) })
                    ))
            }
        }
        return JSONValue.object(members).rendered() + "\n"
    }

    static func refuse(_ code: DiagnosticCode, _ message: String, hint: String? = nil) -> RulesetLoad {
        RulesetLoad(
            ruleset: nil, diagnostics: [Diagnostic(code: code, severity: .error, file: "bundle", location: .fileStart, message: message, hint: hint)],
            sources: [:])
    }

    /// A bundle's node with its strings as plain scalars: the bundle keeps no YAML quoting (every
    /// scalar is a JSON string), so a number is read by the key's type as it was in the file
    /// that passed `rules check`; the texts YAML would read as nothing stay quoted.
    static func unquoted(_ node: YAMLNode) -> YAMLNode {
        var copy = node
        switch node.content {
        case .scalar(let text, let style):
            if style.isQuoted, !text.isEmpty, text != "~", text != "null" { copy.content = .scalar(text, .plain) }
        case .mapping(let pairs): copy.content = .mapping(pairs.map { YAMLPair(key: $0.key, value: unquoted($0.value)) })
        case .sequence(let items): copy.content = .sequence(items.map(unquoted))
        }
        return copy
    }

    /// The envelope and documents of a bundle after checking its format, version, fields and
    /// hash (not its signatures: see `RulesetStore`).
    package static func open(_ data: Data) -> (envelope: BundleEnvelope?, documents: [RuleDocument], failure: RulesetLoad?) {
        let parsed = JSONReader.parse([UInt8](data), file: "bundle", maxBytes: InputLimits.maxBundleBytes, maxDepth: InputLimits.maxNestingDepth + 8)
        if let problem = parsed.diagnostics.first {
            return (nil, [], RulesetLoad(ruleset: nil, diagnostics: [problem], sources: [:]))
        }
        guard let root = parsed.documents.first else { return (nil, [], refuse("bundle.malformed", "the bundle is not a JSON object")) }
        let envelope: BundleEnvelope
        switch BundleEnvelope.read(root) {
        case .success(let read): envelope = read
        case .failure(.malformed(let message)): return (nil, [], refuse("bundle.malformed", message))
        case .failure(.unsupportedVersion(let text)):
            return (
                nil, [],
                refuse(
                    "bundle.unsupported_version", "bundle version '\(text)' is not supported",
                    hint: "make the bundle again with this version of rules")
            )
        }
        guard let content = root["content"], let contentPairs = content.pairs, contentPairs.count == 1, let items = content["documents"]?.items else {
            return (nil, [], refuse("bundle.malformed", "the bundle's content is not {\"documents\": […]}"))
        }
        // No documents is no ruleset (the directory loader refuses an empty one too): the
        // store must never swap it in for a good one.
        guard !items.isEmpty else {
            return (nil, [], refuse("bundle.malformed", "the bundle holds no documents", hint: "make the bundle from a ruleset directory"))
        }
        var documents: [RuleDocument] = []
        documents.reserveCapacity(items.count)
        for item in items {
            guard item.pairs?.count == 3, let file = item["file"]?.scalar, let kind = item["kind"]?.scalar, let node = item["node"],
                kind == "routines" || kind == "sections"
            else { return (nil, [], refuse("bundle.malformed", "a document of the bundle is not {file, kind, node}")) }
            documents.append(RuleDocument(file: file, kind: kind == "routines" ? .routines : .sections, node: unquoted(node), source: nil))
        }
        // Every field read; then the content's hash.
        let actual = SHA256.hex(Array(canonical(content).rendered().utf8))
        guard actual == envelope.sha256 else {
            return (
                nil, [],
                refuse(
                    "bundle.hash_mismatch", "the content's SHA-256 is \(actual), not \(envelope.sha256)",
                    hint: "the bundle was changed after it was made; keep the last good ruleset")
            )
        }
        return (envelope, documents, nil)
    }
}

extension Ruleset {
    /// Loads a bundle with Foundation alone (no libyaml): refuses a malformed, unknown-version
    /// or tampered bundle, then decodes and checks every section exactly as the YAML path
    /// does. Diagnostics name the source file of the document; positions point at the file's
    /// start (the bundle holds no YAML positions).
    public static func load(bundle data: Data) -> RulesetLoad {
        let (_, documents, failure) = RulesetBundle.open(data)
        if let failure { return failure }
        let (ruleset, diagnostics) = loadPlaced(documents)
        return RulesetLoad(ruleset: ruleset, diagnostics: diagnostics, sources: [:])
    }

    /// The documents of a bundle loaded, their diagnostics at their files' start (a bundle
    /// holds no YAML positions), in output order.
    package static func loadPlaced(_ documents: [RuleDocument]) -> (ruleset: Ruleset?, diagnostics: [Diagnostic]) {
        let (ruleset, diagnostics) = Ruleset.load(documents: documents)
        let placed = diagnostics.map { diagnostic -> Diagnostic in
            var copy = diagnostic
            copy.location = .fileStart
            copy.end = nil
            return copy
        }
        return (ruleset, DiagnosticCollector(placed).report())
    }
}
