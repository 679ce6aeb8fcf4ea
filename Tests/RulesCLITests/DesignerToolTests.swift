import CLITestSupport
import Foundation
import RulesCLI
import RulesDiagnostics
import RulesDocument
import RulesEngine
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// `rules diff`, coverage, "why not", `rules tools` and generated boundary scenarios.
@Suite struct DesignerToolTests {
    static let root = Fixtures.repositoryRoot()

    /// A copy of the shipped ruleset in a temporary directory, with `edit` applied to a file.
    /// An edit that changes nothing, or a file that cannot be read or written, is the test's
    /// failure: the test would otherwise judge the shipped ruleset and pass for the wrong reason.
    func copy(editing file: String? = nil, _ edit: (String) -> String = { $0 }, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> String {
        guard let directory = try? Fixtures.copyOfShipped() else {
            Issue.record("cannot copy the shipped ruleset", sourceLocation: sourceLocation)
            return Fixtures.temporaryDirectory()
        }
        guard let file else { return directory }
        guard let text = try? String(contentsOfFile: directory + "/" + file, encoding: .utf8) else {
            Issue.record("cannot read \(file) of the copy", sourceLocation: sourceLocation)
            return directory
        }
        let edited = edit(text)
        if edited == text { Issue.record("the edit of \(file) changed nothing", sourceLocation: sourceLocation) }
        do { try edited.write(toFile: directory + "/" + file, atomically: true, encoding: .utf8) } catch {
            Issue.record("cannot write \(file) of the copy: \(error)", sourceLocation: sourceLocation)
        }
        return directory
    }

    static let evenings = """
        name: 저녁마다 늦게
        timezone: Asia/Seoul
        routines: [water, study, skincare]
        settings: { morning_checkin: false }
        days:
          - date: 2026-07-20
            events: [{ at: "08:00", app: open }, { at: "20:10", app: open }, { at: "21:10", app: open }]
          - date: 2026-07-21
            events: [{ at: "08:00", app: open }, { at: "20:10", app: open }, { at: "21:10", app: open }]
        """

    @Test func diffReportsBehaviourNotText() throws {
        let old = copy()
        let new = copy(editing: "rules/route.yaml") {
            $0.replacingOccurrences(of: "when: now >= 21:00 && completion_rate < 0.6", with: "when: now >= 20:00 && completion_rate < 0.6")
        }
        let scenarios = Fixtures.temporaryDirectory()
        try Fixtures.write(["evenings.yaml": Self.evenings], to: scenarios)
        let run = CapturedRun(["diff", old, new, "--scenarios", scenarios + "/evenings.yaml"], in: "/")
        #expect(run.exitCode == .failure)
        let normalized = run.stdout.replacingOccurrences(of: scenarios + "/", with: "").replacingOccurrences(of: new + "/", with: "NEW/")
        #expect(normalized.hasPrefix("recovery route 60 minutes earlier on 2 days"))
        // The edited table entry is named, with its line in the new ruleset.
        // The edited comparison is named, with its line in the new ruleset: only its constant moved.
        #expect(normalized.contains("← threshold 'now >= 21:00 → 20:00' in route 'completion_rate_below_threshold' (NEW/rules/route.yaml:14)"))
        #expect(normalized.contains("reached     threshold 'now >= 21:00 → 20:00'"), "\(normalized)")
        #expect(Golden.compare(normalized, toFile: Fixtures.directory() + "/diff/threshold.txt") == nil)
        let same = CapturedRun(["diff", old, copy(), "--scenarios", scenarios + "/evenings.yaml"], in: "/")
        #expect(same.exitCode == .success)
        #expect(same.stdout == "no behaviour changed over 2 days\n")
        let json = CapturedRun(["diff", old, new, "--scenarios", scenarios + "/evenings.yaml", "--format", "json"], in: "/")
        #expect(json.stdout.contains("\"changed\": true"))
    }

    @Test func theDiffSummaryCountsGainedLostAndMovedDeliveriesWithTheGate() throws {
        let old = copy()
        // An 08:00 notice of the check-in category: the 09:00 check-in is lost to the cooldown
        // on every day, and nothing else changes.
        let new = copy(editing: "rules/notifications.yaml") {
            $0.replacingOccurrences(
                of: "notifications:\n",
                with: "notifications:\n  - id: early_hello\n    category: checkin\n    at: \"08:00\"\n    template: checkin_ready\n", options: [],
                range: nil)
        }
        let scenarios = Fixtures.temporaryDirectory()
        try Fixtures.write(
            [
                "mornings.yaml": """
                name: mornings
                timezone: Asia/Seoul
                routines: [water]
                days:
                  - date: 2026-07-20
                    events: [{ at: "07:00", app: open }, { at: "12:00", app: open }]
                  - date: 2026-07-21
                    events: [{ at: "07:00", app: open }, { at: "12:00", app: open }]
                """
            ], to: scenarios)
        let run = CapturedRun(["diff", old, new, "--scenarios", scenarios + "/mornings.yaml"], in: "/")
        #expect(run.exitCode == .failure)
        let summary = run.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(summary.hasPrefix("notifications 2 gained, 2 lost (category_cooldown ×2) over 2 days"), "\(summary)")
    }

    @Test func coverageCountsWhatTheScenariosExercised() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        let coverage = RuleCoverage(ruleset: ruleset)
        let yaml = """
            name: one morning
            date: 2026-07-20
            timezone: Asia/Seoul
            health: { permission: { sleep: granted }, sleep: { start: "00:00", end: "05:59" } }
            events: [{ at: "08:00", app: open }, { at: "09:30", log: { routine: water, value: 1500 } }]
            """
        let node = try #require(YAMLReader.parse(yaml, file: "x.yaml").documents.first)
        let scenario = try #require(ScenarioLoader.load(node, file: "x.yaml", source: nil, ruleset: ruleset).scenario)
        _ = Simulation.run(scenario, ruleset: ruleset, sink: KeepingAll { coverage.observe($0, $1) })
        let items = Dictionary(uniqueKeysWithValues: coverage.items.map { ("\($0.category) \($0.label)", $0) })
        #expect(items["tables route[2] light"]?.covered == true)  // 359 minutes of sleep
        #expect(items["tables route[1] recovery"]?.covered == false)  // never after 21:00 below 60 %
        #expect(items["tables risk[3] low"]?.covered == true)
        #expect(items["tables risk[1] high"]?.covered == false)
        #expect(items["gates quiet_hours"]?.covered == false)
        #expect(items["tools log_habit_event"]?.covered == false)
        let sleep = try #require(coverage.items.first { $0.label.contains("sleep.minutes < 360") })
        #expect(sleep.covered == false)
        #expect(sleep.missing == "never where it fails")
        #expect(coverage.percent > 0 && coverage.percent < 50)
    }

