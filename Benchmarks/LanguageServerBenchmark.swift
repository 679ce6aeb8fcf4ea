import Foundation
import RulesLanguageServer
import Ruleset
import RulesetFiles

/// `rules lsp`: the time from an edit to its diagnostics on the shipped ruleset (goal: under
/// 50 ms in release), next to the same run's baseline — loading the ruleset from its
/// directory as `rules check` does — and the process's peak memory after 1,000 edits (each
/// an incremental change of one character, diagnostics after every tenth).
enum LanguageServerBenchmark {
    static func run(repository: String) {
        final class Sink: @unchecked Sendable { var bytes = 0 }
        let sink = Sink()
        let server = LanguageServer { sink.bytes += $0.count }
        func send(_ value: [String: Any]) {
            guard let data = try? JSONSerialization.data(withJSONObject: value) else { return }
            server.receive(Array(data))
        }
        send(["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["rootUri": "file://" + repository, "capabilities": [:]]])
        let path = repository + "/rules/route.yaml"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let row = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex(where: { $0.contains("completion_rate < 0.6") })
        else {
            print("lsp: rules/route.yaml has no 'completion_rate < 0.6'")
            return
        }
        let uri = "file://" + path
        send([
            "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": ["textDocument": ["uri": uri, "languageId": "yaml", "version": 1, "text": text]],
        ])
        let baseline = Measure.best(runs: 5) { blackHole(Ruleset.load(directory: repository).diagnostics.count) }
        var version = 1
        /// Types or deletes one character at the end of the line's expression, alternately.
        func edit() {
            version += 1
            let insert = version % 2 == 0
            let start: [String: Any] = ["line": row, "character": 4]
            let end: [String: Any] = ["line": row, "character": insert ? 4 : 5]
            send([
                "jsonrpc": "2.0", "method": "textDocument/didChange",
                "params": [
                    "textDocument": ["uri": uri, "version": version],
                    "contentChanges": [["range": ["start": start, "end": end], "text": insert ? " " : ""]],
                ],
            ])
        }
        var times: [Double] = []
        for index in 0..<1000 {
            edit()
            if index % 10 == 0 { times.append(Measure.best(runs: 1) { server.publishDiagnostics() }) }
        }
        times.sort()
        let median = times[times.count / 2]
        print(
            "lsp.edit_to_diagnostics: median \(Measure.format(median * 1000, decimals: 1)) ms (goal < 50 ms), \(Measure.format(median / baseline, decimals: 2))x loading the ruleset from its directory (\(Measure.format(baseline * 1000, decimals: 1)) ms)"
        )
        print("lsp.memory: peak RSS \(PopulationBenchmark.peakRSS()) MB after 1,000 edits and 100 diagnostics runs")
        keystrokeToDiagnostics(uri: uri, text: text, row: row, repository: repository, work: median)
    }

    /// What the user waits for: a keystroke written to the server's standard input until its
    /// diagnostics are read from its output, through the real loop (framing, the delay that
    /// follows the check's cost, the check, the write). 40 keystrokes, each after the last
    /// one's diagnostics arrived.
    static func keystrokeToDiagnostics(uri: String, text: String, row: Int, repository: String, work: Double) {
        let input = Pipe()
        let output = Pipe()
        let loop = Thread { _ = LanguageServerLoop.run(input: input.fileHandleForReading, output: output.fileHandleForWriting) }
        loop.start()
        func send(_ value: [String: Any]) {
            guard let data = try? JSONSerialization.data(withJSONObject: value) else { return }
            input.fileHandleForWriting.write(Data(MessageFramer.frame(Array(data))))
        }
        var framer = MessageFramer()
        /// Reads until a message that contains `needle`.
        func wait(for needle: String) {
            while true {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { return }
                for message in framer.append(data) {
                    if case .success(let body) = message, String(decoding: body, as: UTF8.self).contains(needle) { return }
                }
            }
        }
        send(["jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ["rootUri": "file://" + repository, "capabilities": [:]]])
        wait(for: "\"id\":1")
        send([
            "jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": ["textDocument": ["uri": uri, "languageId": "yaml", "version": 1, "text": text]],
        ])
        // The shipped file has no diagnostic, so nothing is published for the open: the first
        // keystroke (a space that breaks the indentation) is the first publication.
        var times: [Double] = []
        for version in 2..<42 {
            let insert = version % 2 == 0
            let start: [String: Any] = ["line": row, "character": 4]
            let end: [String: Any] = ["line": row, "character": insert ? 4 : 5]
            let began = DispatchTime.now().uptimeNanoseconds
            send([
                "jsonrpc": "2.0", "method": "textDocument/didChange",
                "params": [
                    "textDocument": ["uri": uri, "version": version],
                    "contentChanges": [["range": ["start": start, "end": end], "text": insert ? " " : ""]],
                ],
            ])
            wait(for: "\"version\":\(version),")
            times.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9)
        }
        send(["jsonrpc": "2.0", "id": 2, "method": "shutdown"])
        send(["jsonrpc": "2.0", "method": "exit"])
        times.sort()
        let median = times[times.count / 2]
        print(
            "lsp.keystroke_to_diagnostics: median \(Measure.format(median * 1000, decimals: 1)) ms (goal ≤ 50 ms), of which the check \(Measure.format(work * 1000, decimals: 1)) ms; slowest \(Measure.format((times.last ?? 0) * 1000, decimals: 1)) ms of 40 keystrokes"
        )
    }
}
