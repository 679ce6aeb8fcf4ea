/// Worlds drawn from a prior over the population keys the fit claims to recover, for its
/// calibration (simulation-based calibration): one to three groups, each with its own open
/// time, water and supplement logs, answers, a supplement reminder some users set, an act
/// chance for the reminder, and — each with chance ½ — fatigue, switching every notice off,
/// and users who differ. A world is its seed: the same seed, the same world and the same truth.
public enum CalibrationWorlds {
    /// The planted values of one group, by family (`weight`, `opens`, `water`, `opened`,
    /// `ignored`, `act`, `reminder`, `per_extra`, `opt_out_type`, `opt_out_all`), with when its
    /// users open the app (minutes of the wall clock) to find it among the fitted groups.
    public struct Group: Sendable {
        public var opensAt: Int
        public var truth: [String: Double]
        public var logitSD: Double
    }

    /// The families a world plants, in the order the calibration reports them.
    public static let families = [
        "weight", "opens", "water", "opened", "ignored", "act", "reminder", "per_extra", "opt_out_type", "opt_out_all",
    ]

    static let openTimes = [7 * 60, 12 * 60 + 30, 17 * 60 + 30]

    /// World `seed`: its population file and each group's truth.
    public static func world(seed: Int, users: Int = 300, days: Int = 14) -> (text: String, groups: [Group]) {
        var random = SeededGenerator(state: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 17)
        func uniform(_ low: Double, _ high: Double) -> Double {
            // Three decimals, so the file says exactly the planted value.
            let u = Double(random.next(1_000_001)) / 1_000_000
            return ((low + (high - low) * u) * 1_000).rounded() / 1_000
        }
        let count = 1 + random.next(3)
        // Weights at least 0.25 each, summing to 1 (three decimals).
        var raw = (0..<count).map { _ in uniform(1, 2) }
        let total = raw.reduce(0, +)
        raw = raw.map { ($0 / total * 1_000).rounded() / 1_000 }
        raw[count - 1] = ((1 - raw.dropLast().reduce(0, +)) * 1_000).rounded() / 1_000
        var text = PlantedPopulations.header("calibration world \(seed)", seed: seed, users: users, days: days) + "groups:\n"
        var groups: [Group] = []
        for index in 0..<count {
            var truth: [String: Double] = ["weight": raw[index]]
            let at = openTimes[index]
            truth["opens"] = uniform(0.7, 0.95)
            truth["water"] = uniform(0.3, 0.8)
            truth["opened"] = uniform(0.15, 0.4)
            truth["ignored"] = uniform(0.3, 0.55)
            truth["act"] = uniform(0.15, 0.5)
            truth["reminder"] = uniform(0.5, 1)
            truth["opt_out_type"] = uniform(0.01, 0.05)
            let tired = random.next(2) == 0
            if tired { truth["per_extra"] = uniform(0.1, 0.3) }
            let after = 1 + random.next(2)
            let off = random.next(2) == 0
            if off { truth["opt_out_all"] = uniform(0.01, 0.04) }
            let differ = random.next(2) == 0
            let logitSD = differ ? uniform(0.3, 0.8) : 0
            func v(_ key: String) -> String { truth[key].map { "\($0)" } ?? "0" }
            text += """
                  - name: group\(index + 1)
                    weight: \(v("weight"))
                    routines: [water, study, supplement]
                    app_opens:
                      - { p: \(v("opens")), at: "\(clock(at))", sd: 20 }
                      - { p: 0.5, at: "21:30", sd: 20 }
                    logs:
                      - { routine: water, p: \(v("water")), value: 250, count: 2, at: "\(clock(at + 90))", sd: 60 }
                      - { routine: supplement, p: 0.1, value: 1, at: "\(clock(at + 30))", sd: 60 }
                    response: { opened: \(v("opened")), ignored: \(v("ignored")) }
                    settings:
                      routine_reminder: 1
                      reminders:
                        supplement: { p: \(v("reminder")), at: "10:00", sd: 20 }
                    acts:
                      routine_reminder: { p: \(v("act")), within: 30m }
                    opt_out: { type: \(v("opt_out_type"))\(off ? ", all: \(v("opt_out_all")), above: 1" : "") }

                """
            if tired { text += "    fatigue: { after: \(after), per_extra: \(v("per_extra")) }\n" }
            if differ { text += "    between_users: { logit_sd: \(logitSD), minutes_sd: 15 }\n" }
            groups.append(Group(opensAt: at, truth: truth, logitSD: logitSD))
        }
        return (text, groups)
    }

    static func clock(_ minutes: Int) -> String {
        let m = ((minutes % 1_440) + 1_440) % 1_440
        let hours = m / 60
        let rest = m % 60
        return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
    }
}
