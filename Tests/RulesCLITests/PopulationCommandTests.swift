import CLITestSupport
import Foundation
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// `rules population` as the product team runs it: shards merged equal one run byte for
/// byte, the output is the same for any --jobs and across processes, a broken invariant
/// exits 1 and names a user-day whose replay shows it.
@Suite struct PopulationCommandTests {
    static let root = Fixtures.repositoryRoot()
    static let office = ["populations/office_workers.yaml", "--users", "40", "--days", "4"]

    @Test func fourShardsMergedEqualTheWholeRun() throws {
        let directory = Fixtures.temporaryDirectory()
        let whole = CapturedRun(["population"] + Self.office + ["--format", "json", "--jobs", "1"], in: Self.root)
        #expect(whole.exitCode == .success, "\(whole.stdout)\(whole.stderr)")
        var files: [String] = []
        for k in 1...4 {
            let file = directory + "/shard\(k).json"
            let shard = CapturedRun(["population"] + Self.office + ["--shard", "\(k)/4", "--out", file], in: Self.root)
            #expect(shard.exitCode == .success, "\(shard.stderr)")
            files.append(file)
        }
        let partial = try String(contentsOfFile: files[0], encoding: .utf8)
        #expect(partial.contains("\"shard\": \"1/4\""))
        let merged = CapturedRun(["population", "merge"] + files.reversed(), in: Self.root)
        #expect(merged.exitCode == .success, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
        // A missing or repeated shard is refused.
        let missing = CapturedRun(["population", "merge"] + files.dropLast(), in: Self.root)
        #expect(missing.exitCode == .failure)
        #expect(missing.stderr.contains("missing shard 4/4"))
        let twice = CapturedRun(["population", "merge", files[0], files[0], files[1], files[2]], in: Self.root)
        #expect(twice.stderr.contains("shard 1/4 is given twice"))
        // A shard of another ruleset is not part of this run; one run from another folder is.
        let foreign = directory + "/foreign.json"
        let moved = directory + "/moved.json"
        let text = try String(contentsOfFile: files[3], encoding: .utf8)
        let sha = try #require(text.split(separator: "\n").first { $0.contains("\"ruleset_sha256\"") })
        try text.replacingOccurrences(of: String(sha), with: "  \"ruleset_sha256\": \"0000\",").write(
            toFile: foreign, atomically: true, encoding: .utf8)
        try text.replacingOccurrences(of: "\"file\": \"populations/office_workers.yaml\"", with: "\"file\": \"/srv/pop/office_workers.yaml\"")
            .write(toFile: moved, atomically: true, encoding: .utf8)
        let mixed = CapturedRun(["population", "merge", files[0], files[1], files[2], foreign], in: Self.root)
        #expect(mixed.exitCode == .failure)
        #expect(mixed.stderr.contains("the results are not of one run"), "\(mixed.stderr)")
        let elsewhere = CapturedRun(["population", "merge", files[0], files[1], files[2], moved], in: Self.root)
        #expect(elsewhere.exitCode == .success, "\(elsewhere.stderr)")
        #expect(elsewhere.stdout == whole.stdout)
    }

    @Test func shardsOfAnEditedPopulationFileDoNotMerge() throws {
        let directory = Fixtures.temporaryDirectory()
        let original = try String(contentsOfFile: Self.root + "/populations/office_workers.yaml", encoding: .utf8)
        // The same content with other comments and layout is the same population; a changed
        // weight (same name, seed and size) is another.
        let relaid = directory + "/relaid.yaml"
        let edited = directory + "/edited.yaml"
        try ("# moved to another machine\n" + original).write(toFile: relaid, atomically: true, encoding: .utf8)
        #expect(original.contains("weight: 0.35"))
        try original.replacingOccurrences(of: "weight: 0.35", with: "weight: 0.36").write(toFile: edited, atomically: true, encoding: .utf8)
        var files: [String] = []
        for (k, file) in [(1, "populations/office_workers.yaml"), (2, relaid), (2, edited)] {
            let out = directory + "/part\(files.count).json"
            let run = CapturedRun(["population", file, "--users", "6", "--days", "2", "--shard", "\(k)/2", "--out", out], in: Self.root)
            #expect(run.exitCode == .success, "\(run.stderr)")
            files.append(out)
        }
        let first = try String(contentsOfFile: files[0], encoding: .utf8)
        #expect(first.contains("\"population_sha256\": \""))
        let same = CapturedRun(["population", "merge", files[0], files[1]], in: Self.root)
        #expect(same.exitCode == .success, "\(same.stderr)")
        let other = CapturedRun(["population", "merge", files[0], files[2]], in: Self.root)
        #expect(other.exitCode == .failure)
        #expect(other.stderr.contains("the results are not of one run"), "\(other.stderr)")
        #expect(other.stderr.contains("population file "), "\(other.stderr)")
    }

