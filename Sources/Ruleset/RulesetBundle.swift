import Foundation
import RulesDiagnostics
import RulesDocument

/// Ruleset bundles (SPEC §7): what the app downloads and loads with Foundation alone.
///
/// A bundle is one canonical JSON text:
/// `{"format":"operator-rules-bundle","version":1,"sha256":"…","content":{"documents":[…]}}`.
/// `content` holds every document of the ruleset in path order, each with its source file,
/// its kind and its node tree, every scalar a JSON string (no implicit typing, no YAML
/// spelling: flow or block style, quoting and comments leave no trace). `sha256` is the
/// SHA-256 of `content` written compactly. Loading parses through `JSONReader` and decodes
/// through the same decoder as YAML files, so every expression and reference is checked again.
public enum RulesetBundle {
    /// The `format` of every bundle.
    public static let format = "operator-rules-bundle"
    /// The bundle format version this engine writes and reads.
    public static let version = 1

    /// The diagnostic codes of bundles.
    public static let descriptions: [CodeDescription] = [
        CodeDescription(
            code: "bundle.malformed", severity: .error, summary: "the bundle is not a ruleset bundle",
            rationale: "It is not JSON, or lacks the format, version, sha256 or content fields."),
        CodeDescription(
            code: "bundle.unsupported_version", severity: .error, summary: "a bundle format this engine does not read",
            rationale: "This engine reads format version \(version)."),
        CodeDescription(
            code: "bundle.hash_mismatch", severity: .error, summary: "the content does not match its SHA-256",
            rationale: "The bundle was changed or damaged after it was made; it is refused and the last good ruleset stays."),
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

    /// The bundle text of `documents` (which the caller has checked).
    public static func make(_ documents: [RuleDocument]) -> String {
        let content = content(documents)
        let hash = SHA256.hex(Array(content.rendered().utf8))
        return JSONValue.object([
            ("format", .string(format)), ("version", .int(version)), ("sha256", .string(hash)), ("content", content),
        ]).rendered() + "\n"
    }

    static func refuse(_ code: DiagnosticCode, _ message: String, hint: String? = nil) -> RulesetLoad {
        RulesetLoad(
            ruleset: nil, diagnostics: [Diagnostic(code: code, severity: .error, file: "bundle", location: .fileStart, message: message, hint: hint)],
            sources: [:])
    }

    /// The documents of a bundle after checking its format, version and hash.
    static func documents(_ data: Data) -> (documents: [RuleDocument], failure: RulesetLoad?) {
        let parsed = JSONReader.parse([UInt8](data), file: "bundle", maxBytes: InputLimits.maxBundleBytes, maxDepth: InputLimits.maxNestingDepth + 8)
        if let problem = parsed.diagnostics.first {
            return ([], RulesetLoad(ruleset: nil, diagnostics: [problem], sources: [:]))
        }
        guard let root = parsed.documents.first, root.pairs != nil else {
            return ([], refuse("bundle.malformed", "the bundle is not a JSON object"))
        }
        guard root["format"]?.scalar == format else {
            return ([], refuse("bundle.malformed", "this is not an Operator rules bundle (format '\(root["format"]?.scalar ?? "missing")')"))
        }
        guard root["version"]?.scalar == String(version), root["version"]?.scalarStyle == .plain else {
            return (
                [],
                refuse(
                    "bundle.unsupported_version", "bundle version '\(root["version"]?.scalar ?? "missing")' is not supported",
                    hint: "make the bundle again with this version of rules")
            )
        }
        guard let hash = root["sha256"]?.scalar, let content = root["content"], let items = content["documents"]?.items else {
            return ([], refuse("bundle.malformed", "the bundle lacks sha256 or content.documents"))
        }
        let actual = SHA256.hex(Array(canonical(content).rendered().utf8))
        guard actual == hash else {
            return (
                [],
                refuse(
                    "bundle.hash_mismatch", "the content's SHA-256 is \(actual), not \(hash)",
                    hint: "the bundle was changed after it was made; keep the last good ruleset")
            )
        }
        // No documents is no ruleset (the directory loader refuses an empty one too): the
        // store must never swap it in for a good one.
        guard !items.isEmpty else {
            return ([], refuse("bundle.malformed", "the bundle holds no documents", hint: "make the bundle from a ruleset directory"))
        }
        var documents: [RuleDocument] = []
        for item in items {
            guard let file = item["file"]?.scalar, let kind = item["kind"]?.scalar, let node = item["node"],
                kind == "routines" || kind == "sections"
            else { return ([], refuse("bundle.malformed", "a document of the bundle lacks file, kind or node")) }
            documents.append(RuleDocument(file: file, kind: kind == "routines" ? .routines : .sections, node: node, source: nil))
        }
        return (documents, nil)
    }
}

extension Ruleset {
    /// Loads a bundle with Foundation alone (no libyaml): refuses a malformed, unknown-version
    /// or tampered bundle, then decodes and checks every section exactly as the YAML path
    /// does. Diagnostics name the source file of the document; positions point at the file's
    /// start (the bundle holds no YAML positions).
    public static func load(bundle data: Data) -> RulesetLoad {
        let (documents, failure) = RulesetBundle.documents(data)
        if let failure { return failure }
        let (ruleset, diagnostics) = Ruleset.load(documents: documents)
        let placed = diagnostics.map { diagnostic -> Diagnostic in
            var copy = diagnostic
            copy.location = .fileStart
            copy.end = nil
            return copy
        }
        return RulesetLoad(ruleset: ruleset, diagnostics: DiagnosticCollector(placed).report(), sources: [:])
    }
}

/// The app's hold on its rules: the active ruleset, replaced only by a bundle that loads
/// cleanly, atomically (a reader sees the old ruleset or the new one, never half of either).
public final class RulesetStore: @unchecked Sendable {
    private let lock = NSLock()
    private var active: Ruleset
    private var generationCount = 0

    /// A store holding `ruleset` as its active ruleset.
    public init(ruleset: Ruleset) { active = ruleset }

    /// The ruleset in force.
    public var current: Ruleset {
        lock.lock()
        defer { lock.unlock() }
        return active
    }

    /// How many bundles were accepted since the store was made.
    public var generation: Int {
        lock.lock()
        defer { lock.unlock() }
        return generationCount
    }

    /// Offers a downloaded bundle: accepted only when it loads without errors; otherwise the
    /// last good ruleset stays and the diagnostics say why.
    @discardableResult
    public func offer(bundle data: Data) -> Result<Ruleset, BundleRefusal> {
        let load = Ruleset.load(bundle: data)
        guard let ruleset = load.ruleset, !load.hasErrors else {
            return .failure(BundleRefusal(diagnostics: load.diagnostics))
        }
        lock.lock()
        active = ruleset
        generationCount += 1
        lock.unlock()
        return .success(ruleset)
    }
}

/// Why a bundle was refused.
public struct BundleRefusal: Error, Sendable {
    /// Why: one diagnostic or more.
    public var diagnostics: [Diagnostic]
}
