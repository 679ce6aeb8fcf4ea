import Foundation
import RulesExpression
import Ruleset

/// Goals and values: what a routine asks for on the route in force, and what was done.
/// A part with its own inputs (the light route's scale; the routine, the route, the day)
/// and one output each — a pure function.
struct Goals {
    /// `light.scale` (nil: the ruleset has no light route section).
    let lightScale: Double?

    init(_ ruleset: Ruleset) { lightScale = ruleset.light?.scale }

    /// The goal of `routine` on `route`: light scales steps, minutes, ml and count goals
    /// (not sleep, checklists or checks) and rounds half up, unless the routine names its
    /// own light goal; `set_goal` overrides win.
    /// Fields are read through the box: a routine copied out of it costs a retain per field.
    func goal(of box: RoutineBox, on route: RouteKind, in day: DayState) -> Double {
        if !day.goalOverrides.isEmpty, let override = day.goalOverrides[box.value.id] { return override }
        guard route == .light else { return box.value.goal }
        if let light = box.value.lightGoal { return light }
        guard box.scalesOnLightRoute, let scale = lightScale else { return box.value.goal }
        return (box.value.goal * scale + 0.5).rounded(.down)
    }

    /// A routine's value: HealthKit steps and sleep when permitted, ticked checklist
    /// items, or the sum of its logs. Inlined into the reading's loop, with the checklist's
    /// count apart: as one function, its frame (the checklist's loop) cost more than the
    /// lookup of a routine's logs it usually is.
    @inline(__always)
    static func value(of box: RoutineBox, in day: DayState) -> Double {
        switch box.valueSource {
        case .healthSteps:
            if let health = day.health, health.stepsPermission == .granted { return Double(health.stepsToday ?? 0) }
        case .healthSleep:
            // Granted: HealthKit is the truth (no night recorded is 0), manual logs change nothing.
            if let health = day.health, health.sleepPermission == .granted { return Double(health.sleepMinutes ?? 0) }
        case .checklist:
            if !day.ticks.isEmpty { return checklistValue(of: box, in: day) }
        case .logs:
            break
        }
        return day.logged(box.value.id)
    }

    /// Ticked items plus any logged values (a value-less log counts 1): the routine's items
    /// ticked today, each once (no sets built per reading). Ticks hold the ruleset's own
    /// spelling of an item (`tick`, reconciliation), so bytes are compared: `==` on Korean
    /// text that differs takes Unicode's slow path.
    @inline(never)
    private static func checklistValue(of box: RoutineBox, in day: DayState) -> Double {
        // The routine's ticks found once each, then matched to its items by bytes (a bit per
        // item, so an item ticked twice counts once); searching the ticks for every item
        // compared every tick's routine again for each item.
        let id = box.value.id
        let items = box.distinctItems
        let ticks = day.ticks
        var ticked = 0
        if items.count <= UInt64.bitWidth {
            var seen: UInt64 = 0
            for index in ticks.indices where ticks[index].routine == id {
                for position in items.indices where seen & (1 << position) == 0 && items[position].sameBytes(as: ticks[index].item) {
                    seen |= 1 << position
                    break
                }
            }
            ticked = seen.nonzeroBitCount
        } else {
            for item in items where ticks.contains(where: { $0.routine == id && $0.item.sameBytes(as: item) }) {
                ticked += 1
            }
        }
        return Double(ticked) + day.logged(id)
    }
}

extension String {
    /// Byte equality of the UTF-8 encodings (`==` compares canonical equivalence, which on
    /// non-ASCII text that differs walks Unicode normalization data).
    func sameBytes(as other: String) -> Bool {
        let count = utf8.count
        guard count == other.utf8.count else { return false }
        // Through contiguous bytes, compared in a plain loop: the UTF-8 views' own iteration
        // costs ~40 instructions a byte, and `withUTF8` on copies retained both strings.
        let compared = utf8.withContiguousStorageIfAvailable { a in
            other.utf8.withContiguousStorageIfAvailable { b in
                for index in 0..<count where a[index] != b[index] { return false }
                return true
            }
        }
        if let compared, let result = compared { return result }
        return utf8.elementsEqual(other.utf8)
    }
}
