import CLibYAML
import Foundation
import RulesDocument
import RulesYAML

/// YAML load throughput of `RulesYAML` (tree with positions) against a bare libyaml event
/// loop over the same bytes, in the same run.
enum YAMLBenchmark {
    /// A rule-like YAML file of about `bytes` bytes: notifications, routines, templates.
    static func corpus(bytes target: Int, seed: Int) -> [UInt8] {
        var text = "# generated benchmark corpus\n"
        var index = seed * 100_000
        while text.utf8.count < target {
            text += """
                ---
                notifications:
                  - id: reminder_\(index)
                    category: routine
                    at: "20:\(index % 60 < 10 ? "0" : "")\(index % 60)"
                    when: completion_rate < 0.6 && (sleep.minutes ?? 420) >= 360
                    template: evening_salvage
                    deep_link: app://route/today
                    actions: [open_app, start_recovery]
                routines:
                  - id: routine_\(index)
                    name: 물 마시기 \(index)
                    category: water
                    source: manual
                    unit: ml
                    goal: \(1500 + index % 7)
                    quick_log: [250, 500]
                    routes:
                      light: { goal: 1000 }
                templates:
                  - id: line_\(index)
                    surface: home
                    when: route == "recovery"
                    text: |
                      정규 루트는 이미 무너졌어. {recovery.items_text}만 처리하고 귀환해.
                      그래도 완전 패배로 끝낼 필요는 없지.

                """
            index += 1
        }
        return Array(text.utf8)
    }

    /// Events only: what any libyaml user pays before building anything.
    static func bareEventLoop(_ bytes: [UInt8]) -> Int {
        var events = 0
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) != 0 else { return }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, base, buffer.count)
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) != 0 {
                let done = event.type == YAML_STREAM_END_EVENT
                yaml_event_delete(&event)
                events += 1
                if done { break }
            }
        }
        return events
    }

    static func run() {
        let chunks = (0..<4).map { corpus(bytes: 1_000_000, seed: $0) }
        let totalBytes = chunks.reduce(0) { $0 + $1.count }
        let megabytes = Double(totalBytes) / 1_000_000
        var check = 0
        for chunk in chunks {
            let parsed = YAMLReader.parse(chunk, file: "corpus.yaml")
            precondition(parsed.isClean, "benchmark corpus must parse: \(parsed.diagnostics.first?.message ?? "")")
            check += parsed.documents.count
        }
        let bare = Measure.best(runs: 7) {
            for chunk in chunks { blackHole(bareEventLoop(chunk)) }
        }
        let tree = Measure.best(runs: 7) {
            for chunk in chunks { blackHole(YAMLReader.parse(chunk, file: "corpus.yaml")) }
        }
        var kept: [ParsedDocuments] = []
        let buildOnly = Measure.best(runs: 1) {
            for chunk in chunks { kept.append(YAMLReader.parse(chunk, file: "corpus.yaml")) }
        }
        let teardown = Measure.best(runs: 1) { kept.removeAll() }
        let events = chunks.reduce(0) { $0 + bareEventLoop($1) }
        print("yaml.load: corpus \(Measure.format(megabytes)) MB in \(chunks.count) files, \(check) documents, \(events) events")
        print("  bare libyaml event loop: \(Measure.format(megabytes / bare, decimals: 1)) MB/s")
        print("  RulesYAML tree build:    \(Measure.format(megabytes / tree, decimals: 1)) MB/s")
        print(
            "  ratio tree/bare:         \(Measure.format(tree / bare))x (goal <= 1.50x); \(Measure.format((tree - bare) / Double(events) * 1e9, decimals: 0)) ns of tree building per event"
        )
        print("  one run split: building \(Measure.format(buildOnly * 1000)) ms, freeing the trees \(Measure.format(teardown * 1000)) ms")

        let laughs = billionLaughs()
        let bomb = Measure.best(runs: 3) {
            blackHole(YAMLReader.parse(laughs, file: "laughs.yaml"))
        }
        let refused = !YAMLReader.parse(laughs, file: "laughs.yaml").isClean
        print("yaml.billion_laughs: \(refused ? "refused" : "NOT REFUSED") in \(Measure.format(bomb * 1000, decimals: 3)) ms")
    }

    /// Nine levels of ten aliases each: 10^9 nodes if expanded.
    static func billionLaughs() -> [UInt8] {
        var text = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            let previous = "*a\(level - 1)"
            let items = Array(repeating: previous, count: 10).joined(separator: ", ")
            text += "a\(level): &a\(level) [\(items)]\n"
        }
        return Array(text.utf8)
    }
}
