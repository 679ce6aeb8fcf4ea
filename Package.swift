// swift-tools-version:6.0
// Operator rules: the rule engine behind the 갓생 operator app.
// Arrows point down the target list only (see STYLE.md); the app links `OperatorRules`,
// whose closure must never contain RulesYAML or CLibYAML (CSodium, libsodium, on Linux only).
import PackageDescription

let package = Package(
    name: "OperatorRules",
    products: [
        .library(name: "OperatorRules", targets: ["RulesDiagnostics", "RulesDocument", "RulesExpression", "Ruleset", "RulesEngine"]),
        .executable(name: "rules", targets: ["rules"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // Ed25519 on Linux (bundle signatures); Apple platforms use CryptoKit.
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        .target(name: "RulesDiagnostics"),
        .target(name: "RulesDocument", dependencies: ["RulesDiagnostics"]),
        .target(name: "RulesYAML", dependencies: ["RulesDocument", "RulesDiagnostics", "CLibYAML"]),
        .target(name: "RulesExpression", dependencies: ["RulesDiagnostics"]),
        .target(
            name: "Ruleset",
            dependencies: ["RulesDiagnostics", "RulesDocument", "RulesExpression", .target(name: "CSodium", condition: .when(platforms: [.linux]))]),
        .target(name: "RulesEngine", dependencies: ["Ruleset", "RulesExpression", "RulesDiagnostics", "RulesDocument"]),
        // The simulator in rooms, each a sentence (docs/ARCHITECTURE.md):
        // scenarios lived on the device model, their expectations, traces and reports;
        .target(name: "RulesSimulator", dependencies: ["RulesEngine", "Ruleset", "RulesExpression", "RulesDiagnostics", "RulesDocument"]),
        // what a change of ruleset does: the behaviour diff, the reach of a change, boundary days;
        .target(
            name: "RulesChangeImpact",
            dependencies: ["RulesSimulator", "RulesEngine", "Ruleset", "RulesExpression", "RulesDiagnostics", "RulesDocument"]),
        // populations of synthetic users: the model, its runs, tallies, reports, verdicts;
        .target(
            name: "RulesPopulation",
            dependencies: ["RulesSimulator", "RulesEngine", "Ruleset", "RulesExpression", "RulesDiagnostics", "RulesDocument"]),
        // `rules tune`: knobs, questions and the search over candidates on one population;
        .target(
            name: "RulesTune",
            dependencies: ["RulesPopulation", "RulesSimulator", "RulesEngine", "Ruleset", "RulesExpression", "RulesDiagnostics", "RulesDocument"]),
        // `rules population fit`: telemetry read, users grouped, the population file written and checked.
        .target(
            name: "RulesFit",
            dependencies: [
                "RulesTune", "RulesPopulation", "RulesSimulator", "RulesEngine", "Ruleset", "RulesExpression", "RulesDiagnostics", "RulesDocument",
            ]),
        // Directory loading through libyaml: for the CLI and tests, never linked by the app.
        .target(name: "RulesetFiles", dependencies: ["Ruleset", "RulesYAML", "RulesDocument", "RulesDiagnostics"]),
        // `rules lsp`: the language server (protocol state, framing, transport), no terminal.
        .target(
            name: "RulesLanguageServer",
            dependencies: [
                "RulesDiagnostics", "RulesDocument", "RulesYAML", "RulesExpression", "Ruleset", "RulesetFiles", "RulesEngine", "RulesSimulator",
                "RulesPopulation",
            ]),
        .target(
            name: "RulesCLI",
            dependencies: [
                "RulesDiagnostics", "RulesDocument", "RulesYAML", "RulesExpression", "Ruleset", "RulesetFiles", "RulesEngine",
                "RulesSimulator", "RulesChangeImpact", "RulesPopulation", "RulesTune", "RulesFit", "RulesLanguageServer",
                .target(name: "CSodium", condition: .when(platforms: [.linux])),
            ]),
        .executableTarget(name: "rules", dependencies: ["RulesCLI"]),
        // Golden files and fixtures for every test target; running `rules` in-process only for
        // the tests of the targets above the CLI (the lower targets' tests do not build it).
        .target(name: "TestSupport", dependencies: []),
        .target(name: "ShippedRuleset", dependencies: ["Ruleset", "RulesetFiles", "TestSupport"]),
        .target(name: "CLITestSupport", dependencies: ["RulesCLI"]),
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                "RulesYAML", "RulesDocument", "RulesExpression", "Ruleset", "RulesetFiles", "RulesEngine", "RulesSimulator", "RulesPopulation",
                "CLibYAML",
                "RulesCLI", "RulesLanguageServer",
            ],
            path: "Benchmarks"
        ),
        // What an iOS app links: Ruleset and RulesEngine only (checked in .ci/run).
        .executableTarget(name: "EmbeddingExample", dependencies: ["Ruleset", "RulesEngine"], path: "Examples/EmbeddingExample"),
        .executableTarget(name: "FuzzYAML", dependencies: ["RulesYAML"]),
        .executableTarget(name: "FuzzExpression", dependencies: ["RulesExpression"]),
        .executableTarget(name: "FuzzToolCall", dependencies: ["RulesEngine", "Ruleset", "RulesetFiles"]),
        .executableTarget(name: "FuzzPopulation", dependencies: ["RulesPopulation", "RulesYAML", "RulesDocument", "Ruleset", "RulesetFiles"]),
        .executableTarget(name: "FuzzMerge", dependencies: ["RulesDocument", "RulesPopulation"]),
        .executableTarget(name: "FuzzBundle", dependencies: ["Ruleset"]),
        .executableTarget(
            name: "FuzzTelemetry", dependencies: ["RulesDocument", "RulesFit", "RulesPopulation", "RulesYAML", "Ruleset", "RulesetFiles"]),
        .executableTarget(
            name: "FuzzTune", dependencies: ["RulesDiagnostics", "RulesPopulation", "RulesTune", "RulesYAML", "Ruleset", "RulesetFiles"]),
        .executableTarget(
            name: "FuzzEngine",
            dependencies: [
                "RulesDocument", "RulesEngine", "RulesExpression", "RulesSimulator", "RulesYAML", "Ruleset", "RulesetFiles", "TestSupport",
            ]),
        .testTarget(
            name: "RulesDiagnosticsTests", dependencies: ["RulesDiagnostics", "TestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "RulesYAMLTests", dependencies: ["RulesYAML", "RulesDocument", "RulesExpression", "RulesDiagnostics", "TestSupport"]),
        .testTarget(name: "RulesExpressionTests", dependencies: ["RulesExpression", "RulesDiagnostics", "TestSupport"]),
        .testTarget(
            name: "RulesetTests", dependencies: ["Ruleset", "RulesetFiles", "RulesExpression", "RulesDocument", "RulesDiagnostics", "TestSupport"]),
        .testTarget(
            name: "RulesEngineTests",
            // No simulator: the engine's tests build their days from Swift values.
            dependencies: [
                "RulesEngine", "Ruleset", "RulesetFiles", "RulesYAML", "RulesExpression", "RulesDocument", "RulesDiagnostics", "TestSupport",
                "ShippedRuleset",
            ],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "RulesLanguageServerTests",
            dependencies: ["RulesLanguageServer", "RulesDiagnostics", "RulesDocument", "TestSupport"]),
        .testTarget(
            name: "RulesSimulatorTests",
            dependencies: [
                "RulesSimulator", "RulesPopulation", "RulesTune", "RulesFit", "RulesEngine", "RulesExpression", "RulesDocument", "TestSupport",
                "RulesDiagnostics", "Ruleset", "RulesetFiles", "RulesYAML", "ShippedRuleset",
            ],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "RulesCLITests",
            dependencies: [
                "RulesCLI", "RulesDiagnostics", "RulesDocument", "RulesExpression", "Ruleset", "RulesetFiles", "RulesSimulator", "RulesChangeImpact",
                "RulesPopulation", "RulesFit", "RulesYAML",
                "RulesEngine", "TestSupport", "CLITestSupport",
            ],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
