import RulesDiagnostics
import RulesDocument
import RulesExpression

/// Decodes parsed documents into a `Ruleset`. Knows no YAML: the YAML loader and the
/// bundle loader both hand it nodes. Two passes: routines, settings and ids first (they
/// make the fact schema), then everything with expressions, then cross-references.
struct RulesetDecoder {
    static let singletonSections = ["risk", "route", "sticky", "light", "recovery", "judgement", "policy", "surfaces", "settings"]
    static let listSections = ["notifications", "templates", "tools", "forbidden_phrases", "categories"]
    static var sectionKeys: [String] { singletonSections + listSections + ["version"] }

    var ruleset = Ruleset()
    var diagnostics: [Diagnostic] = []
    /// Singleton sections: the document reader (for positions) and the value node.
    var singletons: [String: (reader: NodeReader, node: YAMLNode)] = [:]
    /// List sections in file order.
    var lists: [String: [(reader: NodeReader, node: YAMLNode)]] = [:]
    /// The fields of each decoded notification, for reference checks after templates.
    var notificationNodes: [String: Fields] = [:]
    /// Ids seen so far, by kind (routine, template, …), with where each was defined.
    var seenIDs: [String: [String: Origin]] = [:]
    /// Ids written in entries of a kind, whether or not the entry decoded: a reference to one
    /// left out for its own errors is not reported again (see `isWithheld`).
    var declaredIDs: [String: Set<String>] = [:]
    /// Routine categories that are not built in, to resolve against `categories:` once every
    /// document is collected: the routine's index, the node and the file's reader.
    var pendingCategories: [(routine: Int, node: YAMLNode, reader: NodeReader)] = []
    /// The schema with `routine.*` bindings, built once when first needed.
    var perRoutineSchema: FactSchema?
    /// Forbidden phrases kept so far, across documents: 16,000 one-line documents stay linear
    /// (a set made afresh per document from the phrases so far made them quadratic).
    var forbiddenPhrasesSeen: Set<String> = []

    /// The ruleset as far as it could be decoded (entries with errors left out) and every
    /// diagnostic; callers must not use the ruleset when a diagnostic is an error.
    static func decode(_ documents: [RuleDocument]) -> (ruleset: Ruleset, diagnostics: [Diagnostic]) {
        var decoder = RulesetDecoder()
        for document in documents { decoder.collect(document) }
        decoder.decodeCategories()
        decoder.decodeSettings()
        decoder.buildSchema()
        decoder.decodeSections()
        decoder.checkReferences()
        decoder.noteWithheldTemplateReferences()
        decoder.ruleset.reindex()
        return (decoder.ruleset, decoder.diagnostics)
    }

    /// The templates named by notification entries left out for their own errors: a lint
    /// must not add "never used" to the error that left the entry out.
    private mutating func noteWithheldTemplateReferences() {
        let decoded = Set(ruleset.notifications.map(\.id))
        for (_, node) in lists["notifications"] ?? [] {
            for item in node.items ?? [] where !(item["id"]?.scalar.map(decoded.contains) ?? false) {
                for key in ["template", "title"] {
                    if let id = item[key]?.scalar { ruleset.templatesNamedByWithheldEntries.insert(id) }
                }
            }
        }
    }

    mutating func merge(_ reader: NodeReader) { diagnostics.append(contentsOf: reader.diagnostics) }

    // MARK: pass 1