    /// A threshold is covered only when values close to it were seen on both sides: the
    /// shipped scenarios sleep 350 and 390 minutes around the light route's 360, and 390 is
    /// not within 5 % (18 minutes) of it. Each threshold's nearest values are printed.
    @Test func coverageDoesNotFlatterAThresholdSeenFarAway() {
        let run = CapturedRun(["test", "--coverage"], in: Self.root)
        #expect(run.stdout.contains("  route[2] light: sleep.minutes < 360: nearest 350 where it holds, 390 where it fails\n"), "\(run.stdout)")
        #expect(
            run.stdout.contains(
                "thresholds: route[2] light: sleep.minutes < 360 — nearest where it fails is 390, not within 18 of 360  rules/route.yaml:18"))
        #expect(run.stdout.contains("nearest 0.5 where it holds, 0.667 where it fails"))
        #expect(!run.stdout.contains("thresholds  13/13"))
        let json = CapturedRun(["test", "--coverage", "--format", "json"], in: Self.root)
        #expect(json.stdout.contains("\"nearest_failing\": \"390\""))
    }

    @Test func coverageGateFailsBelowTheMinimum() {
        let run = CapturedRun(["test", "--coverage", "--min-coverage", "99"], in: Self.root)
        #expect(run.exitCode == .failure)
        #expect(run.stdout.contains("is below the minimum of 99%"))
        let ok = CapturedRun(["test", "--coverage", "--min-coverage", "50", "--format", "json"], in: Self.root)
        #expect(ok.exitCode == .success)
        #expect(ok.stdout.contains("\"percent\": "))
    }

    @Test func coverageJSONStaysValidWhenAScenarioFails() throws {
        let directory = try Fixtures.copyOfShipped()
        try FileManager.default.createDirectory(atPath: directory + "/scenarios", withIntermediateDirectories: true)
        try "name: wrong\ndate: 2026-07-20\ntimezone: Asia/Seoul\nevents: [{ at: \"08:00\", app: open }]\nexpect: [{ day: success }]\n"
            .write(toFile: directory + "/scenarios/wrong.yaml", atomically: true, encoding: .utf8)
        let run = CapturedRun(["test", "--coverage", "--format", "json"], in: directory)
        #expect(run.exitCode == .failure)
        #expect(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) is [String: Any])
        #expect(run.stderr.contains("0 passed, 1 failed"))
    }

    @Test(arguments: [
        (
            "07:30", "route=light", "good_day",
            "would have been the light route if sleep.minutes had been 359 (sleep.minutes < 360); it was 450 (it was regular)"
        ),
        (
            "18:00", "route=recovery", "collapsed_day",
            "would have been the recovery route if now had been 21:00 (now >= 21:00); it was 18:00 (it was light)"
        ),
        ("21:10", "route=recovery", "collapsed_day", "the route was already recovery"),
        (
            "21:10", "notification=recovery_route", "collapsed_day",
            "recovery_route was stopped by the gate 'condition_false' (risk == \"high\"); it would have been risk high at 21:30 if completion_rate had been 0.49 (completion_rate < 0.5); it was 0.5 (it was medium)"
        ),
    ])
    func whyNotFindsTheSmallestChange(at: String, question: String, scenario: String, answer: String) {
        let run = CapturedRun(["explain", "scenarios/\(scenario).yaml", "--at", at, "--why-not", question], in: Self.root)
        #expect(run.stdout == answer + "\n")
    }

    @Test(arguments: [
        ("route=nope", "'nope' is not a route (one of regular, light, recovery)"), ("risk=", "ask as route=KIND"),
        ("=", "ask as route=KIND"), ("light", "ask as route=KIND"), ("mood=low", "ask about route=, risk= or notification="),
        ("notification=nope", "no notification type 'nope' (the ruleset has"),
    ])
    func aQuestionWhyNotCannotAskIsAUsageError(question: String, message: String) {
        let run = CapturedRun(["explain", "scenarios/collapsed_day.yaml", "--at", "21:10", "--why-not", question], in: Self.root)
        #expect(run.exitCode == .usage)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("--why-not: \(message)"), "\(run.stderr)")
    }

    @Test func generatedBoundaryScenariosSitOnBothSides() {
        let out = Fixtures.temporaryDirectory()
        let generate = CapturedRun(["test", "--generate-boundaries", out], in: Self.root)
        #expect(generate.exitCode == .success)
        #expect(generate.stdout.contains("boundary_route2_sleep_minutes_holds.yaml"))
        let files = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
        #expect(files.count >= 10 && files.count % 2 == 0)
        let run = CapturedRun(["test", out], in: Self.root)
        #expect(run.exitCode == .success, "\(run.stdout)")
    }

    /// The export is parsed back and used to validate every call of the shipped scenarios:
    /// it must agree with the engine's own validator.
    @Test(arguments: ["gemma", "openai", "json-schema"])
    func toolsExportValidatesCallsLikeTheEngine(format: String) throws {
        let run = CapturedRun(["tools", "--format", format], in: Self.root)
        #expect(run.exitCode == .success)
        let export = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        var calls: [String] = []
        for name in RulesetDirectory.yamlFiles(under: Self.root + "/scenarios") {
            let text = try String(contentsOfFile: Self.root + "/scenarios/" + name, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains("tool_call: '") {
                if let start = line.range(of: "tool_call: '"), let end = line.range(of: "' }", options: .backwards) {
                    calls.append(String(line[start.upperBound..<end.lowerBound]))
                }
            }
        }
        #expect(calls.count >= 8)
        let validator = ToolValidator(ruleset: ruleset)
        for call in calls {
            let verdict = validator.validate(call).verdict
            // Function declarations cannot say that a unit must match the routine's unit; the
            // JSON Schema export can, and must agree on those too.
            // Nor that a value may be left out only for check and count routines.
            if format != "json-schema", verdict.reason == "unit_mismatch" || verdict.reason == "ask for value" { continue }
            let engineAccepts = verdict.outcome == .accepted
            let schemaAccepts = MiniSchema.accepts(call, export: export, format: format)
            #expect(engineAccepts == schemaAccepts, "\(call)")
        }
    }
}

