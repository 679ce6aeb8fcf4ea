import Foundation

/// The language server's transport over a pair of streams (stdin and stdout for `rules lsp`):
/// a reader thread frames the bytes as they come; one serial queue handles each message in
/// order and runs the diagnostics once the edits have paused for `delay` (by default a small
/// multiple of the last check's time, `DiagnosticsDelay`: typing runs them once a pause, not
/// per keystroke, and a small ruleset answers within tens of milliseconds). Returns the exit
/// code: 0 after `shutdown` and `exit`, 1 for an `exit` without `shutdown` or input that ends
/// first.
public enum LanguageServerLoop {
    public static func run(
        input: FileHandle, output: FileHandle, delay: DiagnosticsDelay = DiagnosticsDelay(),
        explain: @escaping @Sendable (String) -> String? = { _ in nil }
    ) -> Int32 {
        let queue = DispatchQueue(label: "rules.lsp")
        let done = DispatchSemaphore(value: 0)
        let server = LanguageServer(send: { bytes in output.write(Data(bytes)) }, explain: explain)
        let state = LoopState(delay: delay)
        @Sendable func handle(_ body: [UInt8]) {
            server.receive(body)
            if server.exitCode != nil {
                done.signal()
                return
            }
            // Lenses live the scenarios: off the queue, the result handed back to it.
            if let work = server.lensWork() {
                DispatchQueue.global().async {
                    let result = work()
                    queue.async { if server.exitCode == nil { server.lensesComputed(result) } }
                }
            }
            guard server.diagnosticsDue else { return }
            state.pending?.cancel()
            let work = DispatchWorkItem {
                guard server.diagnosticsDue, server.exitCode == nil else { return }
                let start = DispatchTime.now().uptimeNanoseconds
                server.publishDiagnostics()
                state.delay.checked(taking: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            state.pending = work
            queue.asyncAfter(deadline: .now() + state.delay.seconds, execute: work)
        }
        let reader = Thread {
            var framer = MessageFramer()
            while true {
                // What is there now (a read of a fixed count would wait for all of it).
                let data = input.availableData
                guard !data.isEmpty else { break }
                for message in framer.append(data) {
                    switch message {
                    case .success(let body): queue.async { handle(body) }
                    case .failure(let problem): queue.async { server.problem(problem) }
                    }
                }
            }
            queue.async { done.signal() }
        }
        reader.start()
        done.wait()
        return queue.sync { server.exitCode ?? 1 }
    }

    /// The pending diagnostics run and the delay before the next, touched only on the loop's
    /// queue.
    final class LoopState: @unchecked Sendable {
        var pending: DispatchWorkItem?
        var delay: DiagnosticsDelay
        init(delay: DiagnosticsDelay) { self.delay = delay }
    }
}