    private mutating func collect(_ document: RuleDocument) {
        var reader = NodeReader(file: document.file, source: document.source)
        let node = document.node
        if node.isNull { return }  // an empty document (a file of comments)
        switch document.kind {
        case .routines:
            if let items = node.items {
                for item in items { decodeRoutine(item, &reader) }
            } else if node.pairs != nil {
                if node["routines"] != nil, node["id"] == nil {
                    if let fields = reader.fields(node, "a routines document", allowed: ["routines", "version"]) {
                        checkVersion(fields, &reader)
                        for item in fields["routines"].flatMap({ reader.list($0, key: "routines") }) ?? [] {
                            decodeRoutine(item, &reader)
                        }
                    }
                } else {
                    decodeRoutine(node, &reader)
                }
            } else {
                reader.report(RulesetDiagnostics.notADocument(reader.file, node, expected: "a routine or a list of routines"))
            }
        case .sections:
            guard let fields = reader.fields(node, "a rule document", allowed: RulesetDecoder.sectionKeys) else { break }
            checkVersion(fields, &reader)
            for pair in node.pairs ?? [] {
                guard let key = pair.key.scalar, fields[key] != nil, key != "version" else { continue }
                if RulesetDecoder.singletonSections.contains(key) {
                    if singletons[key] != nil {
                        reader.report(
                            RulesetDiagnostics.duplicateSection(
                                reader.file, pair.key, first: ruleset.sectionOrigins[key] ?? .unknown))
                    } else {
                        singletons[key] = (NodeReader(file: reader.file, source: reader.source), pair.value)
                        ruleset.sectionOrigins[key] = reader.origin(pair.key)
                    }
                } else {
                    lists[key, default: []].append((NodeReader(file: reader.file, source: reader.source), pair.value))
                }
            }
        }
        merge(reader)
    }

    private func checkVersion(_ fields: Fields, _ reader: inout NodeReader) {
        guard let node = fields["version"] else { return }
        if node.scalar != "1" { reader.report(RulesetDiagnostics.unsupportedVersion(reader.file, node)) }
    }

    // MARK: schema

    private mutating func buildSchema() {
        let settingTypes = ruleset.settings.map { ($0.key, $0.type) }
        var schema = FactSchema.standard(routineIDs: ruleset.routines.map(\.id), settings: settingTypes)
        schema.withheldRoutineIDs = (declaredIDs["routine"] ?? []).filter { isWithheld($0, kind: "routine") }
        // Notification ids are needed for `notifications.<id>.ignored_streak`.
        var ids: [String] = []
        for (_, node) in lists["notifications"] ?? [] {
            for item in node.items ?? [] {
                if let id = item["id"]?.scalar, NodeReader.isIdentifier(id) { ids.append(id) }
            }
        }
        schema.addNotificationTypes(ids)
        ruleset.schema = schema
    }

    // MARK: pass 2

    private mutating func decodeSections() {
        if let (reader, node) = singletons["risk"] { decodeRisk(node, reader) }
        if let (reader, node) = singletons["route"] { decodeRoute(node, reader) }
        if let (reader, node) = singletons["sticky"] { decodeSticky(node, reader) }
        if let (reader, node) = singletons["light"] { decodeLight(node, reader) }
        if let (reader, node) = singletons["recovery"] { decodeRecovery(node, reader) }
        if let (reader, node) = singletons["judgement"] { decodeJudgement(node, reader) }
        if let (reader, node) = singletons["policy"] { decodePolicy(node, reader) }
        if let (reader, node) = singletons["surfaces"] { decodeSurfaces(node, reader) }
        for (reader, node) in lists["forbidden_phrases"] ?? [] { decodeForbiddenPhrases(node, reader) }
        for (reader, node) in lists["tools"] ?? [] { decodeTools(node, reader) }
        for (reader, node) in lists["templates"] ?? [] { decodeTemplates(node, reader) }
        for (reader, node) in lists["notifications"] ?? [] { decodeNotifications(node, reader) }
    }

    /// Records the id an entry of `kind` is written with, before the entry is decoded.
    mutating func declare(_ entry: YAMLNode, kind: String) {
        if let id = entry["id"]?.scalar, NodeReader.isIdentifier(id) { declaredIDs[kind, default: []].insert(id) }
    }

    /// Whether `id` names an entry of `kind` that is written but was left out for its own
    /// errors: a reference to it says nothing more (one error, where the entry is).
    func isWithheld(_ id: String, kind: String) -> Bool {
        declaredIDs[kind]?.contains(id) == true && seenIDs[kind]?[id] == nil
    }

    /// Reports a duplicate id of `kind` and returns whether `id` is new (and records it).
    mutating func isNewID(_ id: String, kind: String, node: YAMLNode, _ reader: inout NodeReader) -> Bool {
        if let first = seenIDs[kind]?[id] {
            reader.report(RulesetDiagnostics.duplicateID(reader.file, node, kind: kind, id: id, first: first))
            return false
        }
        seenIDs[kind, default: [:]][id] = reader.origin(node)
        return true
    }
}
