import Foundation
import RulesEngine
import RulesPopulation
import RulesTune

/// Reads telemetry lines as a stream — any number of files, a chunk at a time — into one
/// `UserCounts` per user (each frozen as its `UserFeatures` when the reading finishes): memory
/// grows with the users, never with the lines. A malformed line, a free-text field, lines of
/// two rulesets (unless told how to treat them) and a user's lines out of time order are errors
/// (file and line); unknown kinds are counted.
package struct TelemetryReader: Sendable {
    /// What to do with lines of more than one ruleset.
    package enum Mixed: String, Sendable, CaseIterable {
        /// Refuse them (the default): a fit describes users under one ruleset.
        case refuse
        /// Keep only the lines of the ruleset most lines have.
        case majority
        /// Read them all as one.
        case all
    }

    /// The users read, once `finish()` has run (a features file's rows as they are read).
    package private(set) var users: [String: UserFeatures] = [:]
    /// The users whose lines are being read.
    var tallies: [String: UserCounts] = [:]
    package private(set) var lines = 0
    package private(set) var unknownKinds: [String: Int] = [:]
    /// Per user: the first and last day of their lines, and lines of unknown kinds (kept only
    /// when `keepsRows`, to write the features file).
    var daySpans: [String: (first: Int, last: Int)] = [:]
    var unknownKindsByUser: [String: [String: Int]] = [:]
    package var keepsRows = false
    /// Where each user's row was read (a features file).
    var featureRows: [String: String] = [:]
    /// Set when the files are features files: the ruleset key every row must carry.
    var featuresKey: String?
    /// Set to fit features files without keeping their users: rows go to the stream, not to
    /// `users` (`FeaturesStream`: read once to group, once more to sum).
    package var stream: FeaturesStream?
    /// Whether this is the stream's second pass over the rows.
    package var secondPass = false
    /// The longest line: a telemetry line is short, a features row holds a user's counts.
    var maxLine: Int { featuresKey == nil ? 1 << 16 : 1 << 20 }
    /// Lines naming a routine or a notification type the ruleset lacks, counted and skipped
    /// (`routine foo`, `type bar`): renamed telemetry must not fit as if it were this ruleset's.
    package private(set) var unknownNames: [String: Int] = [:]
    /// The ruleset's routines and notification types (nil: not checked).
    package var knownRoutines: Set<String>?
    package var knownTypes: Set<String>?
    package private(set) var rulesets: [String: Int] = [:]
    package private(set) var problems: [String] = []
    package private(set) var firstDay = Int.max
    package private(set) var lastDay = Int.min
    let dayStart: Int
    let mixed: Mixed
    /// Lines of other rulesets left out under `.majority` (known only at the end: read twice).
    var keepRuleset: String?

    static let kinds = Set(Telemetry.Kind.allCases.map(\.rawValue))
    /// The most problems kept (the first ones say enough).
    static let maxProblems = 20

    package init(dayStart: Int, mixed: Mixed = .refuse, keepRuleset: String? = nil) {
        self.dayStart = dayStart
        self.mixed = mixed
        self.keepRuleset = keepRuleset
    }

    package var failed: Bool { !problems.isEmpty }

    /// The users read: kept, or streamed.
    package var userCount: Int { stream?.users ?? users.count }

    /// Reads the file at `path` (shown as `name`), 1 MiB at a time.
    package mutating func read(path: String, name: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            problem("\(name): cannot be read")
            return
        }
        defer { try? handle.close() }
        read(handle: handle, name: name)
    }

    /// A file already opened (and checked to be a regular file) by the caller.
    package mutating func read(handle: FileHandle, name: String) {
        var carry: [UInt8] = []
        var number = 0
        // A features file's rows are read a chunk ahead, on other threads, while the rows of
        // the chunk before are taken here in order.
        var ahead: RowsAhead?
        /// Takes the rows read ahead, if any: before a later row, a problem or the end.
        func drain() {
            if let before = ahead { take(before, name: name) }
            ahead = nil
        }
        defer { drain() }
        while !failed {
            let chunk = handle.readData(ofLength: 1 << 20)
            if chunk.isEmpty { break }
            carry += chunk
            var start = 0
            var rows: [ArraySlice<UInt8>] = []
            while let end = carry[start...].firstIndex(of: 0x0A) {
                if featuresKey != nil {
                    rows.append(carry[start..<end])
                } else {
                    number += 1
                    add(carry[start..<end], name: name, number: number)
                    if failed { return }
                }
                start = end + 1
            }
            if !rows.isEmpty {
                let next = RowsAhead(
                    rows, firstNumber: number + 1, points: stream != nil && !secondPass, known: (knownRoutines, knownTypes))
                number += rows.count
                drain()
                ahead = next
                if failed { return }
            }
            carry.removeFirst(start)
            if carry.count > maxLine {
                drain()
                if !failed { problem("\(name):\(number + 1): a line longer than \(maxLine) bytes") }
                return
            }
        }
        drain()
        if !carry.isEmpty, !failed { add(carry[...], name: name, number: number + 1) }
    }

    /// Reads text already in memory (a fitted population's own telemetry, in `--check`).
    package mutating func read(text: String, name: String) { read(bytes: Array(text.utf8), name: name) }

    /// Reads bytes already in memory, a line at a time.
    package mutating func read(bytes: [UInt8], name: String) {
        var number = 0
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            if line.isEmpty { continue }
            guard line.count <= maxLine else {
                problem("\(name):\(number): a line longer than \(maxLine) bytes")
                return
            }
            add(line, name: name, number: number)
            if failed { return }
        }
    }

    /// A line without its carriage return; nil when it is blank (blank lines are skipped).
    static func content(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var bytes = line
        if bytes.last == 0x0D { bytes = bytes.dropLast() }
        return bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) ? nil : bytes
    }

    mutating func add(_ line: ArraySlice<UInt8>, name: String, number: Int) {
        guard let bytes = Self.content(line) else { return }
        if featuresKey != nil {
            addRow(Self.row(bytes, routines: knownRoutines, types: knownTypes).map { ($0.0, .features($0.1)) }, name: name, number: number)
            return
        }
        let line: TelemetryLine
        switch TelemetryLine.parse(bytes) {
        case .success(let read): line = read
        case .failure(let failure):
            problem("\(name):\(number): \(failure.message)")
            return
        }
        lines += 1
        rulesets[line.ruleset, default: 0] += 1
        if let keep = keepRuleset, line.ruleset != keep { return }
        if mixed == .refuse, rulesets.count > 1 {
            let known = rulesets.keys.filter { $0 != line.ruleset }.sorted().first ?? ""
            problem("\(name):\(number): a line of ruleset \(line.ruleset) among lines of \(known); say how to treat them with --mixed majority|all")
            return
        }
        guard Self.kinds.contains(line.kind) else {
            unknownKinds[line.kind, default: 0] += 1
            if keepsRows { unknownKindsByUser[line.user, default: [:]][line.kind, default: 0] += 1 }
            return
        }
        if let routine = line.words["routine"], let known = knownRoutines, !known.contains(routine) {
            unknownNames["routine \(routine)", default: 0] += 1
            return
        }
        if let type = line.words["type"], let known = knownTypes, !known.contains(type) {
            unknownNames["type \(type)", default: 0] += 1
            return
        }
        // One lookup, in place: a copy of the user's counts per line would cost more than the line.
        if let last = tallies[line.user, default: UserCounts()].add(inOrder: line, dayStart: dayStart) {
            problem(
                "\(name):\(number): user \(line.user)'s line of day \(line.day) minute \(line.minute) comes after one of day \(last.day) minute \(last.minute)"
            )
            return
        }
        firstDay = Swift.min(firstDay, line.day)
        lastDay = Swift.max(lastDay, line.day)
        if keepsRows {
            let span = daySpans[line.user] ?? (line.day, line.day)
            daySpans[line.user] = (Swift.min(span.first, line.day), Swift.max(span.last, line.day))
        }
    }

    /// A reader of features files (JSON lines, one row a user: `FeaturesRow`) instead of
    /// telemetry: each row stands for its user's lines; `rulesetKey` is the key every row must
    /// carry (the ruleset given).
    package init(features rulesetKey: String) {
        self.init(dayStart: 0)
        featuresKey = rulesetKey
    }

    /// A features row read, refused when it names a routine or a notification type the ruleset
    /// lacks (when the ruleset's are known): the lines such a row would stand for are not this
    /// ruleset's, and a fit of lines skips them.
    static func row(_ bytes: ArraySlice<UInt8>, routines: Set<String>?, types: Set<String>?) -> RowsAhead.Read {
        let row = FeaturesRow.read(bytes)
        guard case .success(let (_, user)) = row else { return row }
        /// The first by name of `names` not in `known`: the same message whatever a dictionary's order.
        func unknown(_ names: some Sequence<String>, _ known: Set<String>?) -> String? {
            guard let known else { return nil }
            return names.lazy.filter { !known.contains($0) }.min()
        }
        let named: [(column: String, name: String?, what: String)] = [
            ("logs", unknown(user.logs.keys, routines), "routine"), ("ticks", unknown(user.ticks.keys, routines), "routine"),
            ("enabled", unknown(user.enabled ?? [], routines), "routine"), ("trial", unknown(user.trial.keys, types), "notification type"),
            ("ignored_by_type", unknown(user.ignoredByType.keys, types), "notification type"),
            ("seen_by_type", unknown(user.seenByType.keys, types), "notification type"),
            ("switched_off", unknown(user.switchedOff, types), "notification type"),
        ]
        guard let (column, name, what) = named.first(where: { $0.name != nil }), let name else { return row }
        return .failure(FeaturesFailure("'\(column)' names \(what) '\(name)', which the ruleset does not have: features of another ruleset"))
    }

    /// The rows read ahead, taken in order once read, so what is kept and said is what reading
    /// them one by one would keep and say (the reading stops at the first problem).
    mutating func take(_ ahead: RowsAhead, name: String) {
        let rows = ahead.rows()
        for (index, row) in rows.enumerated() {
            if failed { return }
            guard let row else { continue }
            addRow(row, name: name, number: ahead.firstNumber + index)
        }
    }

    /// One row of a features file, as read.
    mutating func addRow(_ row: RowsAhead.Row, name: String, number: Int) {
        switch row {
        case .failure(let failure): problem("\(name):\(number): \(failure.message)")
        case .success(let (identity, taken)):
            guard identity.ruleset == featuresKey else {
                problem(
                    "\(name):\(number): a row of ruleset \(identity.ruleset), not \(featuresKey ?? "") (the ruleset given): features of another ruleset"
                )
                return
            }
            if secondPass {
                if let features = taken.features, let failure = stream?.second(identity.user, features) {
                    problem("\(name):\(number): \(failure)")
                }
                return
            }
            if stream != nil {
                stream?.first(identity.user, taken.point, name: name, number: number)
            } else if let features = taken.features {
                guard users[identity.user] == nil else {
                    problem("\(name):\(number): user \(identity.user) has a row already (at \(featureRows[identity.user] ?? "")): one row a user")
                    return
                }
                users[identity.user] = features
                featureRows[identity.user] = "\(TuneQuestion.shown(name)):\(number)"
            }
            lines += 1
            rulesets[identity.ruleset, default: 0] += 1
            for (kind, count) in identity.unknownKinds { unknownKinds[kind, default: 0] += count }
            firstDay = Swift.min(firstDay, identity.firstDay)
            lastDay = Swift.max(lastDay, identity.lastDay)
        }
    }

    /// The features file written from what was read: one row a user, by user key.
    package func featureLines(rulesetKey: String) -> String {
        var out = ""
        for user in users.keys.sorted() {
            guard let features = users[user], let span = daySpans[user] else { continue }
            let identity = FeaturesRow.Identity(
                user: user, ruleset: rulesetKey, firstDay: span.first, lastDay: span.last, unknownKinds: unknownKindsByUser[user] ?? [:])
            out += FeaturesRow.line(identity, features) + "\n"
        }
        return out
    }

    package mutating func problem(_ text: String) {
        if problems.count < Self.maxProblems { problems.append(text) }
    }

    /// Closes every user's last day and freezes the tallies as `users`; call once after the
    /// last file.
    package mutating func finish() {
        if !secondPass, let problems = stream?.sorted() {
            for text in problems { problem(text) }
        }
        users.reserveCapacity(users.count + tallies.count)
        for (key, user) in handOver() { users[key] = user }
    }

    /// Closes every user being read and hands each over, in key order, instead of keeping it:
    /// for a reader given users whole, a few at a time, whose caller keeps only what it
    /// measures of them (`fit --check`'s lived side). A user's lines must all come before the
    /// hand-over: lines after it read as another user of the same key.
    package mutating func handOver() -> [(key: String, user: UserFeatures)] {
        let out = tallies.keys.sorted().compactMap { key -> (key: String, user: UserFeatures)? in
            guard var tally = tallies[key] else { return nil }
            tally.closeDay(dayStart: dayStart)
            return (key, UserFeatures(tally))
        }
        tallies = [:]
        return out
    }

    /// The ruleset most lines have (ties: the first by name).
    package var majority: String? { rulesets.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key }
}

