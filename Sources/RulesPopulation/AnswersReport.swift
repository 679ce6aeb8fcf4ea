import Foundation
import RulesDiagnostics
import RulesDocument

/// The answers of a population in a report: JSON (`answers`, `effects`), text and a page
/// section; and back from a result's JSON for merging shards.
extension AnswersTally {
    /// `answers`: per type delivered (seen), acted (count and share), withheld, opted out;
    /// opted out of every notice; completions per routine and how many were nudged.
    /// `effects`: per type the trial's difference, and by deliveries so far.
    package func json() -> [(String, JSONValue)] {
        let types = Set(delivered.keys).union(acted.keys).union(withheld.keys).union(optedOut.keys).union(unshown.keys).sorted()
        let byType: [(String, JSONValue)] = types.map { type in
            let seen = delivered[type] ?? 0
            let did = acted[type] ?? 0
            return (
                type,
                .object([
                    ("delivered", .int(seen)), ("acted", .int(did)), ("acted_share", .number(PopulationReport.share(did, of: seen))),
                    ("withheld", .int(withheld[type] ?? 0)), ("opted_out", .int(optedOut[type] ?? 0)),
                    ("delivered_unshown", .int(unshown[type] ?? 0)),
                ])
            )
        }
        let routines = Set(completions.keys).union(nudgedCompletions.keys).sorted()
        let completed: [(String, JSONValue)] = routines.map {
            ($0, .object([("completions", .int(completions[$0] ?? 0)), ("nudged", .int(nudgedCompletions[$0] ?? 0))]))
        }
        var fields: [(String, JSONValue)] = [
            (
                "answers",
                .object([("by_type", .object(byType)), ("opted_out_all", .int(optedOutAll)), ("completions", .object(completed))])
            )
        ]
        if !effects.isEmpty {
            let byType: [(String, JSONValue)] = effects.keys.sorted().map { type in
                guard case .object(var effect) = effects[type]?.json() else { return (type, .null) }
                let bins = (effectsByDeliveries[type] ?? [:]).sorted { $0.key < $1.key }.map { (Self.binLabel($0.key), $0.value.json()) }
                effect.append(("by_deliveries_so_far", .object(bins)))
                return (type, .object(effect))
            }
            fields.append(("effects", .object(byType)))
        }
        return fields
    }

    /// What a trial's report must say: withholding changes what it measures around it.
    package static let trialCaution =
        "a trial withholds deliveries, so its users saw fewer notices, tired less and switched fewer off: the deliveries, fatigue and opt-outs above are the trial's, not the policy's; live it without --randomize for those"

    /// The text report's lines.
    package var text: String {
        var out = "\nanswers (deliveries seen; acted on; switched off):\n"
        for type in Set(delivered.keys).union(acted.keys).union(unshown.keys).sorted() {
            let seen = delivered[type] ?? 0
            let did = acted[type] ?? 0
            out +=
                "  \(PopulationReport.line(type)): \(PopulationReport.grouped(seen)) seen, acted on \(PopulationReport.grouped(did)) "
                + "(\(PopulationReport.percent(did, of: seen)))"
            if let held = withheld[type], held > 0 { out += ", withheld \(PopulationReport.grouped(held))" }
            if let off = optedOut[type], off > 0 { out += ", switched off by \(PopulationReport.grouped(off)) users" }
            if let unseen = unshown[type], unseen > 0 { out += "; \(PopulationReport.grouped(unseen)) more to devices that show nothing" }
            out += "\n"
        }
        out += "  every notice switched off (system settings): \(PopulationReport.grouped(optedOutAll)) users"
        let unseen = unshown.values.reduce(0, +)
        out += unseen > 0 ? "; the engine went on delivering to them: \(PopulationReport.grouped(unseen)) deliveries nobody saw\n" : "\n"
        let routines = completions.keys.sorted()
        if !routines.isEmpty {
            out += "completions by routine (nudged: a notice's act that day): "
            out +=
                routines.map {
                    "\($0) \(PopulationReport.grouped(completions[$0] ?? 0)) (nudged \(PopulationReport.grouped(nudgedCompletions[$0] ?? 0)))"
                }
                .joined(separator: ", ") + "\n"
        }
        if !effects.isEmpty {
            out += "\neffects (the routine a notice asks for, done within its window: delivered − withheld):\n"
            out += "  \(Self.trialCaution)\n"
            for type in effects.keys.sorted() {
                out += "  \(PopulationReport.line(type)): \(effects[type]?.text ?? "")\n"
                for (bin, effect) in (effectsByDeliveries[type] ?? [:]).sorted(by: { $0.key < $1.key }) {
                    out += "    after \(Self.binLabel(bin)) deliveries: \(effect.text)\n"
                }
            }
        }
        return out
    }