/// A small JSON-Schema reader for what `rules tools` exports (type, enum, const, minimum,
/// maximum, maxLength, required, additionalProperties, oneOf), to check calls against it.
enum MiniSchema {
    static func accepts(_ text: String, export: Any, format: String) -> Bool {
        guard let data = text.data(using: .utf8), let call = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            Set(call.keys).isSubset(of: ["name", "arguments"]), let name = call["name"] as? String
        else { return false }
        let arguments = call["arguments"] ?? [String: Any]()
        switch format {
        case "json-schema":
            guard let schema = export as? [String: Any], let options = schema["oneOf"] as? [[String: Any]] else { return false }
            return options.contains { valid(call, $0) }
        default:
            let declarations = (export as? [[String: Any]]) ?? []
            let function = declarations.map { ($0["function"] as? [String: Any]) ?? $0 }.first { $0["name"] as? String == name }
            guard let parameters = function?["parameters"] as? [String: Any] else { return false }
            return valid(arguments, parameters)
        }
    }

    static func valid(_ value: Any, _ schema: [String: Any]) -> Bool {
        if let options = schema["oneOf"] as? [[String: Any]] {
            return options.count { valid(value, $0) } == 1
        }
        if let constant = schema["const"] as? String, value as? String != constant { return false }
        if let options = schema["enum"] as? [String] {
            guard let text = value as? String, options.contains(text) else { return false }
        }
        switch (schema["type"] as? String)?.lowercased() {
        case "object"?:
            guard let object = value as? [String: Any] else { return false }
            let properties = schema["properties"] as? [String: [String: Any]] ?? [:]
            for key in (schema["required"] as? [String]) ?? [] where object[key] == nil { return false }
            for (key, item) in object {
                guard let property = properties[key] else {
                    if schema["additionalProperties"] as? Bool == false || (schema["type"] as? String) == "OBJECT" { return false }
                    continue
                }
                if !valid(item, property) { return false }
            }
        case "string"?:
            guard let text = value as? String else { return false }
            if let maxLength = schema["maxLength"] as? Int, text.count > maxLength { return false }
        case "number"?, "integer"?:
            guard !(value is Bool), let number = value as? NSNumber else { return false }
            let double = number.doubleValue
            if (schema["type"] as? String)?.lowercased() == "integer", double != double.rounded() { return false }
            if let minimum = (schema["minimum"] as? NSNumber)?.doubleValue, double < minimum { return false }
            if let maximum = (schema["maximum"] as? NSNumber)?.doubleValue, double > maximum { return false }
        case "boolean"?:
            guard value is Bool else { return false }
        default:
            break
        }
        return true
    }
}
