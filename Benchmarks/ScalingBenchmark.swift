import Foundation
import RulesDocument
import RulesEngine
import RulesExpression
import RulesSimulator
import RulesYAML
import Ruleset
import RulesetFiles

/// Linear cost: each kind of input at 1× and 100× its size, through the command a user runs,
/// with the time ratio printed (goal: 100×, within ±30 %).
enum ScalingBenchmark {
    static func run(repository: String) {
        guard let ruleset = Ruleset.load(directory: repository).ruleset else {
            print("scaling: the shipped ruleset does not load")
            return
        }
        report("keys in a scenario mapping", base: 1_000) { count in
            let keys = (0..<count).map { "k\($0): 1" }.joined(separator: ", ")
            return scenarioCost("name: keys\ndate: 2026-07-20\ntimezone: Asia/Seoul\nsettings: { \(keys) }\nevents: []\n", ruleset)
        }
        report("events in a day", base: 40) { count in
            let events = (0..<count).map { index in
                index % 2 == 0 ? "  - { at: \"08:00\", widget: log_water_250 }" : "  - { at: \"08:00\", app: open }"
            }.joined(separator: "\n")
            return scenarioCost("name: events\ndate: 2026-07-20\ntimezone: Asia/Seoul\nevents:\n\(events)\n", ruleset, check: true)
        }
        report("days in a scenario", base: 30) { count in
            var yaml = "name: days\ntimezone: Asia/Seoul\nroutines: [water, study]\ndays:\n"
            let start = DateFormat.days("2026-01-01") ?? 0
            for day in 0..<count {
                yaml +=
                    "  - date: \(DateFormat.string(start + day))\n    events: [{ at: \"08:00\", app: open }, { at: \"12:00\", log: { routine: water, value: 500 } }]\n"
                yaml += "    expect: [{ day: failed }]\n"
            }
            return scenarioCost(yaml, ruleset, check: true)
        }
        report("days in an HTML report", base: 10) { count in
            var yaml = "name: days\ntimezone: Asia/Seoul\nroutines: [water, study]\ndays:\n"
            let start = DateFormat.days("2026-01-01") ?? 0
            for day in 0..<count {
                yaml += "  - date: \(DateFormat.string(start + day))\n    events: [{ at: \"08:00\", app: open }]\n"
            }
            guard let node = parse(yaml), let scenario = ScenarioLoader.load(node, file: "bench.yaml", source: nil, ruleset: ruleset).scenario else {
                return 0
            }
            let result = Simulation.run(scenario, ruleset: ruleset)
            return Measure.best(runs: 3) { blackHole(HTMLReport.render(result, ruleset: ruleset)) }
        }
        report("days a clock jump skips", base: 500) { count in
            // The app opened again `count` days later (a device clock set ahead): every day
            // between closes once; the last days the engine lives bound the jump.
            guard let clock = LocalClock(identifier: "Asia/Seoul"), let start = DateFormat.days("2026-07-20") else { return 0 }
            return Measure.best(runs: 3) {
                var engine = OperatorEngine(ruleset: ruleset, clock: clock, profile: OperatorProfile(ruleset: ruleset))
                _ = engine.run([.appOpened(health: nil)], now: clock.instant(day: start, seconds: 8 * 3600))
                blackHole(engine.run([.appOpened(health: nil)], now: clock.instant(day: start + count, seconds: 8 * 3600)))
            }
        }
        report("forbidden phrases", base: 300) { count in
            let phrases = (0..<count).map { "금지어\($0)" }.joined(separator: ", ")
            guard let node = parse("forbidden_phrases: [\(phrases)]") else { return 0 }
            let documents = [RuleDocument(file: "templates/extra.yaml", kind: .sections, node: node, source: nil)]
            let files = RulesetDirectory.files(in: repository, folders: RulesetDirectory.rulesetFolders)
            let shipped = RulesetDirectory.read(files).documents
            return Measure.best(runs: 3) { blackHole(Ruleset.load(documents: shipped + documents)) }
        }
        report("files in a directory", base: 20) { count in
            // The shipped ruleset plus `count` small files in a subfolder: walked, read, parsed, loaded.
            let directory = NSTemporaryDirectory() + "scaling-files-\(count)-\(ProcessInfo.processInfo.processIdentifier)"
            defer { try? FileManager.default.removeItem(atPath: directory) }
            for folder in RulesetDirectory.rulesetFolders {
                try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try? FileManager.default.copyItem(atPath: repository + "/" + folder, toPath: directory + "/" + folder)
            }
            try? FileManager.default.createDirectory(atPath: directory + "/templates/extra", withIntermediateDirectories: true)
            for index in 0..<count {
                let text = "forbidden_phrases: [파일\(index)]\n"
                _ = FileManager.default.createFile(atPath: directory + "/templates/extra/f\(index).yaml", contents: Data(text.utf8))
            }
            return Measure.best(runs: 3) { blackHole(Ruleset.load(directory: directory)) }
        }
        // Days as `rules test` lives them (each day's expectations checked when it closes, the
        // day then forgotten) and as `simulate --format json` streams them.
        func longScenario(_ days: Int) -> Scenario? {
            var yaml = "name: long\ntimezone: Asia/Seoul\nroutines: [water]\ndays:\n"
            let start = DateFormat.days("2026-01-01") ?? 0
            for day in 0..<days {
                yaml += "  - date: \(DateFormat.string(start + day))\n    events: [{ at: \"09:00\", app: open }]\n"
                yaml += "    expect: [{ at: \"09:00\", route: regular }]\n"
            }
            guard let node = parse(yaml) else { return nil }
            return ScenarioLoader.load(node, file: "bench.yaml", source: nil, ruleset: ruleset).scenario
        }
        report("days in rules test with an expectation per day", base: 30) { count in
            guard let scenario = longScenario(count) else { return 0 }
            return Measure.best(runs: 3) {
                var passed = 0
                _ = Simulation.run(
                    scenario, ruleset: ruleset,
                    sink: KeepingForExpectations(dayDone: { passed += ExpectationChecker.check($0, ruleset: ruleset).count { $0.passed } }))
                blackHole(passed)
            }
        }
        report("days in simulate --format json", base: 30) { count in
            guard let scenario = longScenario(count) else { return 0 }
            return Measure.best(runs: 3) {
                var bytes = 0
                var writer = TraceWriter(format: .json, scenario: scenario, ruleset: ruleset, dayStart: ruleset.dayStartsAt)
                _ = Simulation.run(scenario, ruleset: ruleset, sink: Streaming { _, records in bytes += writer.write(records).utf8.count })
                blackHole(bytes)
            }
        }
        report("rule documents", base: 160) { count in
            // One notification a document, each of its own category at the same time: the
            // cooldown check compared every pair.
            documentsCost(repository, count: count) { index in
                "notifications:\n  - { id: n\(index), category: c\(index), at: \"10:00\", template: checkin_ready }\n"
            }
        }
        // The shapes a hostile pull request can take that were still quadratic: many one-line
        // documents of one phrase each (checked, and loaded from a bundle as the app does), and
        // one `settings:` section of many keys.
        report("one-phrase rule documents", base: 160) { count in
            documentsCost(repository, count: count) { index in "forbidden_phrases: [\"금지어\(index)\"]\n" }
        }
        report("one-phrase rule documents from a bundle", base: 160) { count in
            let shipped = RulesetDirectory.read(RulesetDirectory.files(in: repository, folders: RulesetDirectory.rulesetFolders)).documents
            let extra = (0..<count).compactMap { index in
                parse("forbidden_phrases: [\"금지어\(index)\"]\n").map {
                    RuleDocument(file: "rules/extra\(index).yaml", kind: .sections, node: $0, source: nil)
                }
            }
            let bundle = Data(RulesetBundle.make(shipped + extra).utf8)
            return Measure.best(runs: 3) { blackHole(Ruleset.load(bundle: bundle)) }
        }
        report("settings keys in one section", base: 400) { count in
            // Read before the shipped files: this section is the one in force (the shipped one is
            // the duplicate), so every expression that reads a setting looks among its keys.
            documentsCost(repository, count: 1, first: true) { _ in
                "settings:\n" + (0..<count).map { "  extra_flag\($0): { type: bool, default: true }\n" }.joined()
            }
        }
        // One checklist routine of many items (duplicates were once found by comparing every
        // item with those before it, in the checker and again when the simulator ticked one):
        // checked, then a day simulated that ticks the last item; the same with one item (the
        // shipped ruleset's own cost) subtracted.
        let shipped = RulesetDirectory.read(RulesetDirectory.files(in: repository, folders: RulesetDirectory.rulesetFolders)).documents
        func checklistCost(_ count: Int) -> Double {
            let items = (0..<count).map { "항목\($0)" }.joined(separator: ", ")
            let routine =
                "id: chores\nname: 집안일\ncategory: room\nsource: checklist\nunit: count\nitems: [\(items)]\n"
                + "core: false\ndefault_enabled: true\n"
            guard let node = parse(routine) else { return 0 }
            let documents = shipped + [RuleDocument(file: "routines/chores.yaml", kind: .routines, node: node, source: nil)]
            guard let withItems = Ruleset.load(documents: documents).ruleset else { return 0 }
            let day =
                "name: chores\ndate: 2026-07-20\ntimezone: Asia/Seoul\nroutines: [chores]\nevents:\n"
                + "  - { at: \"08:00\", app: open }\n  - { at: \"21:00\", check: { routine: chores, item: 항목\(count - 1) } }\n"
            return Measure.best(runs: 3) { blackHole(Ruleset.load(documents: documents)) } + scenarioCost(day, withItems)
        }
        let oneItem = checklistCost(1)
        report("checklist items in a routine", base: 2_000) { count in checklistCost(count) - oneItem }
        report("settings keys across documents", base: 10) { count in
            // 10 keys a document, every document a `settings:` section (one is the section,
            // the others duplicates reported once each).
            documentsCost(repository, count: count) { index in
                "settings: { " + (0..<10).map { "k\(index)_\($0): { type: bool, default: true }" }.joined(separator: ", ") + " }\n"
            }
        }
    }

