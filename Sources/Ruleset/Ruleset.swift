import RulesDiagnostics
import RulesDocument
import RulesExpression

/// A checked ruleset: every section of the product's behaviour, with every expression
/// compiled against the fact schema this ruleset defines. Plain `Sendable` values: a new
/// load never changes a ruleset someone holds.
public struct Ruleset: Sendable {
    /// The routines, in file order.
    public var routines: [Routine] = []
    /// Categories the ruleset adds to the built-in ones.
    public var categories: [DeclaredCategory] = []
    /// The settings users may change, with types and defaults.
    public var settings: [SettingDeclaration] = []
    /// Risk table, first match wins; empty means risk is always `low`.
    public var risk: [RiskEntry] = []
    /// Route table, first match wins; empty means the route is always `regular`.
    public var route: [RouteEntry] = []
    /// Routes that, once entered, stay for the rest of the day.
    public var sticky: [RouteKind] = []
    /// `light:`, when the rules declare it.
    public var light: LightRoute?
    /// `recovery:`, when the rules declare it.
    public var recovery: RecoveryRoute?
    /// `judgement:`, when the rules declare it.
    public var judgement: Judgement?
    /// `policy:`: the gates every notification candidate passes.
    public var policy = NotificationPolicy()
    /// The notification types, in file order.
    public var notifications: [NotificationRule] = []
    /// The tools the on-device model may propose.
    public var tools: [Tool] = []
    /// The surfaces text appears on, with their sensitivity.
    public var surfaces: [Surface] = []
    /// Phrases no template may contain (shaming, threats).
    public var forbiddenPhrases: [String] = []
    /// Where the forbidden phrases were declared (one origin per phrase).
    public var forbiddenPhraseOrigins: [Origin] = []
    /// The message templates, in file order.
    public var templates: [Template] = []
    /// The fact schema of this ruleset (built-in facts, routines, settings, notification types).
    public var schema = FactSchema()
    /// Templates named by notification entries an error left out (lints treat them as used).
    package var templatesNamedByWithheldEntries: Set<String> = []
    /// Where each singleton section was declared (for diagnostics and bundles).
    public var sectionOrigins: [String: Origin] = [:]
    /// Where `policy.category_cooldown` is written, if it is.
    public var cooldownOrigin: Origin?
    /// SHA-256 (hex) of the ruleset's documents as a bundle holds them: the same for a
    /// directory and its bundle, different as soon as any value changes. Empty for a
    /// ruleset built in code. A saved engine state remembers the ruleset that wrote it.
    public var sha256 = ""

    /// Positions of entries by id, rebuilt by `reindex()`; lookups verify them and fall
    /// back to a scan, so an edited ruleset still answers correctly.
    private var index = Index()

    private struct Index: Sendable {
        var routines: [String: Int] = [:]
        var templates: [String: Int] = [:]
        var notifications: [String: Int] = [:]
        var tools: [String: Int] = [:]
    }

    /// An empty ruleset (no routine, table or template).
    public init() {}

    /// Rebuilds the id lookup tables (after the entries changed).
    public mutating func reindex() {
        index = Index()
        for (i, routine) in routines.enumerated() where index.routines[routine.id] == nil { index.routines[routine.id] = i }
        for (i, template) in templates.enumerated() where index.templates[template.id] == nil { index.templates[template.id] = i }
        for (i, rule) in notifications.enumerated() where index.notifications[rule.id] == nil { index.notifications[rule.id] = i }
        for (i, tool) in tools.enumerated() where index.tools[tool.name] == nil { index.tools[tool.name] = i }
    }

    private static func find<T>(_ key: String, _ items: [T], _ index: [String: Int], _ id: (T) -> String) -> T? {
        if let i = index[key], i < items.count, id(items[i]) == key { return items[i] }
        return items.first { id($0) == key }
    }

