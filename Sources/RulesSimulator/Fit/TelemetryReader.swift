import Foundation

/// Reads telemetry lines as a stream — any number of files, a chunk at a time — into one
/// `UserFeatures` per user: memory grows with the users, never with the lines. A malformed
/// line, a free-text field, lines of two rulesets (unless told how to treat them) and a user's
/// lines out of time order are errors (file and line); unknown kinds are counted.
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

    package private(set) var users: [String: UserFeatures] = [:]
    package private(set) var lines = 0
    package private(set) var unknownKinds: [String: Int] = [:]
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

    static let kinds: Set<String> = [
        "run", "log", "tick", "delivery", "response", "withheld", "setting", "health", "route", "day", "routine", "notices",
    ]
    /// The most problems kept (the first ones say enough).
    static let maxProblems = 20

    package init(dayStart: Int, mixed: Mixed = .refuse, keepRuleset: String? = nil) {
        self.dayStart = dayStart
        self.mixed = mixed
        self.keepRuleset = keepRuleset
    }

    package var failed: Bool { !problems.isEmpty }

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
        while !failed {
            let chunk = handle.readData(ofLength: 1 << 20)
            if chunk.isEmpty { break }
            carry += chunk
            var start = 0
            while let end = carry[start...].firstIndex(of: 0x0A) {
                number += 1
                add(carry[start..<end], name: name, number: number)
                start = end + 1
                if failed { return }
            }
            carry.removeFirst(start)
            if carry.count > 1 << 16 {
                problem("\(name):\(number + 1): a line longer than 65,536 bytes")
                return
            }
        }
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
            guard line.count <= 1 << 16 else {
                problem("\(name):\(number): a line longer than 65,536 bytes")
                return
            }
            add(line, name: name, number: number)
            if failed { return }
        }
    }

    mutating func add(_ bytes: ArraySlice<UInt8>, name: String, number: Int) {
        var bytes = bytes
        if bytes.last == 0x0D { bytes = bytes.dropLast() }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
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
        if let last = users[line.user, default: UserFeatures()].add(inOrder: line, dayStart: dayStart) {
            problem(
                "\(name):\(number): user \(line.user)'s line of day \(line.day) minute \(line.minute) comes after one of day \(last.day) minute \(last.minute)"
            )
            return
        }
        firstDay = Swift.min(firstDay, line.day)
        lastDay = Swift.max(lastDay, line.day)
    }

    package mutating func problem(_ text: String) {
        if problems.count < Self.maxProblems { problems.append(text) }
    }

    /// Closes every user's last day; call once after the last file.
    package mutating func finish() {
        for key in users.keys { users[key]?.closeDay(dayStart: dayStart) }
    }

    /// The ruleset most lines have (ties: the first by name).
    package var majority: String? { rulesets.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key }
}
