import Foundation
import RulesPopulation
import Testing

@testable import RulesCLI

/// Options are typed properties read from their declarations: a value of a fixed set is the
/// property's enum, numbers are read once with their range, a repeated option keeps every
/// value, and no command looks an option up by its name.
@Suite struct CommandOptionsTests {
    @Test func typedPropertiesAreSetFromTheArguments() throws {
        let arguments = try ArgumentReader.read(
            ["a.yaml", "--format", "json", "--at", "21:00", "--restore-each-event", "--ruleset", "x"], options: SimulateCommand.Options.specs)
        let options = try SimulateCommand.Options(arguments)
        #expect(options.positional == ["a.yaml"])
        #expect(options.format == .json)
        #expect(options.at == "21:00")
        #expect(options.restoreEachEvent)
        #expect(options.ruleset == "x")
        let defaults = try SimulateCommand.Options(ArgumentReader.read(["a.yaml"], options: SimulateCommand.Options.specs))
        #expect(defaults.format == .text && defaults.ruleset == "." && !defaults.restoreEachEvent && defaults.stateIn == nil)
    }

    @Test func anEnumPropertyListsItsCasesAsTheAllowedValues() throws {
        let kind = SchemaCommand.Options.specs.first { $0.name == "--kind" }
        #expect(kind?.allowed == ["routine", "rules", "scenario", "population", "telemetry"])
        #expect(ExplainCommand.Options.specs.first { $0.name == "--decision" }?.allowed == ExplainCommand.Decision.allCases.map(\.rawValue))
        // A subset named by the declaration wins over the type's cases.
        #expect(TestCommand.Options.specs.first { $0.name == "--format" }?.allowed == ["text", "json"])
        #expect(throws: UsageError.self) { try ArgumentReader.read(["--kind", "nope"], options: SchemaCommand.Options.specs) }
        let read = try SchemaCommand.Options(ArgumentReader.read(["--kind", "scenario"], options: SchemaCommand.Options.specs))
        #expect(read.kind == .scenario)
    }

    @Test func numbersAreReadWithTheirRangeAndSaidWhenOutside() throws {
        let specs = PopulationCommand.Options.specs
        let read = try PopulationCommand.Options(ArgumentReader.read(["p.yaml", "--users", "12", "--jobs", "3", "--shard", "2/4"], options: specs))
        #expect(read.sizes.users == 12 && read.sizes.jobs == 3 && read.sizes.days == nil)
        #expect(read.sizes.shard == Shard("2/4"))
        for (option, value) in [("--users", "0"), ("--days", "x"), ("--jobs", "257"), ("--seed", "-1")] {
            do {
                _ = try PopulationCommand.Options(ArgumentReader.read(["p.yaml", option, value], options: specs))
                Issue.record("\(option) \(value) was read")
            } catch {
                #expect(error.message.hasPrefix("\(option) takes a whole number from "), "\(error.message)")
            }
        }
    }

    @Test func aRepeatedOptionKeepsEveryValueInOrder() throws {
        let specs = DiffCommand.Options.specs
        #expect(specs.first { $0.name == "--scenarios" }?.repeatable == true)
        let read = try DiffCommand.Options(ArgumentReader.read(["a", "b", "--scenarios", "x", "--scenarios", "y"], options: specs))
        #expect(read.scenarios == ["x", "y"])
        #expect(try DiffCommand.Options(ArgumentReader.read(["a", "b"], options: specs)).scenarios == nil)
    }

    @Test func aConvertedValueSaysWhyItIsNotOne() {
        for (arguments, message) in [
            (["--interval", "0"], "--interval takes seconds from 0.05 to 60"), (["--rounds", "0"], "--rounds takes a positive whole number"),
        ] {
            do {
                _ = try WatchCommand.Options(ArgumentReader.read(arguments, options: WatchCommand.Options.specs))
                Issue.record("\(arguments) was read")
            } catch {
                #expect(error.message == message)
            }
        }
    }

    /// Options are read once, as typed properties: no command looks one up by its name.
    @Test func noCommandReadsAnOptionByName() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/RulesCLI").standardized
        let files = try #require(FileManager.default.enumerator(atPath: directory.path)).compactMap { $0 as? String }.filter {
            $0.hasSuffix(".swift")
        }
        #expect(files.count > 20)
        for file in files where !["ArgumentReader.swift", "CommandOptions.swift"].contains(file) {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for lookup in [".value(\"--", ".values[\"--", ".has(\"--", ".flags.contains(", "ParsedArguments()"] {
                #expect(!text.contains(lookup), "\(file) reads an option by name (\(lookup))")
            }
        }
    }
}
