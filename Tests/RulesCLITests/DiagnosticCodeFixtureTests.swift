import CLITestSupport
import Foundation
import RulesDiagnostics
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// One small ruleset per diagnostic code; `rules check`'s text output for each is golden
/// (`Fixtures/codes/<code>.txt`), so a change in any message, position or hint shows up.
@Suite struct DiagnosticCodeFixtureTests {
    static let water = "id: water\nname: 물\ncategory: water\nsource: manual\nunit: ml\ngoal: 1500\n"
    static let skincare = "id: skincare\nname: 스킨케어\ncategory: skincare\nsource: checklist\nunit: count\nitems: [양치, 세수]\n"

    static let cases: [(String, [String: String])] = [
        ("yaml.syntax", ["rules/route.yaml": "route:\n  - use: recovery\n    when: now >= 21:00: x\n"]),
        ("yaml.duplicate_key", ["routines/water.yaml": water + "goal: 1000\n"]),
        ("yaml.unknown_alias", ["rules/policy.yaml": "policy:\n  max_per_day: *cap\n"]),
        ("yaml.too_deep", ["rules/deep.yaml": "risk: " + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "\n"]),
        ("expr.unexpected_token", ["rules/route.yaml": "route:\n  - use: regular\n    when: (now >= 21:00\n"]),
        ("expr.expected_operand", ["rules/route.yaml": "route:\n  - use: regular\n    when: now >= 21:00 &&\n"]),
        ("expr.invalid_time", ["rules/route.yaml": "route:\n  - use: regular\n    when: now >= 25:00\n"]),
        ("expr.unknown_operator", ["rules/route.yaml": "route:\n  - use: regular\n    when: route = \"light\"\n"]),
        (
            "type.unknown_fact",
            ["rules/route.yaml": "route:\n  - use: recovery\n    when: now >= 21:00 && completion_rat < 0.6\n  - use: regular\n    when: true\n"]
        ),
        (
            "type.unknown_routine",
            ["routines/water.yaml": water, "rules/route.yaml": "route:\n  - use: light\n    when: routines.watr.progress < 0.5\n"]
        ),
        ("type.needs_default", ["rules/route.yaml": "route:\n  - use: light\n    when: sleep.minutes < 360\n"]),
        ("type.unknown_enum_case", ["rules/route.yaml": "risk:\n  - level: high\n    when: route == \"recvery\"\n"]),
        ("type.mismatch", ["rules/route.yaml": "risk:\n  - level: high\n    when: now >= 21\n"]),
        ("type.not_boolean", ["rules/route.yaml": "risk:\n  - level: high\n    when: completion_rate\n"]),
        ("ruleset.unknown_key", ["rules/route.yaml": "rsik:\n  - level: high\n    when: true\n"]),
        ("ruleset.missing_key", ["rules/route.yaml": "route:\n  - when: true\n"]),
        ("ruleset.wrong_type", ["rules/policy.yaml": "policy:\n  max_per_day: three\n"]),
        ("ruleset.out_of_range", ["rules/policy.yaml": "policy:\n  quiet_hours: { start: \"25:00\", end: \"07:00\" }\n"]),
        ("ruleset.unknown_value", ["rules/route.yaml": "sticky: [recovry]\n"]),
        ("ruleset.invalid_id", ["routines/water.yaml": water.replacingOccurrences(of: "id: water", with: "id: Water-1")]),
        ("ruleset.duplicate_id", ["routines/a.yaml": water, "routines/b.yaml": water]),
        ("ruleset.duplicate_section", ["rules/a.yaml": "light:\n  scale: 0.6\n", "rules/b.yaml": "light:\n  scale: 0.5\n"]),
        (
            "ruleset.unknown_reference",
            ["routines/skincare.yaml": skincare, "rules/recovery.yaml": "recovery:\n  items:\n    - { routine: skincare, item: 로숀 }\n"]
        ),
        ("ruleset.unsupported_version", ["rules/policy.yaml": "version: 2\npolicy:\n  max_per_day: 3\n"]),
        ("ruleset.tagged_value", ["rules/route.yaml": "route:\n  - use: regular\n    when: !settings.quiet\n"]),
        ("ruleset.anchored_value", ["rules/policy.yaml": "policy:\n  max_per_day: &cap 3\n"]),
        (
            "ruleset.invalid_template",
            [
                "templates/t.yaml":
                    "surfaces:\n  home: { sensitive: allowed }\ntemplates:\n  - id: home_x\n    surface: home\n    event: home\n    text: 오늘 {completed|thousandz}개\n"
            ]
        ),
        ("ruleset.not_a_document", ["routines/water.yaml": "just text\n"]),
        (
            "lint.sensitive_leak",
            [
                "templates/t.yaml":
                    "surfaces:\n  lock_screen: { sensitive: forbidden, fallback: 오늘 루트가 업데이트됐어. }\ntemplates:\n  - id: sleep_note\n    surface: lock_screen\n    event: home\n    text: 수면 {sleep.minutes|hm}밖에 못 잤어.\n"
            ]
        ),
    ]

    @Test(arguments: cases.map(\.0))
    func goldenOutput(code: String) throws {
        let files = try #require(Self.cases.first { $0.0 == code }?.1)
        let directory = Fixtures.temporaryDirectory()
        try Fixtures.write(files, to: directory)
        let run = CapturedRun(["check", "."], in: directory)
        #expect(run.exitCode == .failure)
        #expect(run.stdout.contains("[\(code)]"), "\(run.stdout)")
        #expect(Golden.compare(run.stdout, toFile: Fixtures.directory() + "/codes/\(code).txt") == nil)
    }

    @Test func invalidUTF8IsReportedThroughTheLoader() throws {
        let directory = Fixtures.temporaryDirectory()
        try Fixtures.write(["rules/x.yaml": "policy:\n"], to: directory)
        #expect(FileManager.default.createFile(atPath: directory + "/rules/x.yaml", contents: Data([0x61, 0x3A, 0x20, 0xFF, 0x0A])))
        let load = Ruleset.load(directory: directory)
        #expect(load.diagnostics.map(\.code) == ["yaml.invalid_utf8"])
        #expect(load.ruleset == nil)
    }
}
