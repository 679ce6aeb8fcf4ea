// swift-tools-version:6.0
// Operator rules: the rule engine behind the 갓생 operator app.
// Arrows point down the target list only (see STYLE.md); the app links `OperatorRules`,
// whose closure must never contain RulesYAML or CLibYAML.
import PackageDescription

let package = Package(
    name: "OperatorRules",
    products: [
        .library(name: "OperatorRules", targets: ["RulesDiagnostics", "RulesDocument"]),
        .executable(name: "rules", targets: ["rules"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .target(name: "RulesDiagnostics"),
        .target(name: "RulesDocument", dependencies: ["RulesDiagnostics"]),
        .target(name: "RulesYAML", dependencies: ["RulesDocument", "RulesDiagnostics", "CLibYAML"]),
        .target(name: "RulesCLI", dependencies: ["RulesDiagnostics", "RulesDocument", "RulesYAML"]),
        .executableTarget(name: "rules", dependencies: ["RulesCLI"]),
        .target(name: "TestSupport", dependencies: ["RulesDiagnostics", "RulesCLI"]),
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["RulesYAML", "RulesDocument", "CLibYAML"],
            path: "Benchmarks"
        ),
        .executableTarget(name: "FuzzYAML", dependencies: ["RulesYAML"]),
        .testTarget(name: "RulesDiagnosticsTests", dependencies: ["RulesDiagnostics", "TestSupport"]),
        .testTarget(name: "RulesYAMLTests", dependencies: ["RulesYAML", "RulesDocument", "TestSupport"]),
        .testTarget(name: "RulesCLITests", dependencies: ["RulesCLI", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
