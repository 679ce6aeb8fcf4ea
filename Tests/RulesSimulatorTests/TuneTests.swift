import Foundation
import RulesDiagnostics
import Ruleset
import RulesetFiles
import ShippedRuleset
import Testing

@testable import RulesPopulation
@testable import RulesTune

/// The parts of a search on their own: the schedule's rounds and cost, the candidates
/// (grid or sample, the baseline first), estimates that are exactly zero for users who
/// answer alike, edits that change only the value's characters, and the diff they make.
@Suite struct TuneTests {
    static let load = Ruleset.load(directory: ShippedRuleset.root)

    static func catalogue() throws -> KnobCatalogue {
        let ruleset = try #require(load.ruleset)
        return KnobCatalogue(ruleset: ruleset, documents: load.documents, sources: load.sources)
    }

    @Test func halvingRoundsDoubleTheirUsersUpToTheLast() {
        let schedule = TuneSchedule(candidates: 24, users: 1_000, days: 14)
        #expect(schedule.alive == [24, 12, 6, 3, 2])
        #expect(schedule.users == [63, 125, 250, 500, 1_000])
        // Far less than living every candidate at full size, and never below two candidates' worth.
        #expect(schedule.cost < TuneSchedule.fullCost(candidates: 24, users: 1_000, days: 14) / 2)
        #expect(TuneSchedule(candidates: 2, users: 1_000, days: 14).cost == 2 * 1_000 * 14)
        #expect(TuneSchedule.candidatesWithin(2 * 1_000 * 14 - 1, candidates: 24, users: 1_000, days: 14) == nil)
        let fits = TuneSchedule.candidatesWithin(100_000, candidates: 500, users: 1_000, days: 14) ?? 0
        #expect(fits >= 2 && TuneSchedule(candidates: fits, users: 1_000, days: 14).cost <= 100_000)
        #expect(TuneSchedule(candidates: fits + 1, users: 1_000, days: 14).cost > 100_000)
        // A small population: the first round is never below 20 users (or all of them).
        #expect(TuneSchedule(candidates: 64, users: 30, days: 3).users.first == 20)
    }

