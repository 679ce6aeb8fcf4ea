import CLITestSupport
import Foundation
import TestSupport
import Testing

/// `rules tune` as a designer asks it: the known answers (the cap that meets a cap-sized
/// target, a threshold at the boundary a target cuts, identical candidates differing by
/// exactly nothing, a planted best never stopped), the tuned copy `--write` leaves behind,
/// and every bad input refused with exit 2 and nothing written.
@Suite struct TuneCommandTests {
    static let root = Fixtures.repositoryRoot()
    static let office = ["tune", "populations/office_workers.yaml", "--users", "60", "--days", "5", "--jobs", "2"]

    static func json(_ run: CapturedRun, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        return try #require(object as? [String: Any], sourceLocation: sourceLocation)
    }

    static func candidates(_ report: [String: Any]) -> [[String: Any]] { report["candidates"] as? [[String: Any]] ?? [] }

    static func metric(_ candidate: [String: Any], _ name: String) -> [String: Double] {
        let metrics = candidate["metrics"] as? [[String: Any]] ?? []
        guard let found = metrics.first(where: { $0["metric"] as? String == name }) else { return [:] }
        var out: [String: Double] = [:]
        for (key, value) in found { if let number = value as? NSNumber { out[key] = number.doubleValue } }
        return out
    }

    static func values(_ candidate: [String: Any]) -> [String: String] { candidate["values"] as? [String: String] ?? [:] }

    @Test func picksTheCapThatMeetsACapSizedTarget() throws {
        let run = CapturedRun(
            Self.office + [
                "--vary", "policy.max_per_day=1..5", "--target", "notifications.per_user_day.max <= 2", "--maximise",
                "notifications.per_user_day.mean", "--format", "json",
            ], in: Self.root)
        #expect(run.exitCode == .success, "\(run.stderr)")
        let report = try Self.json(run)
        let best = try #require(report["best"] as? Int)
        #expect(Self.values(Self.candidates(report)[best]) == ["policy.max_per_day": "2"])
        // Every cap above 2 is ruled out by the target, and says so.
        for candidate in Self.candidates(report) where (Int(Self.values(candidate)["policy.max_per_day"] ?? "") ?? 0) > 2 {
            #expect((candidate["stopped"] as? String)?.contains("ruled out by 'notifications.per_user_day.max <= 2'") == true)
        }
        #expect(run.stdout.contains("\"edit\": \"--- a/rules/notifications.yaml"))
    }

    /// Run from elsewhere with `--ruleset DIR`, every candidate lives its own edit (each once
    /// lived the current ruleset: the knob's file was named with the prefix, its edit looked up
    /// without it, and an edit that wrote nothing passed for the baseline).
    @Test func withARulesetElsewhereEachCandidateLivesItsOwnEdit() throws {
        let elsewhere = Fixtures.temporaryDirectory()
        let run = CapturedRun(
            [
                "tune", Self.root + "/populations/office_workers.yaml", "--ruleset", Self.root, "--users", "40", "--days", "3", "--jobs", "2",
                "--vary", "policy.max_per_day=1..3", "--target", "notifications.per_user_day.max <= 2", "--format", "json",
            ], in: elsewhere)
        #expect(run.exitCode == .success, "\(run.stderr)")
        for candidate in Self.candidates(try Self.json(run)) {
            let cap = Double(Self.values(candidate)["policy.max_per_day"] ?? "") ?? 0
            #expect(Self.metric(candidate, "notifications.per_user_day.max")["value"] ?? 0 <= cap, "\(candidate)")
        }
        #expect(run.stdout.contains("\"edit\": \"--- a/rules/notifications.yaml"), "\(run.stdout.suffix(400))")
    }