    /// The routine of this id.
    public func routine(_ id: String) -> Routine? { Ruleset.find(id, routines, index.routines, \.id) }
    /// The template of this id.
    public func template(_ id: String) -> Template? { Ruleset.find(id, templates, index.templates, \.id) }
    /// The surface of this name.
    public func surface(_ name: String) -> Surface? { surfaces.first { $0.name == name } }
    /// The notification type of this id.
    public func notification(_ id: String) -> NotificationRule? { Ruleset.find(id, notifications, index.notifications, \.id) }
    /// The tool of this name.
    public func tool(_ name: String) -> Tool? { Ruleset.find(name, tools, index.tools, \.name) }

    /// The tones the user may choose (`settings.tone`'s values), empty without a tone setting.
    public var tones: [String] {
        if case .enumeration(let type)? = settings.declaration("tone")?.type.unwrapped { return type.cases }
        return []
    }

    /// `settings.day_starts_at`'s default, 04:00 when the ruleset does not declare it.
    public var dayStartsAt: Int {
        if case .time(let seconds)? = settings.declaration("day_starts_at")?.defaultValue { return seconds }
        return 4 * 3600
    }

    /// The schema for `when:` of a judgement routine entry (with `progress`, `value`, `goal`).
    public var judgementSchema: FactSchema { schema.withRoutineJudgementBindings() }

    /// The schema for a per-routine notification (with `routine.*`). It extends the
    /// judgement schema so every binding has one slot across all expressions of a ruleset.
    public var perRoutineSchema: FactSchema { schema.withRoutineJudgementBindings().withRoutineBinding() }
}

/// What a load gives back: the ruleset when there were no errors, and every diagnostic
/// (warnings may come with a ruleset).
public struct RulesetLoad: Sendable {
    /// The ruleset, nil when an error refused it.
    public var ruleset: Ruleset?
    /// Every diagnostic, errors first in output order.
    public var diagnostics: [Diagnostic]
    /// The text of every file read, for rendering snippets under diagnostics.
    public var sources: [String: SourceFile]
    /// The documents a directory's load decoded (empty for a bundle): a caller that needs a
    /// copy of the ruleset of its own decodes them again (`Ruleset.load(documents:)`), from
    /// the same bytes.
    public var documents: [RuleDocument]
    /// What decoded from the files that parsed, whether or not an error refused the whole
    /// (nil when nothing was read): an editor completes and hovers from it while a file is
    /// broken. Never for the engine: use `ruleset`.
    public var partial: Ruleset?

    /// A load's outcome.
    public init(
        ruleset: Ruleset?, diagnostics: [Diagnostic], sources: [String: SourceFile], documents: [RuleDocument] = [], partial: Ruleset? = nil
    ) {
        self.ruleset = ruleset
        self.diagnostics = diagnostics
        self.sources = sources
        self.documents = documents
        self.partial = partial ?? ruleset
    }

    /// Whether a diagnostic is an error (then `ruleset` is nil).
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// This load's ruleset if it loaded cleanly, else `current`: a failed reload never
    /// replaces the last good ruleset.
    public func ruleset(orKeeping current: Ruleset) -> Ruleset { hasErrors ? current : (ruleset ?? current) }
}

/// One parsed document of a ruleset, from any front end.
public struct RuleDocument: Sendable {
    /// What a document holds, from its top-level keys.
    public enum Kind: Sendable {
        /// Under `routines/`: a routine, or a list of routines.
        case routines
        /// Under `rules/` or `templates/`: a mapping of sections.
        case sections
    }

    /// The file it came from, relative to the root.
    public var file: String
    /// What it holds.
    public var kind: Kind
    /// Its parsed root node.
    public var node: YAMLNode
    /// The file's text, when known, for exact positions inside expressions.
    public var source: SourceFile?

    /// A parsed document.
    public init(file: String, kind: Kind, node: YAMLNode, source: SourceFile?) {
        self.file = file
        self.kind = kind
        self.node = node
        self.source = source
    }
}
