import Foundation
import Ruleset
import Testing

/// Lint checks are kept as the gates are: one check type a file of `Lint/Checks`, numbered in
/// the order they run, and a catalogue generated from those files (`.ci/lint-catalogue`) that
/// lists them in that order.
@Suite struct LintCatalogueTests {
    static let lint = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Ruleset/Lint")

    /// The check files, by number: `NN-TypeName.swift`.
    static func checkFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: lint.appendingPathComponent("Checks").path).filter { $0.hasSuffix(".swift") }.sorted()
    }

    @Test func everyCheckFileHoldsOneCheckTypeNamedForIt() throws {
        let files = try Self.checkFiles()
        #expect(files.count == LintCatalogue.checks.count)
        for (index, file) in files.enumerated() {
            let number = String(format: "%02d", index + 1)
            #expect(file.hasPrefix(number + "-"), "\(file): the checks are numbered 01, 02, … in the order they run")
            let type = String(file.dropFirst(number.count + 1).dropLast(".swift".count))
            let text = try String(contentsOf: Self.lint.appendingPathComponent("Checks/" + file), encoding: .utf8)
            let declarations = text.split(separator: "\n").filter { line in
                ["enum ", "struct ", "class ", "extension ", "func ", "let ", "var "].contains { line.hasPrefix($0) }
            }
            #expect(declarations == ["enum \(type): LintRule {"], "\(file) declares \(declarations): one check type, named for the file")
            #expect(text.components(separatedBy: "static let check = LintCheck(").count == 2, "\(file) defines exactly one check")
        }
    }

    @Test func theCatalogueListsTheFilesInTheirOrder() throws {
        let files = try Self.checkFiles().map { String($0.drop { $0 != "-" }.dropFirst().dropLast(".swift".count)) }
        let listed = LintCatalogue.rules.map { String(describing: $0) }
        #expect(listed == files, "run .ci/lint-catalogue: the catalogue lists \(listed)")
        #expect(LintCatalogue.checks.map(\.description.code) == LintCatalogue.rules.map { $0.check.description.code })
    }

    /// The order every user sees (`rules check`'s findings, the reference) is unchanged by
    /// the move to one file a check.
    @Test func theChecksRunInTheirDocumentedOrder() {
        #expect(
            LintCatalogue.checks.map(\.description.code.rawValue) == [
                "lint.unreachable_entry", "lint.table_fall_through", "lint.constant_condition", "lint.sensitive_leak",
                "lint.notification_surface", "lint.text_too_long", "lint.undecidable_particle", "lint.unused_template",
                "lint.forbidden_phrase", "lint.missing_line", "lint.never_fires", "lint.long_cooldown", "lint.recovery_too_long",
                "lint.non_positive", "lint.light_scale", "lint.no_toggle", "lint.status_without_enabled", "lint.sensitive_word",
                "lint.cooldown_clash", "lint.hidden_character", "lint.ambiguous_time", "lint.fraction_as_percent", "lint.stale_count",
            ])
    }
}
