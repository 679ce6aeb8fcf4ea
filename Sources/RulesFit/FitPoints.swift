import Foundation

/// The per-user values users are grouped by, each standardised over users: opens a day in six
/// four-hour windows, logs and ticks a day per routine, the share of notices opened and
/// ignored, sleep and steps (a user without them at the mean), and whether the user keeps each
/// routine (when the telemetry says). Gathered a user at a time (`add`), in any order, and
/// kept compact — ten numbers a user and the routines it has — until every user is in and the
/// routines are known (`points`).
struct FitPoints: Sendable {
    /// The values every user has: six windows, opened, ignored, sleep, steps (nan: none).
    static let fixed = 10
    private var fixedValues: [Double] = []
    /// A user's routine values, one after another: `column` a routine's index among `names`
    /// in its part (0: logs, 1: ticks, 2: kept), numbered as first seen.
    private var entries: [(part: UInt8, column: UInt32, value: Double)] = []
    private var starts: [Int] = [0]
    /// Whether each user says which routines it keeps.
    private var says: [Bool] = []
    private var names: [[String]] = [[], [], []]
    private var numbers: [[String: UInt32]] = [[:], [:], [:]]

    var count: Int { says.count }

    /// One user's values before the routines are numbered: made wherever the user is read (on
    /// the thread that read it), added in order.
    struct UserPoint: Sendable {
        var fixed: [Double] = []
        /// Routine values by part (0: logs, 1: ticks, 2: kept).
        var routines: [(part: UInt8, name: String, value: Double)] = []
        var says = false

        init(_ user: UserFeatures) {
            let days = Double(Swift.max(1, user.days))
            var windows = [Double](repeating: 0, count: 6)
            for bin in user.openBins where bin.bin < 144 { windows[bin.bin / 24] += Double(bin.count) }
            fixed.reserveCapacity(FitPoints.fixed)
            fixed += windows.map { $0 / days }
            let seen = Double(Swift.max(1, user.deliveries))
            fixed += [Double(user.opened) / seen, Double(user.ignored) / seen]
            fixed.append(user.sleep.n > 0 ? user.sleep.sum / user.sleep.n : .nan)
            fixed.append(user.steps.n > 0 ? user.steps.sum / user.steps.n : .nan)
            for (routine, use) in user.logs { routines.append((0, routine, Double(use.count) / days)) }
            for (routine, use) in user.ticks { routines.append((1, routine, Double(use.count) / days)) }
            for routine in user.enabled ?? [] { routines.append((2, routine, 1)) }
            says = user.enabled != nil
        }
    }

    mutating func add(_ user: UserFeatures) { add(UserPoint(user)) }

    mutating func add(_ point: UserPoint) {
        fixedValues += point.fixed
        for routine in point.routines { entry(Int(routine.part), routine.name, routine.value) }
        says.append(point.says)
        starts.append(entries.count)
    }

    private mutating func entry(_ part: Int, _ name: String, _ value: Double) {
        let column: UInt32
        if let known = numbers[part][name] {
            column = known
        } else {
            column = UInt32(names[part].count)
            numbers[part][name] = column
            names[part].append(name)
        }
        entries.append((UInt8(part), column, value))
    }

    /// The standardised points, a row a user in `order` (indices of `add`'s users): routines'
    /// columns by name, each column less its mean over users, over its spread (a user without
    /// the value at 0).
    func points(order: [Int]) -> KMeans.Points {
        // Each part's columns by name, after the fixed ones.
        var place: [[Int]] = []
        var next = Self.fixed
        for part in 0..<3 {
            let sorted = names[part].indices.sorted { names[part][$0] < names[part][$1] }
            var columns = [Int](repeating: 0, count: names[part].count)
            for (rank, column) in sorted.enumerated() { columns[column] = next + rank }
            place.append(columns)
            next += names[part].count
        }
        let d = next
        let keptStart = d - names[2].count
        var values = [Double](repeating: 0, count: order.count * d)
        for (row, user) in order.enumerated() {
            let base = row * d
            for column in 0..<Self.fixed { values[base + column] = fixedValues[user * Self.fixed + column] }
            // Kept routines: 0 unless kept, nan when the user does not say.
            for column in keptStart..<d { values[base + column] = says[user] ? 0 : .nan }
            for entry in entries[starts[user]..<starts[user + 1]] { values[base + place[Int(entry.part)][Int(entry.column)]] = entry.value }
        }
        Self.standardise(&values, dimension: d)
        return KMeans.Points(dimension: d, values: values)
    }

    /// Each column less its mean over the rows that have it, over its spread (sums exact: the
    /// same rows in another order give the same points); a row without it at 0.
    static func standardise(_ values: inout [Double], dimension d: Int) {
        guard d > 0 else { return }
        let rows = values.count / d
        for j in 0..<d {
            var sum = ExactSum()
            var count = 0
            for i in 0..<rows where !values[i * d + j].isNaN {
                sum.add(values[i * d + j])
                count += 1
            }
            let mean = count == 0 ? 0 : sum.value / Double(count)
            var squares = ExactSum()
            for i in 0..<rows where !values[i * d + j].isNaN {
                let x = values[i * d + j] - mean
                squares.add(x * x)
            }
            let sd = count == 0 ? 0 : (squares.value / Double(count)).squareRoot()
            for i in 0..<rows {
                let x = values[i * d + j]
                values[i * d + j] = sd > 0 && !x.isNaN ? (x - mean) / sd : 0
            }
        }
    }
}