/// A chunk of a features file's rows read on other threads (every core) from the moment it is
/// made; `rows()` waits for them. A blank line reads as nil.
final class RowsAhead: @unchecked Sendable {
    /// A row as read: the user's features, or (for the first pass of a stream) only the point
    /// the user is grouped by, made on the reading thread so the features are let go there.
    enum Taken: Sendable {
        case features(UserFeatures)
        case point(FitPoints.UserPoint)

        /// The features; nil for a point (made only for a stream's first pass, which reads no
        /// features).
        var features: UserFeatures? {
            if case .features(let features) = self { features } else { nil }
        }
        var point: FitPoints.UserPoint {
            switch self {
            case .features(let features): FitPoints.UserPoint(features)
            case .point(let point): point
            }
        }
    }
    typealias Row = Result<(FeaturesRow.Identity, Taken), FeaturesFailure>
    typealias Read = Result<(FeaturesRow.Identity, UserFeatures), FeaturesFailure>
    let firstNumber: Int
    private let done = DispatchGroup()
    /// Written once by the reading threads, read only after `done` is waited for.
    private var read: [Row?] = []

    init(_ lines: [ArraySlice<UInt8>], firstNumber: Int, points: Bool, known: (routines: Set<String>?, types: Set<String>?)) {
        self.firstNumber = firstNumber
        DispatchQueue.global().async(group: done) {
            // Stripes, several a core, so a core that finishes early takes another.
            let jobs = Swift.max(1, Swift.min(4 * ProcessInfo.processInfo.activeProcessorCount, lines.count / 16))
            let results = PopulationRun.Results<[Row?]>(count: jobs)
            DispatchQueue.concurrentPerform(iterations: jobs) { job in
                results.set(
                    job,
                    stride(from: job, to: lines.count, by: jobs).map { index in
                        TelemetryReader.content(lines[index]).map { bytes in
                            TelemetryReader.row(bytes, routines: known.routines, types: known.types).map { identity, features in
                                (identity, points ? .point(FitPoints.UserPoint(features)) : .features(features))
                            }
                        }
                    })
            }
            let byJob = results.all()
            self.read = lines.indices.map { byJob[$0 % jobs][$0 / jobs] }
        }
    }

    /// The rows, in order, once read.
    func rows() -> [Row?] {
        done.wait()
        return read
    }
}
