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
            options: Options.self,
            run: run)
    }

    /// The options as given; the release's values are checked as they are read.
    struct Options: CommandOptions {
        var positional: [String] = []
        var out: String?
        var sign: [String] = []
        var sequence: Int?
        var channel: String?
        var expires: Int?
        var rollout: Int?

        static var fields: [OptionField<Self>] {
            [
                .option(
                    \.out, OptionSpec(name: "--out", valueName: "FILE", help: "Where to write the bundle (- for standard output).", required: true)),
                .repeated(\.sign, OptionSpec(name: "--sign", valueName: "KEY", help: "A private key file to sign with (repeatable).")),
                .option(
                    \.sequence, OptionSpec(name: "--sequence", valueName: "N", help: "The release's number: above every earlier release's."),
                    as: sequence),
                .option(\.channel, OptionSpec(name: "--channel", valueName: "NAME", help: "The channel it is for (default: stable)."), as: channel),
                .option(
                    \.expires, OptionSpec(name: "--expires", valueName: "DATE", help: "Its last day (UTC), YYYY-MM-DD.", usageValue: "YYYY-MM-DD"),
                    as: expires),
                .option(
                    \.rollout, OptionSpec(name: "--rollout", valueName: "P", help: "The share of installs it applies to, in percent (default: 100)."),
                    as: rollout),
            ]
        }

        static func sequence(_ text: String) throws(UsageError) -> Int? {
            guard text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let sequence = Int(text), (1...BundleRelease.maxSequence).contains(sequence)
            else {
                throw UsageError(message: "--sequence '\(text)' is not a whole number from 1 to 2^53 − 1")
            }
            return sequence
        }

        static func channel(_ text: String) throws(UsageError) -> String? {
            guard BundleRelease.isChannel(text) else { throw UsageError(message: "--channel '\(text)' is not 1–32 of a-z, 0-9, - and _") }
            return text
        }

        static func expires(_ text: String) throws(UsageError) -> Int? {
            guard let day = DateFormat.days(text), DateFormat.string(day) == text, InputLimits.engineDays.contains(day) else {
                throw UsageError(message: "--expires '\(text)' is not a date YYYY-MM-DD (2000–2199)")
            }
            return day
        }

        static func rollout(_ text: String) throws(UsageError) -> Int? {
            guard let hundredths = BundleRelease.rollout(text.hasSuffix("%") ? text : text + "%") else {
                throw UsageError(message: "--rollout '\(text)' is not a share over 0 and at most 100 (10 or 10%, two decimals at most)")
            }
            return hundredths
        }

        /// The release (`--sequence`, `--channel`, `--expires`, `--rollout`), nil when none
        /// is given; a signature or a release value needs the sequence.
        func release() throws(UsageError) -> BundleRelease? {
            guard let sequence else {
                let given = [("--channel", channel != nil), ("--expires", expires != nil), ("--rollout", rollout != nil), ("--sign", !sign.isEmpty)]
                guard let first = given.first(where: \.1) else { return nil }
                throw UsageError(message: "\(first.0) needs --sequence N (the release's number)")
            }
            var release = BundleRelease(sequence: sequence)
            if let channel { release.channel = channel }
            release.expires = expires
            if let rollout { release.rollout = rollout }
            return release
        }
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

    static func run(_ given: Options, _ io: CommandIO) -> ExitCode {
        guard let out = given.out else {
            return RulesCLI.usageError("bundle needs --out FILE", usage: command.usage, helpName: "bundle", io: io)
        }
        guard given.positional.count <= 1 else {
            return RulesCLI.usageError("bundle takes one directory", usage: command.usage, helpName: "bundle", io: io)
        }
        let release: BundleRelease?
        do throws(UsageError) { release = try given.release() } catch {
            return RulesCLI.usageError(error.message, usage: command.usage, helpName: "bundle", io: io)
        }
        let keys: [(id: String, seed: [UInt8])]
        switch BundleSigning.signingKeys(given.sign, io) {
        case .success(let read): keys = read
        case .failure(let problem): return RulesCLI.usageError(problem.message, usage: command.usage, helpName: "bundle", io: io)
        }
        if let refusal = refusedByEveryStore(keys: keys.map(\.id), release: release, now: Date()) {
            io.fail(.refusedByEveryStore(refusal))
            return .usage
        }
        let path = given.positional.first ?? "."
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