    @Test func daysPastTheLastDayTheEngineLivesAreAUsageError() throws {
        let directory = Fixtures.temporaryDirectory()
        let original = try String(contentsOfFile: Self.root + "/populations/office_workers.yaml", encoding: .utf8)
        try original.replacingOccurrences(of: "start: 2026-07-06", with: "start: 2199-12-01").write(
            toFile: directory + "/late.yaml", atomically: true, encoding: .utf8)
        // 2199-12-31 is the engine's last day: it would close past it, so it is not lived.
        let late = CapturedRun(["population", directory + "/late.yaml", "--users", "2", "--days", "31"], in: Self.root)
        #expect(late.exitCode == .usage)
        #expect(late.stderr.contains("--days 31 ends on 2199-12-31, which is outside the days a simulation can live and close"), "\(late.stderr)")
        let diff = CapturedRun(["diff", ".", ".", "--population", directory + "/late.yaml", "--users", "2", "--days", "31"], in: Self.root)
        #expect(diff.exitCode == .usage, "\(diff.stderr)")
    }

    @Test func theOutputIsTheSameForAnyJobsAndAcrossProcesses() throws {
        let binary = try BuiltProduct.path("rules")
        func run(_ jobs: String) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["population"] + Self.office + ["--format", "json", "--jobs", jobs]
            process.currentDirectoryURL = URL(fileURLWithPath: Self.root)
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        let one = try run("1")
        #expect(one.contains("\"user_days\": 160"))
        #expect(try run("2") == one)
        #expect(try run("3") == one)
    }

