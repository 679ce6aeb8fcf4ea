// libFuzzer entry point for bundle bytes, as the app's store receives them: any bytes are
// loaded trusting one key (RFC 8032's first test key, whose bundles seed the corpus) — never
// a trap, and never accepted unless a seed signed by that key is what was offered (a
// fuzzer cannot forge a signature: accepting anything else means the checks are broken).
// The unsigned load (`rules check`'s) runs on the same bytes. Run with Fuzz/run.sh FuzzBundle.
import Foundation
import Ruleset

/// RFC 8032 §7.1 TEST 1's public key: the seeds are signed with its secret.
let trustedKey = Hex.bytes("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a") ?? []
let keys = TrustedKeys(publicKeys: [trustedKey]) ?? TrustedKeys()
/// The content hashes of the seeds (all that may ever be accepted).
let seedHashes: Set<String> = ["914754fcf591f2ee8d09e6941f78f7a5204d9caf86a417d3ce4075876c183c31"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBundle(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let trust = BundleTrust(keys: keys, channel: "stable", lastSequence: 0, now: Date(timeIntervalSince1970: 1_790_000_000), installID: "fuzz")
    let load = Ruleset.load(bundle: bytes, trust: trust)
    if load.ruleset != nil {
        // Accepted: signed by the trusted key, so its signed bytes are a seed's.
        guard load.verifiedKeys == keys.ids, case (let envelope?, _, _) = RulesetBundle.open(bytes), envelope.signatures.count >= 1 else { abort() }
        if !seedHashes.contains(envelope.sha256), ProcessInfo.processInfo.environment["FUZZ_BUNDLE_LEARN"] == nil {
            FileHandle.standardError.write(Data("accepted a bundle of content \(envelope.sha256), not a seed's\n".utf8))
            abort()
        }
    } else if load.diagnostics.isEmpty {
        abort()  // refused without saying why
    }
    let plain = Ruleset.load(bundle: bytes)
    if plain.ruleset == nil, plain.diagnostics.isEmpty { abort() }
    return 0
}