    /// Feasibility before the objective. Candidate 3 is the worst by the objective and the only
    /// one whose target interval is low enough to meet the target later; nothing yet meets it
    /// with confidence, so nothing stops for the objective (the old rule dropped 3 first). Once a
    /// candidate meets every target with confidence, only those it beats stop, worst first.
    @Test func aCandidateThatMightBeTheOnlyFeasibleOneIsNeverDroppedForItsObjective() {
        let target = TuneTarget(metric: "answers.opted_out_all.share", op: .below, bound: 0.02, text: "answers.opted_out_all.share < 2 %")
        let question = TuneQuestion(knobs: [], values: [], targets: [target], objective: "day_results.success", maximise: true)
        func estimate(_ value: Double, _ low: Double, _ high: Double) -> TuneEstimate {
            TuneEstimate(value: value, low: low, high: high, difference: 0, differenceLow: 0, differenceHigh: 0)
        }
        func candidates(_ figures: [(share: (Double, Double, Double), success: Double)]) -> [TuneCandidate] {
            figures.map { figure in
                var candidate = TuneCandidate(setting: KnobSetting([]))
                candidate.rounds = [
                    [
                        "answers.opted_out_all.share": estimate(figure.share.0, figure.share.1, figure.share.2),
                        "day_results.success": estimate(figure.success, figure.success, figure.success),
                    ]
                ]
                return candidate
            }
        }
        // Every share interval straddles 2 %: nobody is sure; candidate 3 is the worst by success.
        var uncertain = candidates([((0.03, 0.01, 0.05), 900), ((0.03, 0.01, 0.06), 950), ((0.025, 0.01, 0.05), 920), ((0.012, 0.0, 0.03), 700)])
        #expect(TuneSearch.prune([0, 1, 2, 3], round: 0, keep: 2, &uncertain, question) == [0, 1, 2, 3])
        // Candidate 2 now meets the target with confidence: only those it beats may stop (3),
        // and 1, better by the objective though unsure, lives on.
        var one = candidates([((0.03, 0.025, 0.05), 900), ((0.03, 0.01, 0.06), 950), ((0.005, 0.0, 0.015), 920), ((0.012, 0.0, 0.03), 700)])
        #expect(TuneSearch.prune([0, 1, 2, 3], round: 1, keep: 2, &one, question) == [1, 2])
        #expect(
            one[3].stopped?.contains("ranked below candidate 2, which meets every target with confidence, by day_results.success") == true,
            "\(one[3].stopped ?? "")")
        #expect(one[0].stopped?.contains("ruled out by") == true)
    }

    @Test func aGridTooLargeIsSampledEvenlyWithTheBaselineFirst() throws {
        let catalogue = try Self.catalogue()
        let cap = try #require(catalogue.knobs.first { $0.name == "policy.max_per_day" })
        let time = try #require(catalogue.knobs.first { $0.name == "notifications.evening_underachievement.at" })
        let question = TuneQuestion(
            knobs: [cap, time], values: [Array(1...20).map(Double.init), stride(from: 68_400.0, through: 79_200, by: 600).map { $0 }], targets: [],
            objective: "streak.mean", maximise: true)
        let sample = TuneCandidates.make(question, limit: 40, seed: 7)
        #expect(sample.first == KnobSetting([3, 73_800]))
        #expect(sample.count <= 40 && Set(sample).count == sample.count)
        // Latin hypercube: the caps drawn spread over the whole range, not bunched at one end.
        let caps = Set(sample.dropFirst().map { $0.values[0] })
        #expect(caps.count >= 15 && caps.contains { $0 <= 3 } && caps.contains { $0 >= 18 })
        #expect(TuneCandidates.make(question, limit: 40, seed: 7) == sample)
        let small = TuneCandidates.make(question, limit: 1_000, seed: 7)
        #expect(small.count == 20 * 19 + 1 || small.count == 20 * 19)
    }

    @Test func usersWhoAnswerAlikeDifferByExactlyNothing() {
        var tally = PopulationTally()
        tally.users = 1
        tally.userDays = 3
        tally.deliveriesPerUserDay.add(2, count: 2)
        tally.deliveriesPerUserDay.add(1)
        tally.busiestDay.add(2)
        tally.routes = ["light": 1, "regular": 2]
        var other = tally
        other.deliveriesPerUserDay = Histogram()
        other.deliveriesPerUserDay.add(3, count: 3)
        other.busiestDay = Histogram()
        other.busiestDay.add(3)
        let users = (0..<30).map { UserOutcome($0 % 2 == 0 ? tally : other) }
        for name in [
            "notifications.per_user_day.mean", "notifications.per_user_day.p90", "routes.light.share", "busiest_day.at_least_3.share", "user_days",
        ] {
            guard let form = PopulationMetric.form(name) else { continue }
            let e = TuneEstimate.of(form, users: users[...], baseline: users[...], population: 1_000, seed: 1)
            #expect(e.difference == 0 && e.differenceLow == 0 && e.differenceHigh == 0, "\(name)")
        }
        let mean = TuneEstimate.of(
            .ratio("notifications.per_user_day.sum", over: "user_days"), users: users[...], baseline: users[...], population: 30, seed: 1)
        #expect(abs(mean.value - (15.0 * 5 + 15 * 9) / 90) < 1e-12)
        #expect(mean.low < mean.value && mean.high > mean.value)
    }

    @Test func aShareSeenAtZeroIsBoundedByTheRuleOfThreeAndAMaximumHasNoInterval() {
        var tally = PopulationTally()
        tally.users = 1
        tally.userDays = 2
        tally.busiestDay.add(2)
        tally.deliveriesPerUserDay.add(2, count: 2)
        var busier = tally
        busier.busiestDay = Histogram()
        busier.busiestDay.add(3)
        let users = (0..<30).map { _ in UserOutcome(tally) }
        let rare = TuneEstimate.of(.ratio("busiest_day.at_least_3", over: "users"), users: users[...], baseline: users[...], population: 30, seed: 1)
        #expect(rare.value == 0 && abs(rare.high - 0.1) < 1e-12)
        #expect(!TuneTarget(metric: "busiest_day.at_least_3.share", op: .below, bound: 0.05, text: "").met(rare))
        // One user of thirty with a day of 3: the maximum is 3 and nothing less, at once.
        let one = [UserOutcome(busier)] + users.dropFirst()
        let max = TuneEstimate.of(.quantile("busiest_day", 1), users: one[...], baseline: users[...], population: 30, seed: 1)
        #expect(max.value == 3 && max.low == 3 && max.high == 3 && max.difference == 1 && max.differenceLow == 1)
        #expect(TuneTarget(metric: "busiest_day.max", op: .atMost, bound: 2, text: "").ruledOut(max))
    }

    @Test func anEditChangesOnlyTheValueAndItsDiffAppliesAsAPatch() throws {
        let catalogue = try Self.catalogue()
        let knobs = catalogue.knobs.filter { ["policy.quiet_hours.start", "route.short_sleep"].contains($0.name) }
        #expect(knobs.count == 2)
        let texts = KnobEdit.texts(KnobSetting([79_200, 345]), knobs: knobs, sources: Self.load.sources)
        let notifications = try #require(texts["rules/notifications.yaml"])
        // Quotes and layout stay; only the value's characters change, and the comment that
        // stated the old value states the new one.
        #expect(notifications.contains(#"  quiet_hours: { start: "22:00", end: "07:00" }   # 22:00 이후 기본 알림 금지"#))
        #expect(
            KnobEdit.commentNotes(KnobSetting([79_200, 345]), knobs: knobs, sources: Self.load.sources) == [
                "rules/notifications.yaml:6: its comment stated the old value 22:30; updated to 22:00 (# 22:30 이후 기본 알림 금지)"
            ])
        let route = try #require(texts["rules/route.yaml"])
        #expect(route.contains("when: (sleep.minutes ?? 420) < 345"))
        let old = try #require(Self.load.sources["rules/route.yaml"]).text
        // A comment naming the value inside a longer number is not the value's (3 in 30, 13:30).
        #expect(CommentEdit.occurrences(of: Array("3".unicodeScalars), in: Array("# 하루 최대 3개, 30분, 13:30".unicodeScalars)) == [8])
        #expect(old.count == route.count)
        let diff = UnifiedDiff.of(old, route, file: "rules/route.yaml")
        #expect(diff.hasPrefix("--- a/rules/route.yaml\n+++ b/rules/route.yaml\n@@ -15,7 +15,7 @@\n"))
        #expect(diff.contains("\n-    when: (sleep.minutes ?? 420) < 360\n+    when: (sleep.minutes ?? 420) < 345\n"))
    }

    @Test func completionsAddUpByCategoryAndAnyOptOutCountsAUserOnce() {
        var counts: [String: Double] = [
            "answers.completions.water.completions": 3, "answers.completions.steps.completions": 2, "answers.completions.water.nudged": 1,
            "answers.by_type.bedtime.opted_out": 1, "answers.by_type.evening.opted_out": 1, "answers.opted_out_all": 0,
        ]
        UserOutcome.addTotals(&counts, categories: ["water": "drink", "steps": "move"])
        #expect(counts["completions.all"] == 5)
        #expect(counts["completions.category.drink"] == 3 && counts["completions.category.move"] == 2)
        #expect(counts["answers.opted_out_any"] == 1)
        var quiet: [String: Double] = ["answers.by_type.bedtime.opted_out": 0, "answers.opted_out_all": 0]
        UserOutcome.addTotals(&quiet, categories: [:])
        #expect(quiet["answers.opted_out_any"] == 0 && quiet["completions.all"] == 0)
        // Without answers there is nothing to add (the metrics are not offered either).
        var none: [String: Double] = ["day_results.failed": 2]
        UserOutcome.addTotals(&none, categories: [:])
        #expect(none.count == 1)
        #expect(PopulationMetric.form("answers.opted_out_any.share") == .ratio("answers.opted_out_any", over: "users"))
        #expect(PopulationMetric.form("completions.all") == .count("completions.all"))
    }

    @Test func fewUsersTakeStudentsTAndSeveralTargetsShareTheirConfidence() {
        // Published two-sided 95 % values of t, and the normal's past a million degrees.
        for (df, t) in [(1.0, 12.706), (4, 2.776), (9, 2.262), (29, 2.045), (120, 1.980), (2_000_000, 1.960)] {
            #expect(abs(StudentT.critical(0.95, df: df) - t) < 0.001, "\(df)")
        }
        #expect(abs(StudentT.critical(0.975, df: 10) - 2.634) < 0.001)
        #expect(abs(StudentT.critical(0.99, df: 5) - 4.032) < 0.001)
        // Five users: the interval of a mean is t(4) standard errors wide each side, not 1.96.
        var tally = PopulationTally()
        tally.users = 1
        tally.userDays = 1
        let users = (1...5).map { n -> UserOutcome in
            var user = UserOutcome(tally)
            user.counts["day_results.failed"] = Double(n)
            return user
        }
        let e = TuneEstimate.of(.count("day_results.failed"), users: users[...], baseline: users[...], population: 5, seed: 1)
        let se = (2.5 / 5).squareRoot() * 5
        #expect(abs((e.high - e.value) / se - 2.776) < 0.001)
        // Two targets: each judged at 97.5 %, and the report says so.
        let question = TuneQuestion(
            knobs: [], values: [],
            targets: [
                TuneTarget(metric: "a", op: .below, bound: 1, text: "a < 1"), TuneTarget(metric: "b", op: .below, bound: 1, text: "b < 1"),
            ], objective: "c", maximise: true)
        #expect(question.targetLevel == 0.975 && question.levelText("a") == "97.5 %" && question.levelText("c") == "95 %")
        let wider = TuneEstimate.of(.count("day_results.failed"), users: users[...], baseline: users[...], population: 5, seed: 1, level: 0.975)
        #expect(wider.high > e.high)
    }

    @Test func aQuantileIntervalOfSpreadUsersNeverCollapses() {
        // 200 users whose busiest days spread over 1…6: a thousand resamples give an interval
        // around the median, never one value by the draw.
        let users = (0..<200).map { n -> UserOutcome in
            var tally = PopulationTally()
            tally.users = 1
            tally.userDays = 1
            tally.busiestDay.add(1 + (n * 7) % 6)
            return UserOutcome(tally)
        }
        let e = TuneEstimate.of(.quantile("busiest_day", 0.5), users: users[...], baseline: users.reversed()[...], population: 200, seed: 3)
        #expect(e.low < e.high)
        #expect(e.differenceLow < e.differenceHigh)
        #expect(TuneEstimate.resamples >= 1_000)
    }

    /// The diff's verdict keeps sums, not users: its paired intervals are tune's, user for user,
    /// and two jobs' sums merged are the whole run's.
    @Test func theVerdictsSumsGiveTunesPairedIntervals() throws {
        let ruleset = try #require(Self.load.ruleset)
        let empty = PopulationVerdict(old: ruleset, new: ruleset, answers: false)
        var whole = empty
        var halves = [empty, empty]
        var olds: [UserOutcome] = []
        var news: [UserOutcome] = []
        for n in 0..<40 {
            var a = PopulationTally()
            a.users = 1
            a.userDays = 7
            a.dayResults = ["failed": n % 5, "success": 7 - n % 5]
            a.routes = ["light": n % 3, "regular": 7 - n % 3]
            var b = a
            b.dayResults = ["failed": (n * 7) % 6, "success": 7 - (n * 7) % 6]
            b.routes = ["light": (n + 1) % 4, "regular": 7 - (n + 1) % 4]
            whole.add(old: a, new: b)
            halves[n % 2].add(old: a, new: b)
            olds.append(UserOutcome(a))
            news.append(UserOutcome(b))
        }
        for metric in ["day_results.failed", "routes.light.share"] {
            let moved = try #require(whole.moved.first { $0.metric == metric }, "\(metric)")
            let form = try #require(PopulationMetric.form(metric))
            let e = TuneEstimate.of(form, users: news[...], baseline: olds[...], population: 40, seed: 1)
            #expect(abs(moved.difference - e.difference) < 1e-9, "\(metric)")
            #expect(abs(moved.low - e.differenceLow) < 1e-9 && abs(moved.high - e.differenceHigh) < 1e-9, "\(metric): \(moved) \(e)")
        }
        var merged = halves[0]
        merged.merge(halves[1])
        #expect(merged.moved == whole.moved)
    }
}