    @Test func aBrokenInvariantExitsOneAndItsUserDayReplays() throws {
        let directory = try Fixtures.copyOfShipped(["routines", "rules", "templates", "populations"])
        // A condition that divides by zero whenever it is evaluated: a problem record each time.
        let path = directory + "/rules/notifications.yaml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(
            of: "    at: \"09:00\"\n    template: checkin_ready",
            with: "    at: \"09:00\"\n    when: 1 / ((steps.today ?? 0) - (steps.today ?? 0)) > 0\n    template: checkin_ready"
        ).write(toFile: path, atomically: true, encoding: .utf8)
        let run = CapturedRun(["population", "populations/office_workers.yaml", "--users", "12", "--days", "2"], in: directory)
        #expect(run.exitCode == .failure)
        #expect(run.stdout.contains("problems: first at user 1 on 2026-07-06: expression.evaluation"), "\(run.stdout)")
        let replayLine = try #require(run.stdout.split(separator: "\n").first { $0.contains("replay: rules population") })
        let replay = replayLine.split(separator: " ").dropFirst(2).map(String.init)  // after "replay: rules"
        #expect(
            replay == [
                "population", "populations/office_workers.yaml", "--users", "12", "--days", "2", "--seed", "7", "--user", "1", "--format", "json",
            ])
        let trace = CapturedRun(replay, in: directory)
        #expect(trace.exitCode == .success)
        #expect(trace.stdout.split(separator: "\n").contains { $0.contains("\"kind\":\"problem\"") && $0.contains("division by zero") })
        #expect(trace.stdout.contains("\"kind\":\"day.closed\""))
    }

    @Test func aDiffLivesTheSameUsersUnderBothRulesets() throws {
        let directory = try Fixtures.copyOfShipped()
        let path = directory + "/rules/notifications.yaml"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "max_per_day: 3", with: "max_per_day: 2").write(toFile: path, atomically: true, encoding: .utf8)
        let same = CapturedRun(["diff", ".", ".", "--population", "populations/office_workers.yaml", "--users", "10", "--days", "3"], in: Self.root)
        #expect(same.exitCode == .success, "\(same.stdout)")
        #expect(same.stdout.contains("0 metrics changed"))
        let diff = CapturedRun(
            ["diff", ".", directory, "--population", "populations/office_workers.yaml", "--users", "10", "--days", "3"], in: Self.root)
        #expect(diff.exitCode == .failure)
        #expect(diff.stdout.contains("notices a user-day (max): 3 → 2 (-1) [notifications.per_user_day.max]"), "\(diff.stdout)")
        #expect(diff.stdout.contains(" was refused by daily_cap: 0 → "), "\(diff.stdout)")
        #expect(diff.stdout.contains("user-days whose deliveries changed most:"))
        #expect(diff.stdout.contains("--ruleset \(directory) --users 10 --days 3 --seed 7 --user "))
        // Each top user-day says why: with a cap of 2, a third notice is now refused by it.
        #expect(diff.stdout.contains("    why: "), "\(diff.stdout)")
        #expect(diff.stdout.contains("→ suppressed (daily_cap)"), "\(diff.stdout)")
    }

    @Test func theReportOpensWithProductNumbersAndFoldsTheInvariants() throws {
        let html = CapturedRun(["population", "populations/office_workers.yaml", "--users", "40", "--days", "5", "--format", "html"], in: Self.root)
        let page = html.stdout
        let product = try #require(page.range(of: "<h2>For a product manager</h2>"))
        let notifications = try #require(page.range(of: "<h2>Notifications</h2>"))
        let invariants = try #require(page.range(of: "<details><summary><h2 style=\"display:inline\">Invariants</h2> (0 broken)</summary>"))
        #expect(product.lowerBound < notifications.lowerBound && notifications.lowerBound < invariants.lowerBound)
        #expect(page.contains("<td>routines done a user-day</td>") && page.contains("95 % interval"))
        let text = CapturedRun(["population", "populations/office_workers.yaml", "--users", "40", "--days", "5"], in: Self.root).stdout
        let lines = text.split(separator: "\n")
        #expect(lines.count > 3 && lines[1].hasPrefix("for a product manager") && lines[2].contains("(95 % "), "\(text.prefix(400))")
    }

    @Test func theShippedPopulationsKeepTheirHeadlineNumbers() throws {
        // 100 users × 14 days of each shipped population, pinned: a change of the ruleset or
        // the engine that moves what people get shows here (update with UPDATE_GOLDEN=1).
        var report = ""
        for file in ["populations/office_workers.yaml", "populations/students_and_night_owls.yaml"] {
            let run = CapturedRun(["population", file, "--users", "100", "--days", "14"], in: Self.root)
            #expect(run.exitCode == .success, "\(run.stdout)")
            report += run.stdout + "\n"
            #expect(
                run.stdout.contains(
                    "invariants: in_quiet_hours 0, over_daily_cap 0, problems 0, sensitive_on_lock_screen 0, within_category_cooldown 0"))
        }
        #expect(Golden.compare(report, toFile: Fixtures.directory() + "/population/headlines.txt") == nil)
    }

    /// Every notification type of the shipped ruleset reaches some users of each shipped
    /// population: the per-routine reminder and the bedtime notice only reach users who set a
    /// reminder time or a bedtime, which the populations' `settings:` draw.
    @Test func theShippedPopulationsDeliverEveryShippedType() throws {
        let ruleset = try #require(Ruleset.load(directory: Self.root).ruleset)
        for file in ["populations/office_workers.yaml", "populations/students_and_night_owls.yaml"] {
            let run = CapturedRun(["population", file, "--users", "100", "--days", "14", "--format", "json"], in: Self.root)
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let byType = try #require((report["notifications"] as? [String: Any])?["by_type"] as? [String: [String: Any]])
            #expect(!ruleset.notifications.isEmpty)
            for type in ruleset.notifications.map(\.id) {
                let delivered = byType[type]?["delivered"] as? Int ?? 0
                #expect(delivered > 0, "\(file): \(type) delivered \(delivered)")
            }
        }
    }

    /// A trial's report says its deliveries, fatigue and opt-outs are not the policy's, in text
    /// and on the page (the flag kept whole on a phone); a run without the trial says nothing.
    @Test func aTrialsReportSaysWhatWithholdingChanges() throws {
        let trial = ["population", "populations/office_workers.yaml", "--users", "30", "--days", "2", "--randomize", "0.5"]
        let text = CapturedRun(trial, in: Self.root)
        #expect(text.stdout.contains("the deliveries, fatigue and opt-outs above are the trial's, not the policy's"), "\(text.stdout)")
        let html = CapturedRun(trial + ["--format", "html"], in: Self.root)
        #expect(html.stdout.contains("live it without <span class=\"flag\">--randomize</span> for those"))
        let plain = CapturedRun(Array(trial.dropLast(2)), in: Self.root)
        #expect(plain.exitCode == .success && !plain.stdout.contains("not the policy's"))
    }

    @Test func checkReadsPopulationFilesAgainstTheRuleset() throws {
        let directory = try Fixtures.copyOfShipped(["routines", "rules", "templates", "populations"])
        let clean = CapturedRun(["check", "."], in: directory)
        #expect(clean.exitCode == .success, "\(clean.stdout)")
        try Fixtures.write(
            ["populations/bad.yaml": "seed: 1\nusers: 5\ndays: 2\nstart: 2026-07-06\ngroups:\n  - name: x\n    routines: [watr]\n"], to: directory)
        for arguments in [["check", "."], ["check", "populations/bad.yaml"]] {
            let run = CapturedRun(arguments, in: directory)
            #expect(run.exitCode == .failure)
            #expect(run.stdout.contains("populations/bad.yaml:7:16: error: no routine 'watr' [scenario.unknown_routine]"), "\(run.stdout)")
        }
        let population = CapturedRun(["population", "populations/bad.yaml"], in: directory)
        #expect(population.exitCode == .failure)
    }

    /// The office population lived as shards 1/2 and 2/2, written into `directory`.
    static func twoShards(in directory: String) -> [String] {
        (1...2).map { k in
            let file = directory + "/shard\(k).json"
            #expect(CapturedRun(["population"] + Self.office + ["--shard", "\(k)/2", "--out", file], in: Self.root).exitCode == .success)
            return file
        }
    }

    /// Result files are read field by field before any arithmetic: a crafted file is refused
    /// with its reason (it trapped: a histogram entry [1, Int.max] twice, negative counts,
    /// user_days -5), and extreme but consistent values merge and draw without trapping.
    @Test func craftedResultFilesAreRefusedNeverTrap() throws {
        let directory = Fixtures.temporaryDirectory()
        let files = Self.twoShards(in: directory)
        let text = try String(contentsOfFile: files[0], encoding: .utf8)
        let userDays = try #require(text.range(of: #""user_days": \d+"#, options: .regularExpression).map { String(text[$0]) })
        let histogram = try #require(text.range(of: #""histogram": \[\s*\[\s*\d+,\s*\d+\s*\]"#, options: .regularExpression))
        let delivered = try #require(text.range(of: #""delivered": \d+"#, options: .regularExpression))
        let crafted: [(String, String)] = [
            ("negative user-days", text.replacingOccurrences(of: userDays, with: #""user_days": -5"#)),
            ("inconsistent user-days", text.replacingOccurrences(of: userDays, with: #""user_days": 7"#)),
            ("a value twice", text.replacingCharacters(in: histogram, with: #""histogram": [[1, 9223372036854775807], [1, 9223372036854775807]"#)),
            ("Int.max", text.replacingCharacters(in: histogram, with: #""histogram": [[1, 9223372036854775807]"#)),
            ("a negative count", text.replacingCharacters(in: histogram, with: #""histogram": [[0, -3]"#)),
            ("a huge double", text.replacingCharacters(in: histogram, with: #""histogram": [[1e400, 1]"#)),
            ("a negative delivery count", text.replacingCharacters(in: delivered, with: #""delivered": -1"#)),
        ]
        for (what, content) in crafted {
            #expect(content != text, "\(what): the file was not changed")
            let file = directory + "/crafted.json"
            try content.write(toFile: file, atomically: true, encoding: .utf8)
            for format in ["text", "html"] {
                let run = CapturedRun(["population", "merge", file, files[1], "--format", format], in: Self.root)
                #expect(run.exitCode != .success, "\(what) was merged")
                #expect(!run.stderr.isEmpty, "\(what): no reason given")
            }
        }
    }

    /// Report work is bounded by a histogram's entries, not its values: a busiest day of
    /// 10^12 deliveries (within the documented range) merges and draws in every format (it
    /// tried to allocate 16 TB), as one row.
    @Test func aHugeHistogramValueDrawsAsOneRow() throws {
        let directory = Fixtures.temporaryDirectory()
        let file = directory + "/whole.json"
        #expect(CapturedRun(["population"] + Self.office + ["--format", "json", "--out", file], in: Self.root).exitCode == .success)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        // The whole run's (its first; the groups' follow).
        let busiest = try #require(text.range(of: #""busiest_day": \{[^}]*\}"#, options: .regularExpression))
        let crafted = text.replacingCharacters(
            in: busiest, with: #""busiest_day": {"mean": 0, "p50": 0, "p90": 0, "max": 0, "histogram": [[1000000000000, 40]]}"#)
        try crafted.write(toFile: file, atomically: true, encoding: .utf8)
        for format in ["text", "html", "json"] {
            let run = CapturedRun(["population", "merge", file, "--format", format], in: Self.root)
            #expect(run.exitCode != .usage, "\(format): \(run.stderr)")
            #expect(run.stdout.utf8.count < 200_000, "\(format): \(run.stdout.utf8.count) bytes")
        }
        let textRun = CapturedRun(["population", "merge", file, "--format", "text"], in: Self.root)
        #expect(textRun.stdout.contains("≥ 1000000000000: 40"))
    }

    /// Shards relabelled (1/2 copied as 1/3, 2/3 and 3/3) would merge into more users than
    /// the run has: a shard must count the users its label lives, every day; and a seed,
    /// start or size out of range is refused.
    @Test func relabelledShardsAndOutOfRangeHeadersAreRefused() throws {
        let directory = Fixtures.temporaryDirectory()
        let files = Self.twoShards(in: directory)
        let first = try String(contentsOfFile: files[0], encoding: .utf8)
        var relabelled: [String] = []
        for k in 1...3 {
            let file = directory + "/relabelled\(k).json"
            try first.replacingOccurrences(of: #""shard": "1/2""#, with: #""shard": "\#(k)/3""#).write(
                toFile: file, atomically: true, encoding: .utf8)
            relabelled.append(file)
        }
        let merged = CapturedRun(["population", "merge"] + relabelled, in: Self.root)
        #expect(merged.exitCode != .success)
        #expect(merged.stderr.contains("'users_lived' is 20, but shard 1/3 of 40 users lives 14"), "\(merged.stderr)")
        let header: [(String, String, String)] = [
            (#""seed": \d+"#, #""seed": 18446744073709551615"#, "'seed'"),
            (#""start": "[0-9-]+""#, #""start": "1999-12-31""#, "'start'"),
            (#""days": \d+"#, #""days": 3661"#, "'days'"),
            (#""users": \d+"#, #""users": 0"#, "'users'"),
        ]
        for (pattern, replacement, named) in header {
            let range = try #require(first.range(of: pattern, options: .regularExpression), "\(pattern)")
            let file = directory + "/header.json"
            try first.replacingCharacters(in: range, with: replacement).write(toFile: file, atomically: true, encoding: .utf8)
            let run = CapturedRun(["population", "merge", file, files[1]], in: Self.root)
            #expect(run.exitCode != .success, "\(replacement)")
            #expect(run.stderr.contains(named), "\(replacement): \(run.stderr)")
        }
    }

    /// A population's work is bounded before it starts: all users × days × a day's events at
    /// most, and one user's days (generated whole: its memory).
    @Test func aRunPastTheWorkBoundIsRefusedBeforeItStarts() throws {
        let huge = CapturedRun(["population", "populations/office_workers.yaml", "--users", "10000000", "--days", "3660"], in: Self.root)
        #expect(huge.exitCode == .usage)
        #expect(huge.stderr.contains("past the bound of 2000000000 events"), "\(huge.stderr)")
        // The same users split into shards fit.
        let shard = CapturedRun(
            ["population", "populations/office_workers.yaml", "--users", "1000000", "--days", "30", "--shard", "1/1000000", "--format", "json"],
            in: Self.root)
        #expect(shard.exitCode == .success, "\(shard.stderr)")
        let directory = Fixtures.temporaryDirectory()
        let draws = (0..<100).map { _ in "      - { routine: water, p: 1, value: 1, count: 100, at: \"13:00\", sd: 60 }" }.joined(separator: "\n")
        let heavy = "name: heavy\nseed: 1\nusers: 1\ndays: 3660\nstart: 2026-07-06\ngroups:\n  - name: a\n    logs:\n\(draws)\n"
        try heavy.write(toFile: directory + "/heavy.yaml", atomically: true, encoding: .utf8)
        let one = CapturedRun(["population", directory + "/heavy.yaml"], in: Self.root)
        #expect(one.exitCode == .usage)
        #expect(one.stderr.contains("events a user"), "\(one.stderr)")
    }

    /// Reports in people's units: what the route `none` means is said, shares are percentages,
    /// and a histogram's bars carry their counts on the page.
    @Test func reportsSpeakInPeoplesUnits() throws {
        let text = CapturedRun(["population", "populations/office_workers.yaml", "--users", "50", "--days", "3"], in: Self.root)
        #expect(text.stdout.contains(", none "), "\(text.stdout)")
        #expect(text.stdout.contains("(none: user-days on which the app never ran, so no route was chosen)"))
        let html = CapturedRun(["population", "populations/office_workers.yaml", "--users", "50", "--days", "3", "--format", "html"], in: Self.root)
        #expect(html.stdout.contains("<text class=\"count\""), "counts on the bars")
        #expect(html.stdout.contains(">86</text>"), "the busiest bar's count: \(html.stdout.prefix(200))")
        #expect(html.stdout.contains("user-days on which the app never ran"))
    }

    /// The diff's population sample names acts and opt-outs among its headline metrics: a new
    /// 21:45 nudge is acted on, and some users switch it off.
    @Test func theDiffSampleShowsActsAndOptOuts() throws {
        let directory = try Fixtures.copyOfShipped(["routines", "rules", "templates", "populations"])
        for (file, old, new) in [
            (
                "rules/notifications.yaml", "  - id: bedtime",
                "  - id: late_nudge\n    category: nudge\n    at: \"21:45\"\n    when: completion_rate < 0.6\n    template: evening_salvage\n\n  - id: bedtime"
            ),
            ("rules/settings.yaml", "  tone:", "  late_nudge:               { type: bool, default: true }\n  tone:"),
        ] {
            let path = directory + "/" + file
            try (try String(contentsOfFile: path, encoding: .utf8)).replacingOccurrences(of: old, with: new).write(
                toFile: path, atomically: true, encoding: .utf8)
        }
        let run = CapturedRun(["diff", Self.root, ".", "--users", "150", "--days", "14"], in: directory)
        #expect(run.stdout.contains("  late_nudge acted on: 0 → "), "\(run.stdout)")
        #expect(run.stdout.contains("[answers.by_type.late_nudge.opted_out]"), "\(run.stdout)")
    }

    /// Bad behaviour keys are findings of the population file (positioned, exit 1, as `rules
    /// check` says them; nothing lived); `--randomize` outside 0…1 is a usage error (exit 2).
    @Test func badAnswersAreSaidAndNothingIsLived() throws {
        let directory = try Fixtures.copyOfShipped(["routines", "rules", "templates", "populations"])
        try Fixtures.write(
            [
                "populations/bad.yaml":
                    "seed: 1\nusers: 5\ndays: 2\nstart: 2026-07-06\ngroups:\n  - name: x\n    acts:\n      morning_checkin: { p: 0.2, does: [suplement] }\n"
            ], to: directory)
        let run = CapturedRun(["population", "populations/bad.yaml"], in: directory)
        #expect(run.exitCode == .failure)
        #expect(run.stdout.contains("populations/bad.yaml:8:41: error: no routine 'suplement'"), "\(run.stdout)")
        #expect(run.stdout.contains("did you mean 'supplement'?"))
        #expect(!run.stdout.contains("user-days"), "nothing lived")
        let usage = CapturedRun(["population", "populations/office_workers.yaml", "--randomize", "1.5"], in: directory)
        #expect(usage.exitCode == .usage)
        #expect(usage.stderr.contains("--randomize takes a probability from 0 to 1"), "\(usage.stderr)")
    }

    /// The trial's shards merge into what one run gives, effects and all, byte for byte.
    @Test func randomisedShardsMergeIntoTheWholeRun() throws {
        let directory = try Fixtures.copyOfShipped(["routines", "rules", "templates", "populations"])
        let base = ["population", "populations/office_workers.yaml", "--users", "8", "--days", "3", "--randomize", "0.5"]
        let whole = CapturedRun(base + ["--format", "json"], in: directory)
        for k in 1...2 { _ = CapturedRun(base + ["--shard", "\(k)/2", "--out", "s\(k).json"], in: directory) }
        let merged = CapturedRun(["population", "merge", "s1.json", "s2.json", "--format", "json"], in: directory)
        #expect(merged.exitCode == .success, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
        #expect(whole.stdout.contains("\"effects\"") && whole.stdout.contains("\"by_deliveries_so_far\""))
    }

    /// The report is never written over the telemetry: `--out` inside `--telemetry-out`'s
    /// directory is refused before anything is lived or written.
    @Test func theReportIsNeverWrittenAmongTheTelemetry() throws {
        let directory = Fixtures.temporaryDirectory() + "/telemetry"
        let run = CapturedRun(
            [
                "population", "populations/office_workers.yaml", "--users", "3", "--days", "1", "--telemetry-out", directory, "--out",
                directory + "/telemetry-000001.jsonl",
            ], in: Fixtures.repositoryRoot())
        #expect(run.exitCode == .usage)
        #expect(run.stderr.contains("is inside --telemetry-out"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/telemetry-000001.jsonl"))
    }

    /// Telemetry streams each user's lines out in user order as the jobs finish them: 1,200
    /// users make a whole block and a part of one, byte for byte the same with 1 and 2 jobs,
    /// every user's lines together (a user who never ran the app in two days sends none).
    @Test func streamedTelemetryIsTheSameWhateverTheJobs() throws {
        var texts: [[String]] = []
        for jobs in ["1", "2"] {
            let directory = Fixtures.temporaryDirectory() + "/telemetry"
            let run = CapturedRun(
                ["population", "populations/office_workers.yaml", "--users", "1200", "--days", "2", "--jobs", jobs, "--telemetry-out", directory],
                in: Fixtures.repositoryRoot())
            #expect(run.exitCode == .success, "\(run.stderr)")
            let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            #expect(names == ["telemetry-000001.jsonl", "telemetry-000002.jsonl"], "\(names)")
            texts.append(try names.map { try String(contentsOfFile: directory + "/" + $0, encoding: .utf8) })
        }
        #expect(texts[0] == texts[1])
        // Users appear in one run of lines each, in the order they were numbered.
        let users = texts[0].joined().split(separator: "\n").compactMap { line -> Substring? in
            guard let start = line.range(of: "\"user\":\"")?.upperBound, let end = line[start...].firstIndex(of: "\"") else { return nil }
            return line[start..<end]
        }
        var runs: [Substring] = []
        for user in users where runs.last != user { runs.append(user) }
        #expect(runs.count == Set(runs).count && runs.count > 1_100, "\(runs.count) runs of \(Set(runs).count) users")
    }

    /// `--telemetry-out` never mixes two runs (a directory holding this run's names is refused),
    /// never writes into the ruleset's own folders, and never takes an empty name for ".".
    @Test func telemetryOutRefusesAnEarlierRunTheRulesetAndAnEmptyName() throws {
        let copy = try Fixtures.copyOfShipped(["routines", "rules", "templates", "populations"])
        let directory = Fixtures.temporaryDirectory() + "/telemetry"
        let first = CapturedRun(
            ["population", "populations/office_workers.yaml", "--users", "3", "--days", "1", "--telemetry-out", directory], in: copy)
        #expect(first.exitCode == .success, "\(first.stderr)")
        let before = try String(contentsOfFile: directory + "/telemetry-000001.jsonl", encoding: .utf8)
        for (target, reason) in [
            (directory, "already holds telemetry (telemetry-000001.jsonl)"), ("rules", "inside the ruleset's rules/"), ("", "empty name"),
        ] {
            let run = CapturedRun(
                ["population", "populations/office_workers.yaml", "--users", "5", "--days", "1", "--telemetry-out", target], in: copy)
            #expect(run.exitCode == .usage, "\(target): \(run.stderr)")
            #expect(run.stderr.contains(reason), "\(target): \(run.stderr)")
        }
        #expect(try String(contentsOfFile: directory + "/telemetry-000001.jsonl", encoding: .utf8) == before)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: copy + "/rules")).contains { $0.hasSuffix(".jsonl") })
    }
}