    /// A population without switching every notice off meets a target on it by construction:
    /// the report names what the population leaves out, and the target that turns on it — in
    /// text and JSON. The shipped office workers model everything, and no such line is printed.
    @Test func aTargetOnWhatThePopulationDoesNotModelIsNamed() throws {
        let file = Fixtures.temporaryDirectory() + "/evening.yaml"
        try PlantedPopulations.eveningWorld(seed: 2, users: 40, days: 3).write(toFile: file, atomically: true, encoding: .utf8)
        let question = ["--vary", "policy.max_per_day=2..3", "--target", "answers.opted_out_all.share < 2 %", "--jobs", "2"]
        let run = CapturedRun(["tune", file] + question, in: Self.root)
        #expect(run.stdout.contains("the population does not model fatigue (more notices a day never make anybody ignore more)"), "\(run.stdout)")
        #expect(
            run.stdout.contains(
                "warning: target 'answers.opted_out_all.share < 2 %' turns on opt_out.all, which the population does not model (nobody switches every notice off)"
            ), "\(run.stdout)")
        let json = try Self.json(CapturedRun(["tune", file] + question + ["--format", "json"], in: Self.root))
        let keys = (json["unmodelled"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
        #expect(keys == ["fatigue", "opt_out.type", "opt_out.all", "settings", "between_users"], "\(keys)")
        let shipped = CapturedRun(
            Self.office + ["--vary", "policy.max_per_day=2..3", "--target", "answers.opted_out_all.share < 5 %"], in: Self.root)
        #expect(!shipped.stdout.contains("does not model"), "\(shipped.stdout)")
    }

    @Test func aThresholdLandsWithinOneStepOfTheBoundaryATargetCuts() throws {
        // The light route's share grows with the sleep threshold; the target cuts it at 20 %.
        let tune = CapturedRun(
            Self.office + [
                "--vary", "route.short_sleep=300..480/30", "--target", "routes.light.share <= 20%", "--maximise", "routes.light.share", "--format",
                "json",
            ], in: Self.root)
        #expect(tune.exitCode == .success, "\(tune.stderr)")
        let chosen = try #require(Self.candidates(try Self.json(tune))[try #require(try Self.json(tune)["best"] as? Int)])
        let value = try #require(Int(Self.values(chosen)["route.short_sleep"] ?? ""))
        // The truth: every value lived at full size on the same users.
        var boundary = 0
        for threshold in stride(from: 300, through: 480, by: 30) {
            let variant = try Fixtures.variantOfShipped([("rules/route.yaml", "< 360", "< \(threshold)")])
            try FileManager.default.copyItem(atPath: Self.root + "/populations", toPath: variant.directory + "/populations")
            let lived = CapturedRun(
                ["population", "populations/office_workers.yaml", "--users", "60", "--days", "5", "--format", "json"], in: variant.directory)
            let share = try #require(((try Self.json(lived)["routes"] as? [String: Any])?["light"] as? [String: Any])?["share"] as? Double)
            if share <= 0.2 { boundary = threshold }
        }
        #expect(boundary > 300)
        #expect(abs(value - boundary) <= 30, "chose \(value), the boundary is \(boundary)")
    }

    @Test func candidatesThatAnswerAlikeDifferByExactlyNothing() throws {
        // At most 60 or 64 notices pending: nobody is ever near either, so the two rulesets
        // answer every user alike.
        let run = CapturedRun(
            Self.office + ["--vary", "policy.max_pending=60", "--maximise", "notifications.per_user_day.mean", "--format", "json"], in: Self.root)
        #expect(run.exitCode == .success, "\(run.stderr)")
        let report = try Self.json(run)
        let other = try #require(Self.candidates(report).first { Self.values($0)["policy.max_pending"] == "60" })
        for entry in other["metrics"] as? [[String: Any]] ?? [] {
            let name = entry["metric"] as? String ?? ""
            let numbers = Self.metric(other, name)
            #expect(numbers["difference"] == 0 && numbers["difference_low"] == 0 && numbers["difference_high"] == 0, "\(name): \(numbers)")
        }
        // A tie is reported as one: the other candidate is indistinguishable from the best.
        let tied = report["tied_with_best"] as? [[String: Any]] ?? []
        #expect(tied.count == 1 && (tied.first?["difference"] as? Double) == 0, "\(tied)")
        let text = CapturedRun(Self.office + ["--vary", "policy.max_pending=60", "--maximise", "notifications.per_user_day.mean"], in: Self.root)
        #expect(text.stdout.contains("(the paired difference covers 0): a tie, not a pick"), "\(text.stdout)")
    }

    @Test(arguments: [3, 11, 29])
    func aPlantedBestIsNeverStoppedEarly(seed: Int) throws {
        // The lowest cap sends strictly the fewest notices: the planted best of a search that
        // minimises them, over four rounds of halving.
        let run = CapturedRun(
            Self.office + [
                "--seed", "\(seed)", "--vary", "policy.max_per_day=1..8", "--minimise", "notifications.per_user_day.mean", "--format", "json",
            ], in: Self.root)
        #expect(run.exitCode == .success, "\(run.stderr)")
        let report = try Self.json(run)
        #expect((report["rounds"] as? [Int])?.count ?? 0 >= 3)
        let planted = try #require(Self.candidates(report).first { Self.values($0)["policy.max_per_day"] == "1" })
        #expect(planted["stopped"] is NSNull)
        #expect(report["best"] as? Int == planted["candidate"] as? Int)
    }

    /// The only feasible candidate is the worst by the objective: a cap of one is the only one
    /// that keeps users off days of two notices, and sends the fewest. Over 20 seeds it is never
    /// stopped and is the answer (exit 0), never "none".
    @Test func theOnlyFeasibleCandidateSurvivesHalvingInEverySeed() throws {
        var picked = 0
        for seed in 1...20 {
            let run = CapturedRun(
                ["tune", "populations/office_workers.yaml", "--users", "40", "--days", "4", "--jobs", "2", "--seed", "\(seed)"] + [
                    "--vary", "policy.max_per_day=1..4", "--target", "busiest_day.at_least_2.share <= 50%", "--maximise",
                    "notifications.per_user_day.mean", "--format", "json",
                ], in: Self.root)
            #expect(run.exitCode == .success, "seed \(seed): \(run.stderr)")
            let report = try Self.json(run)
            let only = try #require(Self.candidates(report).first { Self.values($0)["policy.max_per_day"] == "1" })
            #expect(only["stopped"] is NSNull, "seed \(seed)")
            if report["best"] as? Int == only["candidate"] as? Int { picked += 1 }
        }
        #expect(picked == 20)
    }

    @Test func sameCommandSameBytesWhateverTheJobs() {
        let arguments = [
            "tune", "populations/office_workers.yaml", "--users", "40", "--days", "4", "--vary", "policy.max_per_day=2..4", "--maximise",
            "streak.mean", "--format", "json",
        ]
        let one = CapturedRun(arguments + ["--jobs", "1"], in: Self.root)
        let two = CapturedRun(arguments + ["--jobs", "2"], in: Self.root)
        #expect(one.exitCode == .success, "\(one.stderr)")
        #expect(one.stdout == two.stdout)
    }

    @Test func theTunedCopyPassesCheckDiffNamesTheKnobAndItsPopulationEqualsTheLastRound() throws {
        let out = Fixtures.temporaryDirectory() + "/tuned"
        let tune = CapturedRun(
            Self.office + [
                "--vary", "policy.max_per_day=1..5", "--target", "notifications.per_user_day.max <= 2", "--maximise",
                "notifications.per_user_day.mean", "--format", "json", "--write", out,
            ], in: Self.root)
        #expect(tune.exitCode == .success, "\(tune.stderr)")
        let report = try Self.json(tune)
        let best = Self.candidates(report)[try #require(report["best"] as? Int)]
        let check = CapturedRun(["check", out], in: Self.root)
        #expect(check.exitCode == .success, "\(check.stdout)\(check.stderr)")
        // `rules diff` names exactly the tuned element, at its line in the copy.
        let diff = CapturedRun(["diff", ".", out, "--no-population", "--scenarios", "scenarios/good_day.yaml", "--format", "json"], in: Self.root)
        let elements = try #require(try Self.json(diff)["elements"] as? [[String: Any]])
        #expect(elements.map { "\($0["kind"] ?? "") \($0["id"] ?? "") :\($0["line"] ?? "")" } == ["policy max_per_day :4"])
        let lived = CapturedRun(
            ["population", "populations/office_workers.yaml", "--ruleset", out, "--users", "60", "--days", "5", "--format", "json"], in: Self.root)
        let population = try Self.json(lived)
        let perDay = try #require((population["notifications"] as? [String: Any])?["per_user_day"] as? [String: Any])
        #expect(Self.metric(best, "notifications.per_user_day.mean")["value"] == (perDay["mean"] as? Double))
        #expect(Self.metric(best, "notifications.per_user_day.max")["value"] == (perDay["max"] as? Double))
        let light = ((population["routes"] as? [String: Any])?["light"] as? [String: Any])?["share"] as? Double
        #expect(Self.metric(best, "routes.light.share")["value"] == light)
        let failed = (population["day_results"] as? [String: Any])?["failed"] as? Double
        #expect(Self.metric(best, "day_results.failed")["value"] == failed)
    }

    @Test(arguments: [
        (["--vary", "policy.max_per_dya=2..4", "--maximise", "streak.mean"], "did you mean 'policy.max_per_day'?"),
        (["--vary", "policy.max_per_day=0..3", "--maximise", "streak.mean"], "0 is outside what its key allows (1 … 64)"),
        (["--vary", "policy.max_per_day=2,1000", "--maximise", "streak.mean"], "1000 is outside what its key allows"),
        (["--vary", "policy.quiet_hours.start=22:00..25:00/30m", "--maximise", "streak.mean"], "the ends are not times of day"),
        (["--vary", "route.short_sleep=330..420/20", "--maximise", "streak.mean"], "does not divide"),
        (["--vary", "policy.max_per_day=4..2", "--maximise", "streak.mean"], "is empty"),
        (["--vary", "policy.max_per_day=2..4", "--maximise", "streak.maen"], "did you mean 'streak.mean'?"),
        (
            [
                "--vary", "policy.max_per_day=2..4", "--target", "notifications.per_user_day.max <= 1", "--target",
                "notifications.per_user_day.max >= 2",
            ],
            "cannot both hold"
        ),
        (["--vary", "policy.max_per_day=2..4", "--maximise", "streak.mean", "--budget", "10"], "the least that works"),
        (["--vary", "rules/route.yaml:14=0.5,0.7", "--maximise", "streak.mean"], "holds 2 knobs"),
        (
            [
                "--vary", "policy.max_per_day=1..64", "--vary", "policy.weaken.after_ignored=1..100", "--vary", "recovery.max_items=1..10", "--vary",
                "policy.max_pending=1..64", "--maximise", "streak.mean",
            ], "over the limit of 100000"
        ),
        (["--vary", "policy.max_per_day=2..4"], "needs something to look for"),
        (["--vary", "policy.max_per_day" + String(repeating: "x", count: 500), "--maximise", "streak.mean"], "over the limit of 400"),
        (["--vary", "policy.max\nper_day=1..2", "--maximise", "streak.mean"], "unknown knob 'policy.max\\u{a}per_day'"),
        (["--vary", "policy.max_per_day=1..2", "--target", "answers.opted_out_all.share < 150 %"], "is a share, from 0 to 1"),
        (["--vary", "policy.max_per_day=1..2", "--target", "answers.opted_out_all.share <= 1.5"], "is a share, from 0 to 1"),
    ])
    func badInputIsAUsageErrorAndWritesNothing(arguments: [String], message: String) throws {
        let out = Fixtures.temporaryDirectory() + "/tuned"
        let run = CapturedRun(Self.office + arguments + ["--write", out], in: Self.root)
        #expect(run.exitCode == .usage)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// The whole search is bounded before it starts: 641 candidates × 1,000,000 users × 50 days
    /// is refused at once with what it could cost (no `--shard`, which tune does not take),
    /// and `--budget` is the way out.
    @Test func aSearchPastTheBoundIsRefusedWithItsCost() throws {
        let run = CapturedRun(
            [
                "tune", "populations/office_workers.yaml", "--users", "1000000", "--days", "50", "--vary", "policy.max_per_day=1..64", "--vary",
                "policy.max_pending=1..10", "--maximise", "streak.mean",
            ], in: Self.root)
        #expect(run.exitCode == .usage)
        #expect(run.stderr.contains("641 candidates × 1000000 users × 50 days could live up to 32,050,000,000 user-days"), "\(run.stderr)")
        #expect(run.stderr.contains("--budget") && !run.stderr.contains("--shard"), "\(run.stderr)")
    }

    /// No candidate meeting every target is a finding, not a usage error: exit 1, the whole
    /// report written (text, and JSON to `--out`), no tuned copy, and for each target no
    /// candidate met, its own closest candidate and interval with the round it ended in.
    @Test func noCandidateMeetingIsAFindingWithTheWholeReport() throws {
        let directory = Fixtures.temporaryDirectory()
        let question = [
            "--vary", "policy.max_per_day=2..4", "--target", "notifications.per_user_day.max <= 0", "--target",
            "notifications.per_user_day.mean >= 9", "--write", directory + "/tuned",
        ]
        let run = CapturedRun(Self.office + question, in: Self.root)
        #expect(run.exitCode == .failure, "\(run.stderr)")
        #expect(run.stdout.contains("no candidate meets every target with confidence"), "\(run.stdout)")
        #expect(run.stdout.contains("candidates (users lived; how each ended):"), "\(run.stdout)")
        for target in ["notifications.per_user_day.max <= 0", "notifications.per_user_day.mean >= 9"] {
            let line = run.stderr.split(separator: "\n").first { $0.contains("no candidate met '\(target)'") }
            #expect(line != nil, "\(run.stderr)")
            // Each target's closest candidate with that target's own figures and its round.
            let metric = String(target.split(separator: " ")[0])
            #expect(line.map { $0.contains("the closest was candidate") && $0.contains("it ") } ?? false, "\(String(describing: line))")
            #expect(run.stdout.contains("no candidate met '\(target)'"), "\(metric)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/tuned"))
        let out = directory + "/report.json"
        let json = CapturedRun(Self.office + question + ["--format", "json", "--out", out], in: Self.root)
        #expect(json.exitCode == .failure)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: Any])
        let finding = try #require(report["finding"] as? [String: Any])
        let closest = finding["closest"] as? [[String: Any]] ?? []
        #expect(closest.map { $0["target"] as? String ?? "" } == ["notifications.per_user_day.max <= 0", "notifications.per_user_day.mean >= 9"])
        #expect(closest.allSatisfy { $0["round"] is Int && $0["high"] is NSNumber })
    }

    @Test func writeNeverGoesIntoTheInputOverAFullDirectoryOrThroughALink() throws {
        let copy = try Fixtures.copyOfShipped(["routines", "rules", "templates", "populations"])
        let question = [
            "tune", "populations/office_workers.yaml", "--users", "30", "--days", "3", "--vary", "policy.max_per_day=2..3", "--maximise",
            "notifications.per_user_day.mean",
        ]
        let before = try String(contentsOfFile: copy + "/rules/notifications.yaml", encoding: .utf8)
        for target in [".", "rules", "rules/tuned"] {
            let run = CapturedRun(question + ["--write", target], in: copy)
            #expect(run.exitCode == .usage, "\(target)")
            #expect(run.stderr.contains("it is the input ruleset"), "\(run.stderr)")
        }
        let full = Fixtures.temporaryDirectory()
        try "keep".write(toFile: full + "/note.txt", atomically: true, encoding: .utf8)
        let over = CapturedRun(question + ["--write", full], in: copy)
        #expect(over.exitCode == .usage)
        #expect(over.stderr.contains("it is not empty"))
        let link = Fixtures.temporaryDirectory() + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Fixtures.temporaryDirectory())
        let through = CapturedRun(question + ["--write", link], in: copy)
        #expect(through.exitCode == .usage)
        #expect(through.stderr.contains("it is a link"))
        #expect(try String(contentsOfFile: copy + "/rules/notifications.yaml", encoding: .utf8) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: full) == ["note.txt"])
    }

    @Test func aKnobsFileIsOneHoweverItsPathIsWritten() throws {
        for address in ["rules/notifications.yaml:4", "./rules/notifications.yaml:4", Self.root + "/rules/notifications.yaml:4"] {
            let run = CapturedRun(
                [
                    "tune", "populations/office_workers.yaml", "--users", "20", "--days", "2", "--vary", address + "=1..2", "--maximise",
                    "completions.all",
                ],
                in: Self.root)
            #expect(run.exitCode == .success, "\(address): \(run.stderr)")
            #expect(run.stdout.contains("vary policy.max_per_day (rules/notifications.yaml:4)"), "\(address)")
        }
    }

    @Test func aCopyThatCannotBeMadeIsRefusedBeforeTheSearch() throws {
        let directory = Fixtures.temporaryDirectory()
        let ruleset = directory + "/ruleset"
        try FileManager.default.createDirectory(atPath: ruleset, withIntermediateDirectories: true)
        for folder in ["routines", "rules", "templates", "populations"] {
            try FileManager.default.copyItem(atPath: Self.root + "/" + folder, toPath: ruleset + "/" + folder)
        }
        try FileManager.default.createDirectory(atPath: ruleset + "/scenarios", withIntermediateDirectories: true)
        #expect(mkfifo(ruleset + "/scenarios/pipe.yaml", 0o644) == 0)
        let out = directory + "/tuned"
        let run = CapturedRun(
            [
                "tune", "populations/office_workers.yaml", "--ruleset", ruleset, "--users", "5000", "--days", "28", "--vary",
                "policy.max_per_day=1..2",
                "--maximise", "completions.all", "--write", out,
            ], in: ruleset)
        #expect(run.exitCode == .usage)
        #expect(run.stderr.contains("the ruleset's scenarios/pipe.yaml cannot be copied: not a regular file"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func theTunedCopySaysWhichScenariosItNowFailsAndUpdatesTheComment() throws {
        let out = Fixtures.temporaryDirectory() + "/tuned"
        let tune = CapturedRun(
            Self.office + [
                "--vary", "notifications.evening_underachievement.at=21:00,21:30", "--vary", "policy.max_per_day=2", "--target",
                "notifications.per_user_day.max <= 2", "--maximise", "completions.all", "--write", out,
            ], in: Self.root)
        #expect(tune.exitCode == .success, "\(tune.stderr)")
        #expect(tune.stderr.contains("rules/notifications.yaml:4: its comment stated the old value 3; updated to 2"))
        #expect(try String(contentsOfFile: out + "/rules/notifications.yaml", encoding: .utf8).contains("max_per_day: 2  "))
        #expect(try String(contentsOfFile: out + "/rules/notifications.yaml", encoding: .utf8).contains("# 하루 최대 2개"))
        // The scenarios named are the ones `rules test` fails on the copy, with the counts.
        let test = CapturedRun(["test", "--ruleset", out, out + "/scenarios"], in: Self.root)
        #expect(test.exitCode == .failure)
        let failed = test.stdout.split(separator: "\n").filter { $0.hasPrefix("FAIL ") && $0.contains(" — ") }.compactMap {
            $0.split(separator: " ").dropFirst().first.map(String.init)
        }
        #expect(!failed.isEmpty)
        for file in failed { #expect(tune.stderr.contains("  scenarios/\((file as NSString).lastPathComponent): "), "\(file)") }
        #expect(tune.stderr.contains("review the moves, then: rules test --ruleset \(out) --update \(out)/scenarios"))
    }

    @Test func listKnobsNamesEveryKindWithItsValueAndBounds() {
        let run = CapturedRun(["tune", "--list-knobs"], in: Self.root)
        #expect(run.exitCode == .success)
        for expected in [
            "policy.max_per_day", "rules/notifications.yaml:4  now 3  bounds 1 … 64", "notifications.evening_underachievement.at",
            "route.short_sleep", "rules/route.yaml:18  now 360", "settings.day_starts_at.default", "judgement.day.success", "light.scale",
        ] {
            #expect(run.stdout.contains(expected), "\(expected)")
        }
    }

    @Test func metricsPeopleMeanAreListedSuggestedAndAddUp() throws {
        let list = CapturedRun(["tune", "--list-metrics", "populations/office_workers.yaml"], in: Self.root)
        #expect(list.exitCode == .success, "\(list.stderr)")
        for expected in [
            "completions.all", "routines done (every routine)", "completions.category.water", "answers.opted_out_any.share", "share ",
            "notifications.per_user_day.p90", "quantile",
        ] {
            #expect(list.stdout.contains(expected), "\(expected)")
        }
        let typo = CapturedRun(Self.office + ["--vary", "policy.max_per_day=1..2", "--maximise", "completion.all"], in: Self.root)
        #expect(typo.exitCode == .usage)
        #expect(typo.stderr.contains("did you mean 'completions.all'? (rules tune --list-metrics lists them all)"))
        // The current ruleset's completions.all at full size is the sum of the routines'
        // completions a population run of the same users reports; opted_out_any counts a user
        // once whether a type or every notice went off.
        let tune = CapturedRun(
            Self.office + [
                "--vary", "policy.max_per_day=1..2", "--maximise", "completions.all", "--target", "answers.opted_out_any.share < 90 %",
                "--format", "json",
            ], in: Self.root)
        #expect(tune.exitCode == .success, "\(tune.stderr)")
        let current = try #require(Self.candidates(try Self.json(tune)).first { Self.values($0)["policy.max_per_day"] == "3" })
        let lived = CapturedRun(["population", "populations/office_workers.yaml", "--users", "60", "--days", "5", "--format", "json"], in: Self.root)
        let answers = try #require(try Self.json(lived)["answers"] as? [String: Any])
        let completions = try #require(answers["completions"] as? [String: [String: Any]])
        let sum = completions.values.reduce(0.0) { $0 + (($1["completions"] as? NSNumber)?.doubleValue ?? 0) }
        #expect(sum > 0)
        #expect(Self.metric(current, "completions.all")["value"] == sum)
        let any = try #require(Self.metric(current, "answers.opted_out_any.share")["value"])
        let all = ((answers["opted_out_all"] as? NSNumber)?.doubleValue ?? 0) / 60
        #expect(any >= all && any <= 1)
    }

    @Test func whatADesignerWouldMissIsSaid() throws {
        // A notice moved into quiet hours is never sent, and two such times are the same candidate.
        let quiet = CapturedRun(
            Self.office + ["--vary", "notifications.evening_underachievement.at=23:00,23:30", "--maximise", "completions.all", "--format", "json"],
            in: Self.root)
        #expect(quiet.exitCode == .success, "\(quiet.stderr)")
        let caveats = try #require(try Self.json(quiet)["caveats"] as? [[String: Any]])
        let silenced = try #require(caveats.first { $0["kind"] as? String == "never_delivered" })
        #expect((silenced["text"] as? String ?? "").contains("evening_underachievement is never delivered under candidates 1, 2"))
        #expect((silenced["text"] as? String ?? "").contains("its time falls in quiet hours"))
        let identical = try #require(caveats.first { $0["kind"] as? String == "identical" })
        #expect(identical["candidates"] as? [Int] == [1, 2])
        // A judgement knob against the day results it defines; not against routines done.
        let bar = CapturedRun(
            Self.office + ["--vary", "judgement.day.success=0.5..0.9/0.2", "--maximise", "day_results.success"], in: Self.root)
        #expect(bar.exitCode == .success, "\(bar.stderr)")
        #expect(bar.stdout.contains("what the figures alone would not tell you:"))
        #expect(bar.stdout.contains("the knob judgement.day.success defines what day_results.success counts"))
        let done = CapturedRun(
            Self.office + ["--vary", "judgement.day.success=0.5..0.9/0.2", "--maximise", "completions.all", "--format", "json"], in: Self.root)
        let none = try #require(try Self.json(done)["caveats"] as? [[String: Any]])
        #expect(!none.contains { $0["kind"] as? String == "defines_metric" })
    }

    @Test func theScatterDrawsTheCurrentRulesetOnTopFromWhereTheDataStart() throws {
        let run = CapturedRun(
            Self.office + [
                "--vary", "policy.max_per_day=1..4", "--target", "answers.opted_out_all.share < 20 %", "--maximise", "completions.all", "--format",
                "html",
            ], in: Self.root)
        #expect(run.exitCode == .success, "\(run.stderr)")
        let svg = try #require(run.stdout.components(separatedBy: "aria-label=\"Pareto scatter\"").last?.components(separatedBy: "</svg>").first)
        let square = try #require(svg.range(of: "<rect class=\"base\""))
        let lastCircle = try #require(svg.range(of: "<circle", options: .backwards))
        #expect(lastCircle.lowerBound < square.lowerBound, "the current ruleset's square is drawn last")
        #expect(!svg.contains(">−"), "no axis below zero for counts and shares")
    }
}
