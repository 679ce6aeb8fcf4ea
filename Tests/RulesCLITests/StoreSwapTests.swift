import Foundation
import Ruleset
import TestSupport
import Testing

/// A signed store under load: readers never see half a ruleset while good and bad signed
/// bundles are swapped in (the bundles are signed with the CLI's signer).
@Suite struct StoreSwapTests {
    static let root = Fixtures.repositoryRoot()

    /// Readers never see half a ruleset while good and bad bundles are swapped in.
    @Test func storeSwapsAtomicallyUnderConcurrentReaders() async throws {
        let signer = try SigningFixture()
        let small = Fixtures.temporaryDirectory()
        try Fixtures.write(["routines/water.yaml": "id: water\nname: 물\ncategory: water\nsource: manual\nunit: ml\ngoal: 1500\n"], to: small)
        // Releases 2…81, the shipped ruleset and the one-routine one in turn.
        let releases = (2...81).map { sequence in
            Data(signer.bundle(of: sequence % 2 == 0 ? Self.root : small, release: BundleRelease(sequence: sequence)).utf8)
        }
        let good = Data(signer.bundle(of: Self.root, release: BundleRelease(sequence: 1)).utf8)
        let bad = Data(String(decoding: releases[10], as: UTF8.self).replacingOccurrences(of: "\"1500\"", with: "\"1501\"").utf8)
        let store = RulesetStore(ruleset: try #require(Ruleset.load(bundle: good).ruleset), keys: signer.keys, installID: "i", acceptedSequence: 1)
        let consistent = await withTaskGroup(of: Bool.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    for round in 0..<40 {
                        let offered = (round + writer) % 3 == 0 ? bad : releases[round * 2 + writer]
                        let result = store.offer(bundle: offered)
                        if offered == bad, case .success = result { return false }
                    }
                    return true
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<400 {
                        let ruleset = store.current
                        // Either the full shipped ruleset or the one-routine one, never a mix.
                        let shape = (ruleset.routines.count, ruleset.notifications.count, ruleset.templates.isEmpty)
                        if shape != (10, 5, false), shape != (1, 0, true) { return false }
                    }
                    return true
                }
            }
            var all = true
            for await ok in group { all = all && ok }
            return all
        }
        #expect(consistent)
        #expect(store.generation > 0)
        #expect(store.offer(bundle: bad).isFailure)
    }
}
