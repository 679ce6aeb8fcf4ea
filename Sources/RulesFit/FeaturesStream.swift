import Foundation
import RulesTune
import Ruleset

/// A features file fitted without holding its users: read twice. The first pass keeps, for
/// each row, its user key, where it was and the user's points (`FitPoints`, ten numbers and the
/// routines it has); the users are grouped on those. The second pass reads every row again
/// and adds it to its group's sums (`FitGrouping`). Memory grows by a hundred bytes or so a
/// user, not by the user's counts.
package struct FeaturesStream: Sendable {
    /// Keys in the order rows came (first pass), then in key order.
    private var keys: [String] = []
    /// Where each row was: an index into `files`, and the line.
    private var places: [(file: Int32, line: Int32)] = []
    private var files: [String] = []
    private var points = FitPoints()
    /// The order of the rows by key (indices of the first pass).
    private var order: [Int] = []
    private var grouping: FitGrouping?
    /// Rows met in the second pass, by index in key order.
    private var met: [Bool] = []

    package init() {}

    var users: Int { keys.count }

    /// A row of the first pass.
    mutating func first(_ user: String, _ point: FitPoints.UserPoint, name: String, number: Int) {
        if files.last != name { files.append(name) }
        keys.append(user)
        places.append((Int32(truncatingIfNeeded: files.count - 1), Int32(truncatingIfNeeded: number)))
        points.add(point)
    }

    /// Once the first pass is read: the rows by key, and a user with two rows refused (the later
    /// row named, as a reader that keeps users would).
    mutating func sorted() -> [String] {
        order = keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
        var problems: [String] = []
        for (a, b) in zip(order, order.dropFirst()) where keys[a] == keys[b] {
            problems.append("\(place(b)): user \(keys[b]) has a row already (at \(place(a))): one row a user")
        }
        keys = order.map { keys[$0] }
        return problems
    }

    private func place(_ index: Int) -> String {
        let (file, line) = places[index]
        return "\(TuneQuestion.shown(files[Int(file)])):\(line)"
    }

    /// Groups the users (after `sorted`): the points are let go, the keys kept for the second pass.
    package mutating func group(k: Int?, ruleset: Ruleset, seed: UInt64) {
        let laidOut = points.points(order: order)
        points = FitPoints()
        order = []
        places = []
        grouping = FitGrouping(laidOut, k: k, ruleset: ruleset, seed: seed)
        met = Array(repeating: false, count: keys.count)
    }

    /// A row of the second pass; the failure when the files changed since the first.
    mutating func second(_ user: String, _ features: UserFeatures) -> String? {
        guard var grouping, let index = index(of: user), !met[index] else {
            return "user \(user)'s row was not there when the files were first read: the features changed while they were read"
        }
        self.grouping = nil
        met[index] = true
        grouping.add(features, at: index)
        self.grouping = grouping
        return nil
    }

    /// The grouping once every row was read again; nil (with what is wrong) when a row is missing.
    package func finished() -> Result<FitGrouping, FeaturesFailure> {
        guard let grouping else { return .failure(FeaturesFailure("the rows were not grouped before they were read again")) }
        if let missing = met.firstIndex(of: false) {
            return .failure(
                FeaturesFailure("user \(keys[missing])'s row was gone when the files were read again: the features changed while they were read"))
        }
        return .success(grouping)
    }

    /// The index of `user` in key order (binary search).
    private func index(of user: String) -> Int? {
        var (low, high) = (0, keys.count)
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < user { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low] == user ? low : nil
    }
}
