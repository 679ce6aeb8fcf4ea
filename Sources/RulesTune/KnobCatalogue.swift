import Foundation
import RulesDiagnostics
import RulesDocument
import RulesExpression
import Ruleset

/// Every knob a ruleset has, found in its documents: the policy's values, each notification's
/// constant time, the constants of the comparisons in the risk, route and judgement tables and
/// in notification conditions, the light route's scale, the recovery route's item count and
/// the defaults of settings. A value written in a way that cannot be replaced character for
/// character (a folded scalar, an escape) is left out rather than rewritten wrongly.
package struct KnobCatalogue: Sendable {
    package private(set) var knobs: [Knob] = []
    /// Where relative paths are read from, and the ruleset's directory as given, so that
    /// `./rules/x.yaml:4`, an absolute path and `rules/x.yaml:4` inside the ruleset name one knob.
    package var workingDirectory = ""
    package var rulesetDirectory = "."

    /// The knobs of `ruleset`, whose `documents` and `sources` were read from its files.
    package init(ruleset: Ruleset, documents: [RuleDocument], sources: [String: SourceFile]) {
        var scalars: [String: [SourceLocation: YAMLNode]] = [:]
        for document in documents { Self.index(document.node, file: document.file, into: &scalars) }
        var finder = Finder(scalars: scalars, sources: sources)
        finder.policy(ruleset.policy, documents: documents)
        finder.notifications(ruleset)
        finder.tables(ruleset)
        finder.rest(ruleset, documents: documents)
        knobs = finder.found
    }

    /// The knob named `name` (`policy.max_per_day`) or written at `file:line` (the one value
    /// on that line; an error when the line holds none or several).
    package func knob(_ address: String) -> Result<Knob, KnobProblem> {
        if let knob = knobs.first(where: { $0.name == address }) { return .success(knob) }
        if let colon = address.lastIndex(of: ":"), let line = Int(address[address.index(after: colon)...]) {
            let file = String(address[..<colon])
            let here = knobs.filter { sameFile($0.file, file) && $0.line == line }
            if here.count == 1 { return .success(here[0]) }
            if here.count > 1 {
                return .failure(
                    KnobProblem("\(TuneQuestion.shown(address)) holds \(here.count) knobs: name one of \(here.map(\.name).joined(separator: ", "))"))
            }
            let inFile = knobs.filter { sameFile($0.file, file) }
            guard !inFile.isEmpty else {
                return .failure(
                    KnobProblem(
                        "\(TuneQuestion.shown(file)) holds no knob", hint: "knobs live in \(Set(knobs.map(\.file)).sorted().joined(separator: ", "))")
                )
            }
            let lines = inFile.map { "\($0.line)" }
            return .failure(
                KnobProblem(
                    "\(TuneQuestion.shown(address)) holds no knob", hint: "\(inFile[0].file) has knobs on lines \(lines.joined(separator: ", "))"))
        }
        let near = Suggestions.nearest(to: address, among: knobs.map(\.name))
        return .failure(
            KnobProblem(
                "unknown knob '\(TuneQuestion.shown(address))'",
                hint: near.map { "did you mean '\($0)'? (rules tune --list-knobs lists them all)" } ?? "rules tune --list-knobs lists them all"
            ))
    }

    /// Whether a knob's file (as the ruleset's files are named) and a file as a user wrote it
    /// are one: the same path once `.` and `..` are resolved from the working directory, or the
    /// user's path read inside the ruleset's directory.
    func sameFile(_ knobFile: String, _ written: String) -> Bool {
        if knobFile == written { return true }
        let mine = absolute(knobFile)
        return mine == absolute(written) || mine == absolute((rulesetDirectory as NSString).appendingPathComponent(written))
    }

    func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : (workingDirectory as NSString).appendingPathComponent(path)
        return (full as NSString).standardizingPath
    }

    static func index(_ node: YAMLNode, file: String, into scalars: inout [String: [SourceLocation: YAMLNode]]) {
        switch node.content {
        case .scalar: scalars[file, default: [:]][node.start] = node
        case .mapping(let pairs): for pair in pairs { index(pair.value, file: file, into: &scalars) }
        case .sequence(let items): for item in items { index(item, file: file, into: &scalars) }
        }
    }
}

/// Why a knob could not be named or set.
package struct KnobProblem: Error, Sendable, Equatable {
    package var message: String
    package var hint: String?

    package init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }
}

/// Walks a ruleset's entries and finds the scalars that hold their values.
private struct Finder {
    let scalars: [String: [SourceLocation: YAMLNode]]
    let sources: [String: SourceFile]
    var found: [Knob] = []

    init(scalars: [String: [SourceLocation: YAMLNode]], sources: [String: SourceFile]) {
        self.scalars = scalars
        self.sources = sources
    }

    static let dayTimes = 0.0...86_340.0

