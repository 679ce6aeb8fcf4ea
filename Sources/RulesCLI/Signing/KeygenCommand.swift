import Foundation
import Ruleset

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `rules keygen --out DIR`: a new Ed25519 key pair for signing bundles.
enum KeygenCommand {
    static var command: Command {
        Command(
            name: "keygen",
            abstract: "Make an Ed25519 key pair for signing ruleset bundles.",
            discussion: """
                Writes DIR/<key id>.key (the private key, readable by you alone: mode 0600) and
                DIR/<key id>.pub (the public key the app trusts). The key id is the first 8 bytes of the
                SHA-256 of the public key, in hex. Never overwrites a file; keep the private key out of
                the repository (a CI secret), and ship the public key in the app.
                """,

            options: Options.self,
            run: run)
    }

    /// The options as given.
    struct Options: CommandOptions {
        var positional: [String] = []
        var out: String?

        static var fields: [OptionField<Self>] {
            [
                .option(
                    \.out,
                    OptionSpec(name: "--out", valueName: "DIR", help: "The directory to write the key pair into (made if missing).", required: true))
            ]
        }
    }

    static func run(_ given: Options, _ io: CommandIO) -> ExitCode {
        guard let out = given.out, given.positional.isEmpty else {
            return RulesCLI.usageError("keygen needs --out DIR and nothing else", usage: command.usage, helpName: "keygen", io: io)
        }
        let directory = io.resolve(out)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            io.fail(.cannotMakeDirectory(out, reason: nil))
            return .usage
        }
        guard let pair = Ed25519Signer.generate() else {
            io.fail(.noEd25519)
            return .failure
        }
        let id = TrustedKeys.keyID(pair.publicKey)
        let privatePath = (directory as NSString).appendingPathComponent(id + ".key")
        let publicPath = (directory as NSString).appendingPathComponent(id + ".pub")
        guard !FileManager.default.fileExists(atPath: privatePath), !FileManager.default.fileExists(atPath: publicPath) else {
            io.fail(.keysExist(id: id, directory: out))
            return .usage
        }
        // Both files or neither: a key pair half written (a full disk) leaves nothing behind.
        if let failure = createExclusive(privatePath, SigningKeyFile.text(kind: "ed25519-private", keyID: id, key: pair.seed), mode: 0o600) {
            io.fail(.cannotWritePrivateKey(directory: out, reason: "\(failure)"))
            return .usage
        }
        if let failure = createExclusive(publicPath, SigningKeyFile.text(kind: "ed25519-public", keyID: id, key: pair.publicKey), mode: 0o644) {
            unlink(privatePath)
            io.fail(.cannotWritePublicKey(directory: out, reason: "\(failure)"))
            return .usage
        }
        io.out(
            "wrote \((out as NSString).appendingPathComponent(id + ".key")) (private, mode 0600) and \((out as NSString).appendingPathComponent(id + ".pub"))\n"
        )
        io.out("key id \(id)\n")
        if let warning = GitWorkTree.unignoredWarning(privatePath) { io.err("warning: \(warning)\n") }
        return .success
    }

    /// Creates `path` with `text`, failing if anything exists there (a link included) — the
    /// private key is never written through a link or over a file. Nil when written whole;
    /// else why not (`it exists`, or the system's reason: a file begun is removed).
    static func createExclusive(_ path: String, _ text: String, mode: mode_t) -> String? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode)
        guard descriptor >= 0 else { return errno == EEXIST ? "it exists" : String(cString: strerror(errno)) }
        func failed() -> String {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            unlink(path)
            return reason
        }
        // The mode asked for, whatever the umask.
        guard fchmod(descriptor, mode) == 0 else { return failed() }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { buffer in write(descriptor, buffer.baseAddress, buffer.count) }
        guard written == bytes.count else {
            if written >= 0 { errno = ENOSPC }
            return failed()
        }
        guard fsync(descriptor) == 0 else { return failed() }
        guard close(descriptor) == 0 else {
            unlink(path)
            return String(cString: strerror(errno))
        }
        return nil
    }
}
