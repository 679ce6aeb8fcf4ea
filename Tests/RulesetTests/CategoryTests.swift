import Foundation
import RulesDiagnostics
import Ruleset
import RulesetFiles
import TestSupport
import Testing

/// A designer-defined routine category: refused with the fix until declared, then used with
/// the sensitivity it is declared with.
@Suite struct CategoryTests {
    static let root = Fixtures.repositoryRoot()

    func load(stretching category: String, declaration: String?, lockScreenText: String? = nil) throws -> RulesetLoad {
        let directory = try Fixtures.copyOfShipped()
        var files = [
            "routines/stretching.yaml":
                "id: stretching\nname: 스트레칭\ncategory: \(category)\nsource: manual\nunit: minutes\ngoal: 10\ndefault_enabled: false\n"
        ]
        if let declaration { files["rules/categories.yaml"] = declaration }
        if let lockScreenText {
            files["templates/stretch.yaml"] =
                "templates:\n  - id: stretch_note\n    surface: lock_screen\n    text: \"\(lockScreenText)\"\nnotifications:\n  - { id: stretch, category: stretch, at: \"19:00\", template: stretch_note }\n"
        }
        try Fixtures.write(files, to: directory)
        return Ruleset.load(directory: directory)
    }

    @Test func anUndeclaredCategoryIsRefusedWithTheDeclarationToWrite() throws {
        let load = try load(stretching: "stretching", declaration: nil)
        #expect(load.ruleset == nil)
        let error = try #require(load.diagnostics.first { $0.code == "ruleset.unknown_value" })
        #expect(error.file == "routines/stretching.yaml")
        #expect(error.location.line == 3)
        #expect(error.message == "'stretching' is not a valid routine category")
        #expect(error.hint?.contains("categories: [{ id: stretching, sensitive: false }]") == true)
    }

    @Test func aDeclaredCategoryLoadsWithItsSensitivity() throws {
        let plain = try load(stretching: "stretching", declaration: "categories:\n  - { id: stretching, sensitive: false }\n")
        let ruleset = try #require(plain.ruleset, "\(plain.diagnostics)")
        #expect(ruleset.categories.map(\.id) == ["stretching"])
        let routine = try #require(ruleset.routines.first { $0.id == "stretching" })
        #expect(routine.category.rawValue == "stretching")
        #expect(!routine.sensitive)

        let sensitive = try load(stretching: "therapy", declaration: "categories:\n  - { id: therapy, sensitive: true, description: 상담 }\n")
        #expect(try #require(sensitive.ruleset).routines.first { $0.id == "stretching" }?.sensitive == true)
    }

    @Test func aSensitiveDeclaredCategoryNeverReachesTheLockScreen() throws {
        let text = "스트레칭 {routines.stretching.value}분 했어"
        let plain = try load(stretching: "stretching", declaration: "categories: [{ id: stretching, sensitive: false }]\n", lockScreenText: text)
        #expect(plain.ruleset != nil, "\(plain.diagnostics)")
        let sensitive = try load(stretching: "therapy", declaration: "categories: [{ id: therapy, sensitive: true }]\n", lockScreenText: text)
        #expect(sensitive.ruleset == nil, "\(sensitive.diagnostics.map { "\($0.file) \($0.code) \($0.message)" })")
        #expect(sensitive.diagnostics.contains { $0.severity == .error && $0.file == "templates/stretch.yaml" && $0.code == "lint.sensitive_leak" })
    }

    @Test func aDeclarationNeedsItsSensitivityAndCannotRedefineABuiltIn() throws {
        let missing = try load(stretching: "stretching", declaration: "categories: [{ id: stretching }]\n")
        #expect(missing.diagnostics.contains { $0.code == "ruleset.missing_key" && $0.message.contains("sensitive") })
        let builtIn = try load(
            stretching: "stretching", declaration: "categories: [{ id: stretching, sensitive: false }, { id: sleep, sensitive: false }]\n")
        #expect(builtIn.diagnostics.contains { $0.code == "ruleset.duplicate_id" && $0.message == "'sleep' is a built-in category" })
        #expect(builtIn.ruleset == nil)
    }
}