    /// A knob whose value is the whole scalar at `origin`.
    mutating func scalar(
        _ name: String, at origin: Origin?, kind: Knob.Kind, current: Double, bounds: ClosedRange<Double>, what: String
    ) {
        guard let origin, let node = scalars[origin.file]?[origin.location], case .scalar(let text, _) = node.content else { return }
        let count = text.unicodeScalars.count
        add(name, node: node, file: origin.file, offsets: 0..<count, kind: kind, current: current, bounds: bounds, what: what)
    }

    /// A knob whose value is the characters `offsets` of the scalar `node`, when they sit on
    /// one line of the file exactly as the scalar's value holds them.
    mutating func add(
        _ name: String, node: YAMLNode, file: String, offsets: Range<Int>, kind: Knob.Kind, current: Double, bounds: ClosedRange<Double>,
        what: String
    ) {
        guard let source = sources[file], case .scalar(let text, _) = node.content, !offsets.isEmpty,
            !found.contains(where: { $0.name == name })
        else { return }
        let positions = ScalarPositions(node: node, source: source)
        let first = positions.location(at: offsets.lowerBound)
        let last = positions.location(at: offsets.upperBound - 1)
        guard first.line == last.line, let line = source.line(first.line) else { return }
        let lineScalars = Array(line.unicodeScalars)
        let valueScalars = Array(text.unicodeScalars)
        guard offsets.upperBound <= valueScalars.count, last.column - 1 < lineScalars.count, first.column >= 1,
            Array(lineScalars[(first.column - 1)..<last.column]) == Array(valueScalars[offsets])
        else { return }
        found.append(
            Knob(
                name: name, file: file, kind: kind, current: current, bounds: bounds, line: first.line, startColumn: first.column,
                endColumn: last.column + 1, what: what))
    }

    mutating func policy(_ policy: NotificationPolicy, documents: [RuleDocument]) {
        guard let node = Self.section("policy", in: documents) else { return }
        let file = node.file
        func child(_ path: [String]) -> Origin? {
            var current = node.node
            for key in path {
                guard case .mapping(let pairs) = current.content, let pair = pairs.first(where: { $0.key.scalar == key }) else { return nil }
                current = pair.value
            }
            return Origin(file: file, location: current.start)
        }
        scalar(
            "policy.max_per_day", at: child(["max_per_day"]), kind: .count, current: Double(policy.maxPerDay), bounds: 1...64,
            what: "the most notices a day")
        scalar(
            "policy.category_cooldown", at: child(["category_cooldown"]), kind: .duration, current: Double(policy.categoryCooldown),
            bounds: 0...86_340, what: "the least time between two notices of one category")
        if let quiet = policy.quietHours {
            scalar(
                "policy.quiet_hours.start", at: child(["quiet_hours", "start"]), kind: .time, current: Double(quiet.start), bounds: Self.dayTimes,
                what: "when quiet hours begin")
            scalar(
                "policy.quiet_hours.end", at: child(["quiet_hours", "end"]), kind: .time, current: Double(quiet.end), bounds: Self.dayTimes,
                what: "when quiet hours end")
        }
        scalar(
            "policy.weaken.after_ignored", at: child(["weaken", "after_ignored"]), kind: .count, current: Double(policy.weakenAfterIgnored),
            bounds: 1...100, what: "ignored notices in a row before a type weakens")
        scalar(
            "policy.max_pending", at: child(["max_pending"]), kind: .count, current: Double(policy.maxPending), bounds: 1...64,
            what: "notices scheduled ahead at most")
    }

    /// The mapping that holds `key` at the top of a `rules/` document, with its file.
    static func section(_ key: String, in documents: [RuleDocument]) -> (file: String, node: YAMLNode)? {
        for document in documents where document.kind == .sections {
            guard case .mapping(let pairs) = document.node.content, let pair = pairs.first(where: { $0.key.scalar == key }) else { continue }
            return (document.file, pair.value)
        }
        return nil
    }

    mutating func notifications(_ ruleset: Ruleset) {
        for rule in ruleset.notifications {
            if case .constant(.time(let seconds)) = rule.at.typed.kind {
                scalar(
                    "notifications.\(rule.id).at", at: rule.atOrigin, kind: .time, current: Double(seconds), bounds: Self.dayTimes,
                    what: "when \(rule.id) is due")
            }
            if let when = rule.when, let origin = rule.whenOrigin {
                comparisons(in: when, at: origin, name: "notifications.\(rule.id).when", what: "\(rule.id)'s condition")
            }
        }
    }

