import Foundation
import RulesDiagnostics
import RulesExpression
import Ruleset

/// `rules verify BUNDLE --trust PUB…`: checks a bundle as the app would.
enum VerifyCommand {
    static var command: Command {
        Command(
            name: "verify",
            abstract: "Check a bundle as the app would: trusted signature, channel, sequence, expiry, then the full load.",
            discussion: """
                Exits 0 when the app would accept the bundle, 1 with the reason when it would refuse it
                (bundle.unsigned, bundle.untrusted_key, bundle.bad_signature, bundle.wrong_channel,
                bundle.replayed, bundle.expired, bundle.hash_mismatch, or a rule error), 2 on usage errors.
                """,
            usageArguments: "BUNDLE",
            arguments: [("BUNDLE", "The bundle file.")],
            options: Options.self,
            run: run)
    }

    /// The options as given.
    struct Options: CommandOptions {
        var positional: [String] = []
        var trust: [String] = []
        var channel = "stable"
        var after = 0
        /// The day to check expiry on (days since 1970), today unless given.
        var at: Int?
        var install: String?

        static var fields: [OptionField<Self>] {
            [
                .repeated(
                    \.trust, OptionSpec(name: "--trust", valueName: "PUB", help: "A public key file the app trusts (repeatable).", required: true)),
                .option(\.channel, OptionSpec(name: "--channel", valueName: "NAME", help: "The app's channel (default: stable).")),
                .option(
                    \.after, OptionSpec(name: "--after", valueName: "N", help: "The last sequence the app accepted (default: 0)."),
                    as: BundleSigning.lastSequence),
                .option(
                    \.at,
                    OptionSpec(name: "--at", valueName: "DATE", help: "The day to check expiry on (default: today, UTC).", usageValue: "YYYY-MM-DD"),
                    as: { text throws(UsageError) in
                        guard let day = DateFormat.days(text), DateFormat.string(day) == text else {
                            throw UsageError(message: "--at '\(text)' is not a date YYYY-MM-DD")
                        }
                        return day
                    }),
                .option(\.install, OptionSpec(name: "--install", valueName: "ID", help: "An install id: also check it falls in the rollout.")),
            ]
        }
    }

    static func run(_ given: Options, _ io: CommandIO) -> ExitCode {
        func usage(_ message: String) -> ExitCode { RulesCLI.usageError(message, usage: command.usage, helpName: "verify", io: io) }
        guard given.positional.count == 1, let path = given.positional.first else { return usage("verify takes one bundle file") }
        let keys: TrustedKeys
        switch BundleSigning.trustedKeys(given.trust, io) {
        case .success(let read): keys = read
        case .failure(let problem): return usage(problem.message)
        }
        guard !keys.ids.isEmpty else { return usage("verify needs --trust PUB (a public key file)") }
        var trust = BundleTrust(keys: keys, channel: given.channel, now: Date(), installID: given.install)
        trust.lastSequence = given.after
        if let day = given.at { trust.now = Date(timeIntervalSince1970: Double(day) * 86_400) }
        let data: Data
        switch BundleSigning.readBundle(io.resolve(path)) {
        case .success(let read): data = read
        case .failure(let failure):
            io.fail(.unreadable(file: path, reason: failure.description))
            return .usage
        }
        let load = Ruleset.load(bundle: data, trust: trust)
        let problems = load.diagnostics.map { diagnostic in
            var copy = diagnostic
            if copy.file == "bundle" { copy.file = path }
            return copy
        }
        if let release = load.release, load.ruleset != nil, !problems.contains(where: { $0.severity == .error }) {
            io.out("\(path): accepted — signed by \(load.verifiedKeys.joined(separator: ", ")); \(BundleSigning.describe(release))\n")
            if !problems.isEmpty { io.out(TextRenderer(color: false).render(problems, sources: [:])) }
            return .success
        }
        io.out(TextRenderer(color: io.useColor).render(problems, sources: [:]))
        return .failure
    }
}
