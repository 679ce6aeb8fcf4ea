import Testing

@testable import RulesCLI

/// Usage lines are written from each command's declarations: every option once, in the
/// order declared, those that go with another inside its brackets and exclusive ones on the
/// other side of a `|`.
@Suite struct UsageTests {
    @Test func everyOptionIsWrittenOnceInItsCommandsUsage() {
        #expect(RulesCLI.commands.count >= 15)
        for command in RulesCLI.commands {
            let line = command.usage.split(separator: "\n").first.map(String.init) ?? ""
            #expect(line.hasPrefix("rules \(command.name)"), "\(command.name): \(line)")
            for option in command.options {
                let count = line.components(separatedBy: option.name + " ").count + line.components(separatedBy: option.name + "]").count - 2
                #expect(count == 1, "\(command.name): \(option.name) written \(count) times in \(line)")
            }
        }
    }

    @Test func groupsAlternativesAndRequiredOptionsAreWrittenFromTheirDeclarations() {
        func usage(_ name: String) -> String { RulesCLI.commands.first { $0.name == name }?.usage ?? "" }
        #expect(usage("test").contains("[--update [--dry-run]] [--coverage [--min-coverage N] [--format text|json]]"))
        #expect(usage("diff").contains("[--population POP [--users N] [--days N] [--seed S] [--jobs N] | --no-population]"))
        #expect(usage("bundle").hasPrefix("rules bundle [DIR] --out FILE [--sign KEY…]"))
        #expect(usage("explain").hasPrefix("rules explain SCENARIO --at HH:MM [--decision route|risk|notification ID|template ID|tool|day]"))
        #expect(usage("population").contains("\n       rules population merge FILE…"))
    }
}
