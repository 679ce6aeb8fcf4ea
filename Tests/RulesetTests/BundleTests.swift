import Foundation
import RulesDiagnostics
import Ruleset
import RulesetFiles
import TestSupport
import Testing

@Suite struct BundleTests {
    static let root = Fixtures.repositoryRoot()

    func bundle(of directory: String) -> String {
        let files = RulesetDirectory.files(in: directory, folders: RulesetDirectory.rulesetFolders)
        return RulesetBundle.make(RulesetDirectory.read(files).documents)
    }

    /// One ruleset has one hash however its directory was given (`--ruleset ../x` names its
    /// files `../x/rules/…`): its bundle's, which is what the app's telemetry carries.
    @Test func theHashIsTheBundlesHoweverTheDirectoryIsNamed() throws {
        let plain = try #require(Ruleset.load(directory: Self.root).ruleset)
        let named = try #require(Ruleset.load(directory: Self.root, displayPrefix: "../somewhere/ruleset").ruleset)
        #expect(named.sha256 == plain.sha256)
        let bundled = try #require(Ruleset.load(bundle: Data(bundle(of: Self.root).utf8)).ruleset)
        #expect(bundled.sha256 == plain.sha256)
    }

    @Test func shippedBundleLoadsAndMatchesTheYAMLRuleset() throws {
        let text = bundle(of: Self.root)
        let load = Ruleset.load(bundle: Data(text.utf8))
        #expect(load.diagnostics.isEmpty, "\(load.diagnostics.map(\.message))")
        let fromBundle = try #require(load.ruleset)
        let fromYAML = try #require(Ruleset.load(directory: Self.root).ruleset)
        #expect(fromBundle.routines.map(\.id) == fromYAML.routines.map(\.id))
        #expect(fromBundle.templates.map(\.id) == fromYAML.templates.map(\.id))
        #expect(fromBundle.notifications.map(\.at.source) == fromYAML.notifications.map(\.at.source))
        #expect(fromBundle.routine("skincare")?.origin.file == "routines/skincare.yaml")
    }

    @Test func spellingDoesNotChangeAByte() throws {
        let block = Fixtures.temporaryDirectory()
        try Fixtures.write(
            [
                "routines/water.yaml":
                    "# a comment\nid: water\nname: 물\ncategory: water\nsource: manual\nunit: ml\ngoal: 1500\nquick_log:\n  - 250\n  - 500\n",
                "rules/route.yaml": "route:\n  - use: regular\n    when: true\n    reason: default\n",
            ], to: block)
        let flow = Fixtures.temporaryDirectory()
        try Fixtures.write(
            [
                "routines/water.yaml":
                    "{ id: 'water', name: \"물\", category: water, source: manual, unit: ml, goal: \"1500\", quick_log: [250, '500'] }\n",
                "rules/route.yaml": "route: [{ use: regular, when: 'true', reason: \"default\" }]   # flow\n",
            ], to: flow)
        #expect(bundle(of: block) == bundle(of: flow))
    }

    @Test func aTamperedBundleIsRefused() throws {
        var text = bundle(of: Self.root)
        let range = try #require(text.range(of: "\"goal\":\"1500\""))
        text.replaceSubrange(range, with: "\"goal\":\"15000\"")
        let load = Ruleset.load(bundle: Data(text.utf8))
        #expect(load.ruleset == nil)
        #expect(load.diagnostics.map(\.code) == ["bundle.hash_mismatch"])
    }

    @Test(arguments: [
        ("", "json.syntax"),
        ("[]", "bundle.malformed"),
        ("{\"format\":\"zip\"}", "bundle.malformed"),
        ("{\"format\":\"operator-rules-bundle\",\"version\":3}", "bundle.unsupported_version"),
        ("{\"format\":\"operator-rules-bundle\",\"version\":2}", "bundle.malformed"),
        ("{\"format\":\"operator-rules-bundle\",\"version\":\"1\"}", "bundle.unsupported_version"),
        ("{\"format\":\"operator-rules-bundle\",\"version\":1}", "bundle.malformed"),
        ("{\"format\":\"operator-rules-bundle\",\"version\":1,\"sha256\":\"x\",\"content\":{\"documents\":[]}", "json.syntax"),
    ])
    func malformedBundlesAreRefused(text: String, code: String) {
        let load = Ruleset.load(bundle: Data(text.utf8))
        #expect(load.ruleset == nil)
        #expect(load.diagnostics.first?.code.rawValue == code)
    }

    @Test func truncatedAndHostileBundlesAreRefused() {
        let text = bundle(of: Self.root)
        for length in [1, 10, 100, text.utf8.count / 2, text.utf8.count - 3] {
            let load = Ruleset.load(bundle: Data(text.utf8.prefix(length)))
            #expect(load.ruleset == nil, "prefix \(length)")
        }
        let deep =
            "{\"format\":\"operator-rules-bundle\",\"version\":1,\"sha256\":\"x\",\"content\":" + String(repeating: "[", count: 5000)
            + String(repeating: "]", count: 5000) + "}"
        #expect(Ruleset.load(bundle: Data(deep.utf8)).diagnostics.first?.code == "json.too_deep")
    }

    @Test func aBundleWithAWrongExpressionIsRefusedEvenWithAGoodHash() throws {
        // A hand-made bundle whose content is consistent but wrong: the expressions are
        // checked again on load, exactly as for YAML files.
        let directory = Fixtures.temporaryDirectory()
        try Fixtures.write(["rules/route.yaml": "route:\n  - use: regular\n    when: true\n"], to: directory)
        let text = bundle(of: directory).replacingOccurrences(of: "\"when\":\"true\"", with: "\"when\":\"completion_rat < 1\"")
        // Re-seal the hash the way a forger would.
        let content = text.components(separatedBy: "\"content\":").last.map { String($0.dropLast(2)) } ?? ""
        let forged = text.replacingOccurrences(of: text.components(separatedBy: "\"sha256\":\"")[1].prefix(64), with: SHA256.hex(Array(content.utf8)))
        let load = Ruleset.load(bundle: Data(forged.utf8))
        #expect(load.ruleset == nil)
        #expect(load.diagnostics.first?.code == "type.unknown_fact")
        #expect(load.diagnostics.first?.file == "rules/route.yaml")
    }

    @Test func sha256MatchesKnownVectors() {
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Array(String(repeating: "a", count: 1000).utf8)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }
}
