/// Population files with a planted answer, shared by the tests of the fit (in-process) and of
/// `rules population fit --check` (through the CLI).
public enum PlantedPopulations {
    /// One group that opens the app at 07:30 (and often at 21:00), rarely takes its supplement
    /// unprompted, and has every user set a 10:00 supplement reminder with the reminder switch
    /// on; a reminder makes them take it with chance `act`; an ignored notice switches its type
    /// off with chance `optOut`, and (`all`) a delivery past a day's `above`-th switches every
    /// notice off with chance `p`.
    public static func reminderWorld(
        seed: Int, users: Int = 300, days: Int = 14, act: Double = 0.3, optOut: Double = 0.03, reminders: Bool = true,
        all: (p: Double, above: Int)? = nil
    )
        -> String
    {
        header("reminder world", seed: seed, users: users, days: days) + """
            groups:
              - name: planted
                routines: [water, study, supplement]
                app_opens:
                  - { p: 0.9, at: "07:30", sd: 10 }
                  - { p: 0.5, at: "21:00", sd: 30 }
                logs:
                  - { routine: water, p: 0.6, value: 250, count: 3, at: "14:00", sd: 120 }
                  - { routine: supplement, p: 0.1, value: 1, at: "12:00", sd: 60 }
                response: { opened: 0.3, ignored: 0.6 }
                settings:
                  routine_reminder: \(reminders ? 1 : 0)
                  reminders:
                    supplement: { p: 1, at: "10:00", sd: 20 }
                acts:
                  routine_reminder: { p: \(act), within: 30m }
                opt_out: { type: \(optOut)\(all.map { ", all: \($0.p), above: \($0.above)" } ?? "") }

            """
    }

    /// One group that logs water in the afternoon and studies around 21:00, ticks its
    /// skincare in the morning, and acts on a seen evening notice (the one about the day's
    /// remaining routines) with chance `act`, doing one of the routines still open.
    public static func eveningWorld(seed: Int, users: Int = 300, days: Int = 14, act: Double = 0.3) -> String {
        header("evening world", seed: seed, users: users, days: days) + """
            groups:
              - name: planted
                routines: [water, study, supplement, skincare]
                app_opens:
                  - { p: 0.9, at: "08:00", sd: 20 }
                  - { p: 0.5, at: "21:00", sd: 40 }
                logs:
                  - { routine: water, p: 0.7, value: 250, count: 3, at: "13:00", sd: 120 }
                  - { routine: study, p: 0.4, value: 30, at: "21:00", sd: 60 }
                checks: { skincare: 0.5 }
                check_at: { at: "07:30", sd: 20 }
                response: { opened: 0.4, ignored: 0.4 }
                acts:
                  evening_underachievement: { p: \(act), within: 45m }

            """
    }

    /// The lines every planted world starts with: its name, seed, size and calendar.
    public static func header(_ name: String, seed: Int, users: Int, days: Int) -> String {
        """
        name: \(name)
        seed: \(seed)
        users: \(users)
        days: \(days)
        start: 2026-07-06
        timezone: Asia/Seoul

        """
    }
}
