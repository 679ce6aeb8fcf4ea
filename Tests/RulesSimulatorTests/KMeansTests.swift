import Testing

@testable import RulesFit
@testable import RulesPopulation

/// Grouping many users: above `KMeans.clusteredAtMost` the centres come from users spread evenly
/// over all of them and every user joins the nearest centre.
@Suite struct KMeansTests {
    /// Three blobs, the users interleaved so an even spread sees all three; `count` users.
    static func blobs(_ count: Int) -> (points: [[Double]], truth: [Int]) {
        var random = SplitMix64(mixing: 11, 3)
        let centres: [[Double]] = [[0, 0, 0], [8, 0, 1], [0, 9, -2]]
        let truth = (0..<count).map { $0 % 3 }
        let points = truth.map { blob in centres[blob].map { $0 + random.uniform() * 2 - 1 } }
        return (points, truth)
    }

    /// The same labels (up to their names) as the blobs, for a count above the limit, with K
    /// given and chosen by the silhouette.
    @Test(arguments: [3, nil] as [Int?])
    func manyUsersJoinTheNearestOfTheCentresFound(k: Int?) {
        let (points, truth) = Self.blobs(KMeans.clusteredAtMost * 3 / 2)
        let labels = KMeans.groups(points, k: k, maxGroups: 4, minimumSize: 10, seed: 7)
        #expect(labels.count == points.count)
        // Each true blob maps to one label, and no two blobs share one.
        var named: [Int: Int] = [:]
        for (label, blob) in zip(labels, truth) where named[blob] == nil { named[blob] = label }
        #expect(Set(named.values).count == 3)
        #expect(zip(labels, truth).allSatisfy { named[$1] == $0 })
    }
}
