import Foundation
import RulesSimulator
import RulesetFiles

/// One round of `rules watch`: check, test and simulate — or, when the rules do not check,
/// the check's errors once, and a report page that says so. While the rules are broken the
/// page shows the errors above the last good day, and its badge says "errors", never "live".
struct WatchRound {
    let scenario: String?
    let html: String?
    let rulesetPath: String
    let directory: String
    /// The last report of a day that simulated (without the reload script).
    var lastGood: String?
    /// The page as the watch last showed it, without the reload script: what stays when the
    /// watch ends.
    var shown: String?

    init(scenario: String?, html: String?, rulesetPath: String, directory: String) {
        self.scenario = scenario
        self.html = html
        self.rulesetPath = rulesetPath
        self.directory = directory
    }

    mutating func run(_ io: CommandIO) {
        let ruleset = ["--ruleset", rulesetPath]
        io.out("rules check\n")
        var checked = ""
        var capture = io
        capture.out = { text in
            checked += text
            io.out(text)
        }
        guard RulesCLI.run(arguments: ["check", rulesetPath], io: capture) == .success else {
            // Test and simulate would only say the same errors again.
            io.out("rules test, rules simulate: skipped until the rules check\n")
            show(errors: checked, io)
            return
        }
        if FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent("scenarios")) {
            io.out("rules test\n")
            let scenarios = rulesetPath == "." ? "scenarios" : (rulesetPath as NSString).appendingPathComponent("scenarios")
            _ = RulesCLI.run(arguments: ["test", scenarios] + ruleset, io: io)
        }
        guard let scenario else { return }
        guard html != nil else {
            io.out("rules simulate \(scenario)\n")
            _ = RulesCLI.run(arguments: ["simulate", scenario] + ruleset, io: io)
            return
        }
        var page = ""
        var problems = ""
        var simulate = io
        simulate.out = { page += $0 }
        simulate.err = { problems += $0 }
        guard RulesCLI.run(arguments: ["simulate", scenario, "--format", "html"] + ruleset, io: simulate) == .success else {
            io.out("rules simulate \(scenario): the scenario does not simulate\n" + problems)
            show(errors: problems.isEmpty ? page : problems, io)
            return
        }
        lastGood = page
        write(page, reload: Self.withReload(page, badge: "rules watch: live"), io)
    }

    /// The errors on the page, above the last good day (or alone).
    mutating func show(errors: String, _ io: CommandIO) {
        guard html != nil else { return }
        let page = Self.withErrors(errors, above: lastGood)
        write(page, reload: Self.withReload(page, badge: "rules watch: errors — fix them and save"), io)
    }

    mutating func write(_ page: String, reload: String, _ io: CommandIO) {
        guard let html else { return }
        let inputs = (scenario.map { [$0] } ?? []) + RulesetDirectory.files(in: directory, folders: RulesetDirectory.rulesetFolders).map(\.path)
        guard io.writeAtomically(reload, to: html, inputs: inputs) else { return }
        shown = page
        io.out("report: \(html) (reloads itself while the watch runs)\n")
    }

    /// `errors` (a terminal's text, colours stripped) as a banner at the top of `page`, or as a
    /// page of its own.
    static func withErrors(_ errors: String, above page: String?) -> String {
        let plain = errors.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        let banner = """
            <section id="rules-watch-errors" style="margin:0 0 16px;padding:10px 12px;border-radius:10px;background:#fdecea;color:#5f1412;border:1px solid #f5c2c0">
            <h2 style="margin:0 0 6px;font-size:16px">The rules do not check\(page == nil ? "" : ": below is the last day that simulated")</h2>
            <pre style="margin:0;white-space:pre-wrap;overflow-wrap:anywhere;font:12px/1.4 ui-monospace,monospace">\(HTMLReport.escape(plain))</pre>
            </section>

            """
        guard let page, let body = page.range(of: "<body[^>]*>", options: .regularExpression) else {
            return """
                <!DOCTYPE html>
                <html lang="ko"><head><meta charset="utf-8"/><meta name="viewport" content="width=device-width, initial-scale=1"/><title>rules watch: errors</title></head>
                <body style="font:15px/1.45 sans-serif;margin:0;padding:16px">
                \(banner)</body></html>

                """
        }
        return page.replacingCharacters(in: body.upperBound..<body.upperBound, with: "\n" + banner)
    }

    /// `page` with a badge and a script that reloads it every 1.5 s, keeping the scroll position.
    static func withReload(_ page: String, badge: String) -> String {
        let script = """
            <div id="rules-watch" style="position:fixed;right:8px;bottom:8px;padding:2px 8px;border-radius:4px;background:#222;color:#fff;font:12px sans-serif;opacity:.7">\(HTMLReport.escape(badge))</div>
            <script>
            (function () {
              var key = "rules-watch-scroll:" + location.pathname;
              var y = sessionStorage.getItem(key);
              if (y !== null) { window.scrollTo(0, Number(y)); }
              setTimeout(function () { sessionStorage.setItem(key, String(window.scrollY)); location.reload(); }, 1500);
            })();
            </script>

            """
        guard let end = page.range(of: "</body>", options: .backwards) else { return page + script }
        return page.replacingCharacters(in: end.lowerBound..<end.lowerBound, with: script)
    }
}
