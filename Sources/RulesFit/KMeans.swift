import Foundation
import RulesPopulation

/// k-means with k-means++ seeding from a fixed seed (Arthur & Vassilvitskii 2007), the best of
/// five starts, and the number of groups chosen by a stated criterion: the largest mean
/// silhouette (Rousseeuw 1987) over K = 2 … `maxGroups`, worked out on at most 2,000 users
/// drawn with a fixed seed; one group when no K reaches a mean silhouette of 0.25 (no
/// structure worth naming). Groups of fewer than `minimumSize` are merged into the nearest
/// larger one.
package enum KMeans {
    /// Points of equal dimension held in one buffer, row after row: the loops below read them
    /// in place (an array of arrays retained and released a row at every step).
    struct Points {
        let dimension: Int
        private(set) var values: [Double] = []
        private(set) var count = 0

        init(dimension: Int) { self.dimension = dimension }

        /// Rows already laid out one after another (`values.count` a multiple of `dimension`).
        init(dimension: Int, values: [Double]) {
            self.dimension = dimension
            self.values = values
            count = dimension > 0 ? values.count / dimension : 0
        }

        /// The rows (all as long as the first: a shorter one is padded with zeros).
        init(_ rows: [[Double]]) {
            dimension = rows.first?.count ?? 0
            values.reserveCapacity(rows.count * dimension)
            for row in rows { append(row.prefix(dimension) + Array(repeating: 0, count: Swift.max(0, dimension - row.count))) }
        }

        var isEmpty: Bool { count == 0 }

        func row(_ index: Int) -> ArraySlice<Double> { values[(index * dimension)..<((index + 1) * dimension)] }

        mutating func append(_ row: ArraySlice<Double>) {
            values += row
            count += 1
        }

        /// The squared distance between row `i` and row `j` of `other`.
        func distance(_ i: Int, _ other: Points, _ j: Int) -> Double {
            var sum = 0.0
            values.withUnsafeBufferPointer { a in
                other.values.withUnsafeBufferPointer { b in
                    let (x, y) = (i * dimension, j * dimension)
                    for index in 0..<dimension {
                        let difference = a[x + index] - b[y + index]
                        sum += difference * difference
                    }
                }
            }
            return sum
        }

        /// The points of `indices`, in their order.
        func rows(_ indices: [Int]) -> Points {
            var out = Points(dimension: dimension)
            out.values.reserveCapacity(indices.count * dimension)
            for index in indices { out.append(row(index)) }
            return out
        }

        /// `count` copies of row `index` (`means`' fallback).
        func repeated(_ index: Int, _ count: Int) -> Points {
            var out = Points(dimension: dimension)
            for _ in 0..<count { out.append(row(index)) }
            return out
        }
    }

    /// Assignments of `points` (rows of equal length) to `k` groups, and the sum of squared
    /// distances to their centres.
    /// The best of `restarts` runs from different seeds (the least sum of squares): one
    /// k-means++ start can settle in a poor local optimum — splitting a large group in two
    /// while two others stay merged.
    static func cluster(_ points: Points, k: Int, seed: UInt64, restarts: Int = 5) -> (labels: [Int], sse: Double) {
        var best: (labels: [Int], sse: Double)?
        for restart in 0..<(k > 1 ? Swift.max(1, restarts) : 1) {
            let run = once(points, k: k, seed: seed &+ UInt64(restart) &* 0x9E37_79B9_7F4A_7C15)
            if best == nil || run.sse < (best?.sse ?? 0) - 1e-9 { best = run }
        }
        return best ?? (Array(repeating: 0, count: points.count), 0)
    }

    static func once(_ points: Points, k: Int, seed: UInt64, iterations: Int = 60) -> (labels: [Int], sse: Double) {
        let n = points.count
        guard n > 0, k > 1 else { return (Array(repeating: 0, count: n), sse(points, Array(repeating: 0, count: n), 1)) }
        var random = SplitMix64(mixing: seed, 0x6B6D_6561_6E73)
        var centres = Points(dimension: points.dimension)
        centres.append(points.row(Int(random.next() % UInt64(n))))
        var reach = (0..<n).map { points.distance($0, centres, 0) }
        while centres.count < k {
            let total = reach.reduce(0, +)
            guard total > 0 else { break }
            var pick = random.uniform() * total
            var chosen = n - 1
            for (index, d) in reach.enumerated() {
                pick -= d
                if pick <= 0 {
                    chosen = index
                    break
                }
            }
            centres.append(points.row(chosen))
            for index in 0..<n { reach[index] = Swift.min(reach[index], points.distance(index, points, chosen)) }
        }
        var labels = Array(repeating: 0, count: n)
        for _ in 0..<iterations {
            var changed = false
            for index in 0..<n {
                let best = nearest(index, of: points, centres)
                if best != labels[index] {
                    labels[index] = best
                    changed = true
                }
            }
            centres = means(points, labels, centres.count, fallback: centres)
            if !changed { break }
        }
        return (labels, sse(points, labels, centres.count))
    }

    /// The most users the centres are found from: above it, k-means runs on this many drawn
    /// without replacement (a fixed seed; a draw, not an even spread, which an order with a period
    /// would alias) and every user joins the nearest of the centres found (a million users'
    /// centres are those of 20,000 to well within a feature's rounding).
    static let clusteredAtMost = 20_000

    /// The groups for `k` (or chosen by silhouette when nil), groups below `minimumSize` merged.
    package static func groups(_ rows: [[Double]], k: Int?, maxGroups: Int = 8, minimumSize: Int, seed: UInt64) -> [Int] {
        groups(Points(rows), k: k, maxGroups: maxGroups, minimumSize: minimumSize, seed: seed)
    }

    static func groups(_ points: Points, k: Int?, maxGroups: Int = 8, minimumSize: Int, seed: UInt64) -> [Int] {
        let n = points.count
        let largest = Swift.max(1, Swift.min(maxGroups, n / Swift.max(1, minimumSize)))
        if let k { return merged(points, clustered(points, k: Swift.min(k, largest), seed: seed), minimumSize: minimumSize) }
        var best: (labels: [Int], score: Double) = (Array(repeating: 0, count: n), 0.25)
        for candidate in stride(from: 2, through: largest, by: 1) {
            let labels = merged(points, clustered(points, k: candidate, seed: seed), minimumSize: minimumSize)
            let score = silhouette(points, labels)
            if score > best.score + 1e-9 { best = (labels, score) }
        }
        return best.labels
    }

    /// `cluster`'s labels, the centres found from at most `clusteredAtMost` points drawn
    /// and every point labelled by the nearest centre.
    static func clustered(_ points: Points, k: Int, seed: UInt64) -> [Int] {
        guard points.count > clusteredAtMost else { return cluster(points, k: k, seed: seed).labels }
        let sample = points.rows(drawn(clusteredAtMost, of: points.count, seed: seed))
        let labels = cluster(sample, k: k, seed: seed).labels
        let centres = means(sample, labels, k, fallback: sample.repeated(0, k))
        return (0..<points.count).map { nearest($0, of: points, centres) }
    }

    /// The index of the centre nearest to point `index` (the first of equals; 0 when there is none).
    static func nearest(_ index: Int, of points: Points, _ centres: Points) -> Int {
        guard centres.count > 0 else { return 0 }
        var best = 0
        var least = points.distance(index, centres, 0)
        for centre in 1..<centres.count {
            let d = points.distance(index, centres, centre)
            if d < least {
                best = centre
                least = d
            }
        }
        return best
    }

    /// `count` of the indices `0..<n` drawn without replacement from a fixed seed, in order
    /// (all of them when `n` ≤ `count`): a draw, because an even spread aliases any order with a period.
    static func drawn(_ count: Int, of n: Int, seed: UInt64) -> [Int] {
        guard n > count else { return Array(0..<n) }
        var random = SplitMix64(mixing: seed, 0x7361_6D70_6C65)
        var order = Array(0..<n)
        for index in 0..<count { order.swapAt(index, index + Int(random.next() % UInt64(n - index))) }
        return order[..<count].sorted()
    }

    /// The mean silhouette of a labelling, over at most 2,000 points drawn.
    static func silhouette(_ points: Points, _ labels: [Int]) -> Double {
        let k = (labels.max() ?? 0) + 1
        guard k > 1 else { return 0 }
        let sample = drawn(2_000, of: points.count, seed: 0x5349_4C48)
        var total = 0.0
        for i in sample {
            var sums = Array(repeating: 0.0, count: k)
            var counts = Array(repeating: 0, count: k)
            for j in sample where j != i {
                sums[labels[j]] += points.distance(i, points, j).squareRoot()
                counts[labels[j]] += 1
            }
            let own = labels[i]
            guard counts[own] > 0 else { continue }
            let a = sums[own] / Double(counts[own])
            let b = (0..<k).filter { $0 != own && counts[$0] > 0 }.map { sums[$0] / Double(counts[$0]) }.min() ?? a
            let larger = Swift.max(a, b)
            total += larger > 0 ? (b - a) / larger : 0
        }
        return total / Double(sample.count)
    }

    /// Groups renumbered 0…K−1 by first appearance, every group below `minimumSize` merged
    /// into the group whose centre is nearest to its own.
    static func merged(_ points: Points, _ labels: [Int], minimumSize: Int) -> [Int] {
        var labels = labels
        while true {
            let count = (labels.max() ?? 0) + 1
            var sizes = Array(repeating: 0, count: count)
            for label in labels { sizes[label] += 1 }
            let live = sizes.indices.filter { sizes[$0] > 0 }
            guard live.count > 1, let small = live.filter({ sizes[$0] < minimumSize }).min(by: { sizes[$0] < sizes[$1] }) else { break }
            let centres = means(points, labels, count, fallback: points.repeated(0, count))
            let target = live.filter { $0 != small }.min { centres.distance(small, centres, $0) < centres.distance(small, centres, $1) } ?? small
            labels = labels.map { $0 == small ? target : $0 }
        }
        var renumber: [Int: Int] = [:]
        return labels.map { label in
            if let known = renumber[label] { return known }
            renumber[label] = renumber.count
            return renumber.count - 1
        }
    }

    /// The centre of each of `k` labels (the fallback's row for a label without points).
    static func means(_ points: Points, _ labels: [Int], _ k: Int, fallback: Points) -> Points {
        let d = points.dimension
        var sums = Array(repeating: 0.0, count: k * d)
        var counts = Array(repeating: 0, count: k)
        points.values.withUnsafeBufferPointer { values in
            for (index, label) in labels.enumerated() {
                counts[label] += 1
                for j in 0..<d { sums[label * d + j] += values[index * d + j] }
            }
        }
        var out = Points(dimension: d)
        for c in 0..<k {
            if counts[c] == 0 {
                out.append(fallback.row(c))
            } else {
                out.append(sums[(c * d)..<((c + 1) * d)].map { $0 / Double(counts[c]) }[...])
            }
        }
        return out
    }

    static func sse(_ points: Points, _ labels: [Int], _ k: Int) -> Double {
        guard !points.isEmpty else { return 0 }
        let centres = means(points, labels, k, fallback: points.repeated(0, k))
        return labels.indices.reduce(0) { $0 + points.distance($1, centres, labels[$1]) }
    }
}
