import RulesDiagnostics
import RulesDocument

/// The scenario phase's message catalogue (`scenario.*`); structural problems (unknown
/// keys, wrong types, times like `25:00`) share the rule files' `ruleset.*` codes.
package enum ScenarioDiagnostics {
    package static let descriptions: [CodeDescription] = [
        d(
            "scenario.out_of_order", "an event earlier than the one before it",
            "Events are listed in time order; times before day_starts_at are the early hours after midnight, at the end of the day."),
        d("scenario.unknown_routine", "a routine the ruleset does not define", "Scenarios name routines by id."),
        d(
            "scenario.unknown_notification", "a notification type the ruleset does not define",
            "Responses and expectations name notification types by id."),
        d("scenario.unknown_timezone", "a time zone that is not an IANA name", "Write a name such as Asia/Seoul or America/New_York."),
        d("scenario.invalid_date", "a date that is not YYYY-MM-DD", "Dates are written 2026-06-29."),
        d(
            "scenario.event_kind", "an event or expectation without exactly one kind",
            "Each event has `at` and one of app, log, check, uncheck, action, tool_call, notification, settings, widget, edit_log, delete_log."),
        d(
            "scenario.not_delivered", "a response to a notification not delivered earlier that day",
            "A notification can be answered only after it was delivered."),
        d("scenario.engine_problem", "an event the engine could not apply", "The message says why (an unknown checklist item, a unit mismatch, …)."),
        CodeDescription(
            code: "scenario.health_unread", severity: .warning, summary: "HealthKit samples the app is never allowed to read",
            rationale:
                "HealthKit permission starts not_determined (manual mode), so steps or sleep given without `permission: { steps: granted, sleep: granted }` never reach the engine. Say `not_determined` or `denied` to test manual mode on purpose."
        ),
        CodeDescription(
            code: "scenario.routine_not_enabled", severity: .warning, summary: "a population's act that does a routine its group has not enabled",
            rationale:
                "An answer's `does:` logs routines on the user's day; a routine the group has not enabled (its `routines:`, or the routines on by default when it lists none) is not on that day, so the act changes nothing. Add the routine to the group's routines or drop it from `does`."
        ),
        CodeDescription(
            code: "scenario.dst_gap", severity: .warning, summary: "a time the clocks skip on that day (a DST change)",
            rationale:
                "On the day clocks spring forward, the skipped wall times do not exist: an event or expectation there happens the length of the gap later (02:30 → 03:30 in New York on 2026-03-08), as iOS moves a notification, and events run in the order of their instants. The warning names the time it runs at."
        ),
    ]

    private static func d(_ code: String, _ summary: String, _ rationale: String) -> CodeDescription {
        CodeDescription(code: DiagnosticCode(code), severity: .error, summary: summary, rationale: rationale)
    }

    package static func error(_ code: DiagnosticCode, _ file: String, _ node: YAMLNode, _ message: String, hint: String? = nil) -> Diagnostic {
        Diagnostic(code: code, severity: .error, file: file, range: node.range, message: message, hint: hint)
    }

    /// A wall time (at `node`) that `date` skips in `zone`: it happens at `runsAt`.
    /// `before`: the times of the later-listed events it now runs after.
    static func dstGap(_ file: String, _ node: YAMLNode, time: String, date: String, zone: String, runsAt: String, after: [String]) -> Diagnostic {
        Diagnostic(
            code: "scenario.dst_gap", severity: .warning, file: file, range: node.range,
            message: "\(time) does not exist on \(date) in \(zone) (the clocks skip it): it happens at \(runsAt)"
                + (after.isEmpty ? "" : ", after the events at \(after.joined(separator: ", ")) below it"),
            hint: "write \(runsAt) to say so, or pick a time outside the skipped hour")
    }

    /// `steps` or `sleep` samples (at `node`) whose permission no day so far has stated.
    static func healthUnread(_ kind: String, _ file: String, _ node: YAMLNode) -> Diagnostic {
        Diagnostic(
            code: "scenario.health_unread", severity: .warning, file: file, range: node.range,
            message: "the app never reads these \(kind) samples: HealthKit permission for \(kind) is not_determined unless the scenario says so",
            hint: "add 'permission: { \(kind): granted }' under health, or write 'not_determined' to test manual mode on purpose")
    }
}