    /// From a result's `answers` and `effects` (nil: the result has none); a count that is
    /// not a whole number within the bounds is refused with what is wrong.
    package static func read(answers: YAMLNode?, effects: YAMLNode?) throws(PopulationReport.ReadFailure) -> AnswersTally? {
        func fail(_ what: String) -> PopulationReport.ReadFailure { PopulationReport.ReadFailure(description: what) }
        guard let answers else { return nil }
        var tally = AnswersTally()
        for pair in answers.pairs?.first(where: { $0.key.scalar == "by_type" })?.value.pairs ?? [] {
            guard let type = pair.key.scalar else { continue }
            func number(_ key: String) -> Int? { pair.value.pairs?.first { $0.key.scalar == key }?.value.scalar.flatMap(Int.init) }
            guard let seen = number("delivered"), let did = number("acted"), let held = number("withheld"), let off = number("opted_out"),
                [seen, did, held, off].allSatisfy({ $0 >= 0 && $0 <= ClusteredDifference.maxSum })
            else { throw fail("answers of '\(type)' are not counts") }
            // A tally holds no zero counts (it only ever adds): the ones written as 0 stay out.
            for (count, keyPath) in [(seen, \AnswersTally.delivered), (did, \.acted), (held, \.withheld), (off, \.optedOut)] where count > 0 {
                tally[keyPath: keyPath][type] = count
            }
            // Results written before deliveries to devices that show nothing were counted lack it.
            if let unseen = number("delivered_unshown") {
                guard unseen >= 0, unseen <= ClusteredDifference.maxSum else { throw fail("answers of '\(type)' are not counts") }
                if unseen > 0 { tally.unshown[type] = unseen }
            }
        }
        let all = answers.pairs?.first { $0.key.scalar == "opted_out_all" }?.value.scalar.flatMap(Int.init) ?? 0
        tally.optedOutAll = Swift.max(0, Swift.min(all, ClusteredDifference.maxSum))
        for pair in answers.pairs?.first(where: { $0.key.scalar == "completions" })?.value.pairs ?? [] {
            guard let routine = pair.key.scalar else { continue }
            func number(_ key: String) -> Int { pair.value.pairs?.first { $0.key.scalar == key }?.value.scalar.flatMap(Int.init) ?? 0 }
            let (done, nudged) = (
                Swift.min(number("completions"), ClusteredDifference.maxSum), Swift.min(number("nudged"), ClusteredDifference.maxSum)
            )
            if done > 0 { tally.completions[routine] = done }
            if nudged > 0 { tally.nudgedCompletions[routine] = nudged }
        }
        for pair in effects?.pairs ?? [] {
            guard let type = pair.key.scalar else { continue }
            guard let effect = difference(pair.value) else { throw fail("the effect of '\(type)' has no sums") }
            tally.effects[type] = effect
            for bin in pair.value.pairs?.first(where: { $0.key.scalar == "by_deliveries_so_far" })?.value.pairs ?? [] {
                guard let label = bin.key.scalar, let start = Int(label.prefix { $0.isNumber }), bins.contains(start),
                    let effect = difference(bin.value)
                else { throw fail("an effect bin of '\(type)' does not read") }
                tally.effectsByDeliveries[type, default: [:]][start] = effect
            }
        }
        return tally
    }

    static func difference(_ node: YAMLNode) -> ClusteredDifference? {
        guard let sums = node.pairs?.first(where: { $0.key.scalar == "sums" })?.value.items else { return nil }
        let numbers = sums.compactMap { $0.scalar.flatMap(Int.init) }
        guard numbers.count == sums.count else { return nil }
        return ClusteredDifference(sums: numbers)
    }
}
