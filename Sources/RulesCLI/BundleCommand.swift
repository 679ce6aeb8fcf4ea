import Foundation
import RulesDiagnostics
import RulesExpression
import Ruleset
import RulesetFiles

/// `rules bundle [DIR] --out FILE`: the checked ruleset as one canonical JSON bundle.
enum BundleCommand {
    static var command: Command {
        Command(
            name: "bundle",
            abstract: "Write the checked ruleset as one canonical JSON bundle for the app, signed for release.",
            discussion: """
                Runs every check first and refuses to bundle a ruleset with errors. The bundle is
                byte-identical for the same ruleset whatever its YAML spelling (flow or block style,
                quoting, comments), carries a SHA-256 of its content, and loads with Foundation alone.
                The app accepts only a signed release: --sign KEY (a `rules keygen` private key; give
                two during a key rotation) with --sequence N, greater than every release before it.
                A rollback is the old content signed again with a higher sequence.
                """,
            usageArguments: "[DIR]",
            arguments: [("DIR", "The ruleset directory (default: .).")],
            options: [
                OptionSpec(name: "--out", valueName: "FILE", help: "Where to write the bundle (- for standard output).", required: true),
                OptionSpec(name: "--sign", valueName: "KEY", help: "A private key file to sign with (repeatable).", repeatable: true),
                OptionSpec(name: "--sequence", valueName: "N", help: "The release's number: above every earlier release's."),
                OptionSpec(name: "--channel", valueName: "NAME", help: "The channel it is for (default: stable)."),
                OptionSpec(name: "--expires", valueName: "DATE", help: "Its last day (UTC), YYYY-MM-DD.", usageValue: "YYYY-MM-DD"),
                OptionSpec(name: "--rollout", valueName: "P", help: "The share of installs it applies to, in percent (default: 100)."),
            ],
            run: run)
    }

    /// Why every store would refuse a bundle signed by `keys` with `release`, made at `now`:
    /// more signatures than a store reads, a key named twice, or an expiry already past.
    static func refusedByEveryStore(keys: [String], release: BundleRelease?, now: Date) -> String? {
        if keys.count > BundleEnvelope.maxSignatures {
            return "\(keys.count) signatures: a store reads at most \(BundleEnvelope.maxSignatures), so every store would refuse this bundle"
        }
        if let twice = keys.enumerated().first(where: { keys[..<$0.offset].contains($0.element) })?.element {
            return "--sign names key \(twice) twice: give each key once"
        }
        if let expires = release?.expires, now.timeIntervalSince1970 >= Double(expires + 1) * 86_400 {
            return
                "--expires \(DateFormat.string(expires)) is already past (a bundle expires at the end of its day, UTC): every store would refuse it"
        }
        return nil
    }

    static func run(_ arguments: ParsedArguments, _ io: CommandIO) -> ExitCode {
        guard let out = arguments.value("--out") else {
            return RulesCLI.usageError("bundle needs --out FILE", usage: command.usage, helpName: "bundle", io: io)
        }
        guard arguments.positional.count <= 1 else {
            return RulesCLI.usageError("bundle takes one directory", usage: command.usage, helpName: "bundle", io: io)
        }
        let release: BundleRelease?
        switch BundleSigning.release(arguments) {
        case .success(let read): release = read
        case .failure(let problem): return RulesCLI.usageError(problem.message, usage: command.usage, helpName: "bundle", io: io)
        }
        let keys: [(id: String, seed: [UInt8])]
        switch BundleSigning.signingKeys(arguments.values["--sign"] ?? [], io) {
        case .success(let read): keys = read
        case .failure(let problem): return RulesCLI.usageError(problem.message, usage: command.usage, helpName: "bundle", io: io)
        }
        if let refusal = refusedByEveryStore(keys: keys.map(\.id), release: release, now: Date()) {
            io.fail(.refusedByEveryStore(refusal))
            return .usage
        }
        let path = arguments.positional.first ?? "."
        let directory = io.resolve(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            io.fail(.noRulesetDirectory(path))
            return .usage
        }
        let prefix = path == "." ? "" : path
        let files = RulesetDirectory.files(in: directory, folders: RulesetDirectory.rulesetFolders, prefix: "")
        let (documents, yamlDiagnostics, _) = RulesetDirectory.read(files)
        let load = Ruleset.load(directory: directory, displayPrefix: prefix)
        guard !load.hasErrors, yamlDiagnostics.isEmpty else {
            io.fail(.rulesetHasErrorsNothingBundled)
            io.err(TextRenderer(color: false).render(load.diagnostics.filter { $0.severity == .error }, sources: load.sources))
            return .failure
        }
        guard let bundle = signed(documents, release: release, keys: keys) else {
            io.fail(.signingFailed)
            return .failure
        }
        if out == "-" {
            io.out(bundle)
            return .success
        }
        guard io.writeAtomically(bundle, to: out, inputs: files.map(\.path)) else { return .usage }
        let signed = keys.isEmpty ? "unsigned: the app refuses it" : "signed by \(keys.map(\.id).joined(separator: ", "))"
        io.out(
            "wrote \(out) (\(bundle.utf8.count) bytes, \(documents.count) documents; \(release.map(BundleSigning.describe) ?? "no release"); \(signed))\n"
        )
        return .success
    }

    /// The bundle of `documents` signed with every key; nil when a signature could not be made.
    static func signed(_ documents: [RuleDocument], release: BundleRelease?, keys: [(id: String, seed: [UInt8])]) -> String? {
        var unsigned = false
        let bundle = RulesetBundle.make(documents, release: release) { message in
            keys.compactMap { key in
                guard let signature = Ed25519Signer.sign(message, seed: key.seed) else {
                    unsigned = true
                    return nil
                }
                return BundleSignature(keyID: key.id, signature: signature)
            }
        }
        return unsigned ? nil : bundle
    }
}
