import Foundation
import RulesDiagnostics
import RulesDocument
import RulesSimulator
import RulesYAML

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `rules test --update`: rewrites failing expectations in place with what the engine now
/// does — only the values that change (and a key's name when a delivery became a
/// suppression), so comments, quoting elsewhere and layout stay as written.
enum TestUpdate {
    /// One replacement in a file, in Unicode scalar offsets.
    struct Edit {
        var start: Int
        var end: Int
        var text: String
    }

    /// `text` with the fixes of `failures` applied; the failures it could not fix (no fix, or
    /// their node not found) are returned.
    static func apply(_ failures: [ExpectationResult], to text: String, file: String) -> (text: String, left: [ExpectationResult]) {
        let parsed = YAMLReader.parse(text, file: file)
        var nodes: [SourceLocation: YAMLNode] = [:]
        for document in parsed.documents { mappings(document, into: &nodes) }
        let scalars = Array(text.unicodeScalars)
        // Lines numbered as the parser numbers them (a lone CR, NEL, LS and PS end lines too).
        let lineStarts = SourceFile(path: file, text: text).lineStartOffsets
        func offset(_ location: SourceLocation) -> Int? {
            guard location.line >= 1, location.line <= lineStarts.count else { return nil }
            let at = lineStarts[location.line - 1] + location.column - 1
            return at <= scalars.count ? at : nil
        }
        var edits: [Edit] = []
        var left: [ExpectationResult] = []
        for failure in failures {
            guard !failure.fixes.isEmpty, let node = nodes[failure.expectation.origin.location], let pairs = node.pairs else {
                left.append(failure)
                continue
            }
            let mine = Self.edits(of: failure.fixes, in: pairs, scalars: scalars, offset: offset)
            // All of an expectation's fixes, or none of them; a node is edited once (an
            // expectation anchored and used again through an alias is one node): a second
            // failure of it is fixed when it asks for the same text, else left to fix by hand.
            let clashes = mine.contains { edit in edits.contains { $0.start == edit.start && $0.end == edit.end && $0.text != edit.text } }
            guard mine.count >= failure.fixes.count, !clashes else {
                left.append(failure)
                continue
            }
            edits += mine.filter { edit in !edits.contains { $0.start == edit.start && $0.end == edit.end } }
        }
        var result = scalars
        for edit in edits.sorted(by: { $0.start > $1.start }) where edit.start <= edit.end && edit.end <= result.count {
            result.replaceSubrange(edit.start..<edit.end, with: Array(edit.text.unicodeScalars))
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: result)
        return (String(view), left)
    }

    /// Every mapping of a document by where it starts (the expectations among them).
    static func mappings(_ node: YAMLNode, into nodes: inout [SourceLocation: YAMLNode]) {
        switch node.content {
        case .mapping(let pairs):
            nodes[node.start] = node
            for pair in pairs { mappings(pair.value, into: &nodes) }
        case .sequence(let items): for item in items { mappings(item, into: &nodes) }
        case .scalar: break
        }
    }

    /// The edits of an expectation's fixes, in order, up to the first one whose value (or
    /// key) cannot be placed.
    static func edits(
        of fixes: [ExpectationFix], in pairs: [YAMLPair], scalars: [Unicode.Scalar], offset: (SourceLocation) -> Int?
    ) -> [Edit] {
        var mine: [Edit] = []
        for fix in fixes {
            guard let pair = pairs.first(where: { $0.key.scalar == fix.key }), let start = offset(pair.value.start),
                let end = offset(pair.value.end)
            else { break }
            if pair.value.scalarStyle == .literal || pair.value.scalarStyle == .folded {
                // A block scalar keeps its header, line breaks and indentation: only its
                // content is replaced, by the value as plain text.
                guard let content = blockContent(scalars, start: start, end: end) else { break }
                mine.append(Edit(start: content.lowerBound, end: content.upperBound, text: plain(fix.value)))
            } else {
                mine.append(Edit(start: start, end: end, text: fix.value))
            }
            if let name = fix.renamedTo, let keyStart = offset(pair.key.start), let keyEnd = offset(pair.key.end) {
                mine.append(Edit(start: keyStart, end: keyEnd, text: name))
            }
        }
        return mine
    }

    /// The content of a block scalar whose node spans `start..<end` (its `|` or `>` header
    /// first): from the first character after the header's line to the last one that is not
    /// white space or a line break. Nil when it has none.
    static func blockContent(_ scalars: [Unicode.Scalar], start: Int, end: Int) -> Range<Int>? {
        let breaks: Set<UInt32> = [0x0A, 0x0D, 0x85, 0x2028, 0x2029]
        let blank: Set<UInt32> = [0x20, 0x09]
        var index = start
        while index < end, !breaks.contains(scalars[index].value) { index += 1 }
        while index < end, breaks.contains(scalars[index].value) || blank.contains(scalars[index].value) { index += 1 }
        var last = end
        while last > index, breaks.contains(scalars[last - 1].value) || blank.contains(scalars[last - 1].value) { last -= 1 }
        return index < last ? index..<last : nil
    }

    /// A fix's value as plain text: a double-quoted value (`"20:30"`) without its quotes and
    /// escapes, as a block scalar's content holds it.
    static func plain(_ value: String) -> String {
        guard value.hasPrefix("\""), let node = JSONReader.parse(value, file: "fix", maxBytes: 4096, maxDepth: 1).documents.first,
            let text = node.scalar
        else { return value }
        return text
    }

    /// Writes `bytes` into the file at `path` in place — the same file: its mode, owner, hard
    /// links and the link that may lead to it stay as they were (a rename over the path made a
    /// copy with default attributes and replaced an in-tree link). The space a longer text
    /// needs is reserved before a byte changes, so a full disk fails before the file is
    /// touched. Nil when written, else why not.
    static func rewriteInPlace(_ path: String, bytes: [UInt8]) -> String? {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return "not a regular file" }
        #if canImport(Glibc)
            if bytes.count > Int(info.st_size) {
                let reserved = posix_fallocate(descriptor, 0, off_t(bytes.count))
                guard reserved == 0 else { return String(cString: strerror(reserved)) }
            }
        #endif
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                pwrite(descriptor, buffer.baseAddress.map { $0 + written }, bytes.count - written, off_t(written))
            }
            if count < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            written += count
        }
        guard ftruncate(descriptor, off_t(bytes.count)) == 0, fsync(descriptor) == 0 else { return String(cString: strerror(errno)) }
        return nil
    }

    /// The changed lines of `old` → `new` (same number of lines), as `-`/`+` pairs under
    /// `file:line` (lines numbered as the parser numbers them).
    static func diff(_ old: String, _ new: String, file: String) -> String {
        let before = SourceFile(path: file, text: old)
        let after = SourceFile(path: file, text: new)
        var out = ""
        for number in 1...Swift.min(before.lineCount, after.lineCount) {
            guard let was = before.line(number), let now = after.line(number), was != now else { continue }
            out +=
                TextRenderer.oneLine("\(file):\(number)") + "\n- " + TextRenderer.oneLine(String(was)) + "\n+ "
                + TextRenderer.oneLine(String(now)) + "\n"
        }
        return out
    }
}