    static func parse(_ text: String) -> YAMLNode? {
        YAMLReader.parse(text, file: "bench.yaml").documents.first
    }

    /// Loads, simulates and (with `check`) checks the expectations of a scenario.
    static func scenarioCost(_ yaml: String, _ ruleset: Ruleset, check: Bool = false) -> Double {
        Measure.best(runs: 3) {
            guard let node = parse(yaml),
                let scenario = ScenarioLoader.load(node, file: "bench.yaml", source: nil, ruleset: ruleset).scenario
            else { return }
            let result = Simulation.run(scenario, ruleset: ruleset)
            if check { blackHole(ExpectationChecker.check(result, ruleset: ruleset)) }
            blackHole(Trace.jsonLines(result, ruleset: ruleset))
        }
    }

    /// The shipped rule files plus `count` documents, each `document(index)` (after them, or
    /// with `first` before them): loaded (and so linted) as `rules check` loads them.
    static func documentsCost(_ repository: String, count: Int, first: Bool = false, _ document: (Int) -> String) -> Double {
        let shipped = RulesetDirectory.read(RulesetDirectory.files(in: repository, folders: RulesetDirectory.rulesetFolders)).documents
        var extra: [RuleDocument] = []
        for index in 0..<count {
            guard let node = parse(document(index)) else { continue }
            extra.append(RuleDocument(file: "rules/extra\(index).yaml", kind: .sections, node: node, source: nil))
        }
        let documents = first ? extra + shipped : shipped + extra
        return Measure.best(runs: 3) { blackHole(Ruleset.load(documents: documents)) }
    }

    static func report(_ name: String, base: Int, _ cost: (Int) -> Double) {
        let small = cost(base)
        let large = cost(base * 100)
        print(
            "scaling.\(name.replacingOccurrences(of: " ", with: "_")): \(base) → \(Measure.format(small * 1000)) ms, \(base * 100) → \(Measure.format(large * 1000)) ms; ratio \(Measure.format(large / small, decimals: 1))x (goal 100x ± 30 %)"
        )
    }
}
