/// The telemetry's one vocabulary: the kinds of line and the fields a line may hold. The app's
/// writer (`Telemetry.lines`), the schema (`rules schema`), the fit's reader and the features
/// query (`scripts/sql/features.sql`, checked by a test) all take them from here.
extension Telemetry {
    /// What a line says happened.
    public enum Kind: String, CaseIterable, Sendable {
        case run, log, tick, delivery, response, withheld, setting, health, route, day, routine, notices

        /// The fields a line of the kind must carry beside the head (a `setting` line has one of
        /// two shapes: the schema says which).
        public var required: [String] {
            switch self {
            case .run: ["cause"]
            case .log: ["routine", "value"]
            case .tick: ["routine", "item", "checked"]
            case .delivery, .withheld: ["type"]
            case .response: ["type", "response"]
            case .setting: []
            case .health: ["steps_permission", "sleep_permission"]
            case .route: ["route"]
            case .day: ["result"]
            case .routine: ["routine"]
            case .notices: ["on"]
            }
        }
    }

    /// The fields every line carries, first, in this order (`seq` may be absent in lines
    /// written before it was).
    public static let head = ["v", "user", "ruleset", "day", "minute", "seq", "kind"]
    /// Every field a line may hold: the head, then the kinds' own.
    public static let fields =
        head + [
            "cause", "type", "action", "intent", "routine", "value", "item", "checked", "on", "response", "steps_permission",
            "sleep_permission", "sleep", "wake", "steps", "route", "result", "key", "choice", "at", "set",
        ]
    /// The head's fields every line must carry.
    public static let requiredHead = head.filter { $0 != "seq" }
}
