import RulesetFiles

/// Every error a command says on standard error (`Error: …`) before it exits, in one
/// catalogue: a command names the case, the text is written here once.
enum CommandError {
    case noSuchPath(String)
    case noRulesetDirectory(String)
    case rulesetHasErrors(String)
    case noRuleFiles(String)
    case noScenarioFiles([String])
    case noScenario(String)
    /// A file over the limit of the inputs of its kind (`what`: "a saved engine state").
    case tooLarge(file: String, size: Int, limit: Int, what: String)
    /// A file that could not be read (missing, a directory, a device, …).
    case unreadable(file: String, reason: String)
    case stateInOtherZone(file: String, zone: String, scenarioZone: String)
    case stateDidNotEncode(String)
    case cannotUpdate(file: String, reason: String)
    case unknownCode(String, near: String?)
    case noSchema(String)
    case cannotMakeDirectory(String, reason: String?)
    case noEd25519
    case keysExist(id: String, directory: String)
    case cannotWritePrivateKey(directory: String, reason: String)
    case cannotWritePublicKey(directory: String, reason: String)
    case refusedByEveryStore(String)
    case rulesetHasErrorsNothingBundled
    case signingFailed
    case notAPopulationResult(file: String, reason: String)
    case cannotMerge(String)
    case noRuleset(String)
    case unknownNotification(String, near: String?)
    /// An output that cannot be written where it was asked (`reason`: why).
    case cannotWrite(String, reason: String)

    /// The line said on standard error.
    var line: String { "Error: \(message)\n" }

    /// The text after `Error: `.
    var message: String {
        switch self {
        case .noSuchPath(let path): "no such file or directory: \(path)"
        case .noRulesetDirectory(let path): "no ruleset directory at \(path)"
        case .rulesetHasErrors(let path): "the ruleset at \(path) has errors"
        case .noRuleFiles(let path): "no .yaml or .yml files under routines/, rules/, templates/, scenarios/ or populations/ of \(path)"
        case .noScenarioFiles(let paths): "no scenario files (.yaml) under \(paths.joined(separator: ", ")): nothing to test"
        case .noScenario(let path): "\(path) holds no scenario"
        case .tooLarge(let file, let size, let limit, let what): "\(file) is \(size) bytes, over the limit of \(limit) bytes for \(what)"
        case .unreadable(let file, let reason): "\(file): \(reason)"
        case .stateInOtherZone(let file, let zone, let scenarioZone): "\(file) is a state in \(zone); the scenario's clock is \(scenarioZone)"
        case .stateDidNotEncode(let reason): "the engine state did not encode: \(reason)"
        case .cannotUpdate(let file, let reason): "cannot update \(file): \(reason)"
        case .unknownCode(let code, let near): "unknown code '\(code)'\(near.map { "; did you mean '\($0)'?" } ?? "")"
        case .noSchema(let kind): "no schema for '\(kind)'"
        case .cannotMakeDirectory(let directory, let reason): "cannot make the directory \(directory)\(reason.map { ": \($0)" } ?? "")"
        case .noEd25519: "no Ed25519 library is available (install libsodium-dev)"
        case .keysExist(let id, let directory): "\(id).key or \(id).pub already exists in \(directory); nothing was overwritten"
        case .cannotWritePrivateKey(let directory, let reason): "cannot write the private key into \(directory): \(reason); nothing was written"
        case .cannotWritePublicKey(let directory, let reason):
            "cannot write the public key into \(directory): \(reason); the private key was removed, nothing was kept"
        case .refusedByEveryStore(let refusal): "\(refusal); nothing was bundled"
        case .rulesetHasErrorsNothingBundled: "the ruleset has errors; nothing was bundled"
        case .signingFailed: "signing failed (no Ed25519 library?); nothing was bundled"
        case .notAPopulationResult(let file, let reason): "\(file) is not a population result: \(reason)"
        case .cannotMerge(let reason): "cannot merge: \(reason)"
        case .noRuleset(let path): "no ruleset at \(path): no .yaml files under routines/, rules/ or templates/"
        case .unknownNotification(let id, let near): "no notification type '\(id)'\(near.map { "; did you mean '\($0)'?" } ?? "")"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        }
    }
}

extension CommandIO {
    /// Says `error` on standard error.
    func fail(_ error: CommandError) { err(error.line) }

    /// The bytes of `file` (resolved against the working directory), at most `limit` of
    /// them; nil after saying why not (`what` names the kind of input: "a saved engine
    /// state"). The one guarded read of an input file a command takes.
    func read(_ file: String, limit: Int, what: String) -> [UInt8]? {
        switch FileReader.contents(of: resolve(file), limit: limit) {
        case .success(let bytes): return bytes
        case .failure(.tooLarge(let size)):
            fail(.tooLarge(file: file, size: size, limit: limit, what: what))
            return nil
        case .failure(let failure):
            fail(.unreadable(file: file, reason: failure.description))
            return nil
        }
    }
}