    mutating func tables(_ ruleset: Ruleset) {
        var seen: [String: Int] = [:]
        func label(_ base: String) -> String {
            seen[base, default: 0] += 1
            return seen[base] == 1 ? base : "\(base)#\(seen[base] ?? 1)"
        }
        for entry in ruleset.risk {
            comparisons(in: entry.when, at: entry.whenOrigin, name: label("risk.\(entry.level.rawValue)"), what: "risk \(entry.level.rawValue)")
        }
        for entry in ruleset.route {
            comparisons(
                in: entry.when, at: entry.whenOrigin, name: label("route.\(entry.reason)"), what: "route \(entry.route.rawValue) (\(entry.reason))")
        }
        for entry in ruleset.judgement?.routine ?? [] {
            comparisons(
                in: entry.when, at: entry.whenOrigin, name: label("judgement.routine.\(entry.status.rawValue)"),
                what: "a routine judged \(entry.status.rawValue)")
        }
        for entry in ruleset.judgement?.day ?? [] {
            comparisons(
                in: entry.when, at: entry.whenOrigin, name: label("judgement.day.\(entry.result.rawValue)"),
                what: "a day judged \(entry.result.rawValue)")
        }
    }

    /// The constants of `expression`'s comparisons: `NAME` when it has one, `NAME.FACT` (and
    /// `NAME.FACT#2` for a second comparison of one fact) when it has several.
    mutating func comparisons(in expression: CompiledExpression, at origin: Origin, name: String, what: String) {
        guard let node = scalars[origin.file]?[origin.location] else { return }
        let thresholds = Threshold.extract(from: expression.typed).sorted { $0.range.start < $1.range.start }
        var perFact: [String: Int] = [:]
        for threshold in thresholds {
            guard let range = threshold.constantRange, let (kind, current) = Self.value(threshold.constant) else { continue }
            perFact[threshold.fact, default: 0] += 1
            let count = perFact[threshold.fact] ?? 1
            let full = thresholds.count == 1 ? name : "\(name).\(threshold.fact)" + (count == 1 ? "" : "#\(count)")
            add(
                full, node: node, file: origin.file, offsets: range.start..<range.end, kind: kind, current: current,
                bounds: Self.bounds(fact: threshold.fact, kind: kind, current: current),
                what: "\(threshold.text(in: expression.source)) in \(what)")
        }
    }

    static func value(_ constant: Value) -> (Knob.Kind, Double)? {
        switch constant {
        case .int(let n): (.count, Double(n))
        case .number(let x): (.number, x)
        case .time(let seconds): (.time, Double(seconds))
        case .duration(let seconds): (.duration, Double(seconds))
        default: nil
        }
    }

    /// What a comparison's constant may be: a share 0 … 1 (a progress up to 5), a time of day,
    /// minutes up to a day, steps up to 100,000, a duration up to a day, otherwise a number from 0 to a billion (negative when it is).
    static func bounds(fact: String, kind: Knob.Kind, current: Double) -> ClosedRange<Double> {
        switch kind {
        case .time: return dayTimes
        case .duration: return 0...86_400
        default:
            if fact == "completion_rate" || fact.hasSuffix("rate") { return 0...1 }
            if fact == "progress" || fact.hasSuffix(".progress") { return 0...5 }
            if fact.hasSuffix("minutes") { return 0...1_440 }
            if fact.hasSuffix("steps") || fact.hasPrefix("steps.") { return 0...100_000 }
            let limit = Double(InputLimits.maxNumber)
            return current < 0 ? -limit...limit : 0...limit
        }
    }

    mutating func rest(_ ruleset: Ruleset, documents: [RuleDocument]) {
        if let light = ruleset.light {
            scalar(
                "light.scale", at: light.origin, kind: .number, current: light.scale, bounds: 0.05...1, what: "the light route's share of each goal")
        }
        if let recovery = ruleset.recovery, let section = Self.section("recovery", in: documents),
            case .mapping(let pairs) = section.node.content, let pair = pairs.first(where: { $0.key.scalar == "max_items" })
        {
            scalar(
                "recovery.max_items", at: Origin(file: section.file, location: pair.value.start), kind: .count,
                current: Double(recovery.maxItems), bounds: 1...10, what: "the most items of the recovery route")
        }
        guard let section = Self.section("settings", in: documents), case .mapping(let pairs) = section.node.content else { return }
        for setting in ruleset.settings {
            guard let pair = pairs.first(where: { $0.key.scalar == setting.key }), case .mapping(let fields) = pair.value.content,
                let node = fields.first(where: { $0.key.scalar == "default" })?.value
            else { continue }
            let at = Origin(file: section.file, location: node.start)
            let name = "settings.\(setting.key).default"
            switch setting.defaultValue {
            case .bool(let on): scalar(name, at: at, kind: .bool, current: on ? 1 : 0, bounds: 0...1, what: "\(setting.key)'s default")
            case .time(let seconds):
                scalar(name, at: at, kind: .time, current: Double(seconds), bounds: Self.dayTimes, what: "\(setting.key)'s default")
            case .int(let n):
                let limit = Double(InputLimits.maxNumber)
                scalar(name, at: at, kind: .count, current: Double(n), bounds: -limit...limit, what: "\(setting.key)'s default")
            case .duration(let seconds):
                scalar(name, at: at, kind: .duration, current: Double(seconds), bounds: 0...86_400, what: "\(setting.key)'s default")
            default: continue
            }
        }
    }
}
