import RulesDiagnostics
import RulesDocument

/// The scenario phase's message catalogue (`scenario.*`); structural problems (unknown
/// keys, wrong types, times like `25:00`) share the rule files' `ruleset.*` codes.
public enum ScenarioDiagnostics {
    public static let descriptions: [CodeDescription] = [
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
    ]

    private static func d(_ code: String, _ summary: String, _ rationale: String) -> CodeDescription {
        CodeDescription(code: DiagnosticCode(code), severity: .error, summary: summary, rationale: rationale)
    }

    static func error(_ code: DiagnosticCode, _ file: String, _ node: YAMLNode, _ message: String, hint: String? = nil) -> Diagnostic {
        Diagnostic(code: code, severity: .error, file: file, range: node.range, message: message, hint: hint)
    }

    /// `steps` or `sleep` samples (at `node`) whose permission no day so far has stated.
    static func healthUnread(_ kind: String, _ file: String, _ node: YAMLNode) -> Diagnostic {
        Diagnostic(
            code: "scenario.health_unread", severity: .warning, file: file, range: node.range,
            message: "the app never reads these \(kind) samples: HealthKit permission for \(kind) is not_determined unless the scenario says so",
            hint: "add 'permission: { \(kind): granted }' under health, or write 'not_determined' to test manual mode on purpose")
    }
}
