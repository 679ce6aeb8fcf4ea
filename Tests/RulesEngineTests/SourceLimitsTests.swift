import Foundation
import Testing

/// Every target stays readable: no file of Sources over 400 lines and no function, closure
/// or computed property over 60, so each part is found in a file named for it (the engine,
/// which the app links, measured also by its functions' declarations).
@Suite struct SourceLimitsTests {
    static let maxFileLines = 400
    static let maxFunctionLines = 60

    static var engineSources: [URL] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = root.appendingPathComponent("Sources/RulesEngine")
        let walk = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        var files: [URL] = []
        while let url = walk?.nextObject() as? URL { if url.pathExtension == "swift" { files.append(url) } }
        return files.sorted { $0.path < $1.path }
    }

    /// A line without its string literals and `//` comment (braces there do not count).
    static func code(_ line: Substring) -> String {
        var out = ""
        var inString = false
        var escaped = false
        var previous: Character = " "
        for character in line {
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
            } else if character == "\"" {
                inString = true
            } else if character == "/", previous == "/" {
                out.removeLast()
                break
            } else {
                out.append(character)
            }
            previous = character
        }
        return out
    }

    /// Each function or initialiser of `text` (its first line and its length in lines, from
    /// the declaration to its closing brace).
    static func functions(in text: String) -> [(line: Int, length: Int)] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(code)
        let declaration =
            #/^\s*(@\w+\s+)*((public|private|fileprivate|internal|package|static|mutating|override|nonisolated|final)\s+)*(func\s|init[?!]?[(<])/#
        var result: [(Int, Int)] = []
        for (start, line) in lines.enumerated() where line.contains(declaration) {
            var depth = 0
            var opened = false
            var end = start
            scan: for index in start..<lines.count {
                for character in lines[index] {
                    if character == "{" {
                        depth += 1
                        opened = true
                    } else if character == "}" {
                        depth -= 1
                    }
                }
                end = index
                if opened, depth <= 0 { break scan }
                // A requirement without a body (a protocol's) ends at its line.
                if !opened, index > start, lines[index].trimmingCharacters(in: .whitespaces).isEmpty { break scan }
            }
            if opened { result.append((start + 1, end - start + 1)) }
        }
        return result
    }

    /// Every member block of `text` — a function's, an initialiser's, a computed property's,
    /// an accessor's or a closure's body whose parent is a type (or the file) — as its first
    /// line and its length in lines. Type bodies are not measured (their members are); blocks
    /// inside a member count towards it. String literals, comments and the lines of
    /// multi-line strings do not count their braces.
    static func memberBlocks(in text: String) -> [(line: Int, length: Int)] {
        let raw = text.split(separator: "\n", omittingEmptySubsequences: false)
        var lines: [String] = []
        var inMultiline = false
        for line in raw {
            let quotes = line.components(separatedBy: "\"\"\"").count - 1
            if inMultiline {
                lines.append("")
                if quotes % 2 == 1 { inMultiline = false }
                continue
            }
            if quotes % 2 == 1 {
                inMultiline = true
                lines.append(code(Substring(line.components(separatedBy: "\"\"\"")[0])))
                continue
            }
            lines.append(code(line))
        }
        let typeDeclaration =
            #/^\s*(@[\w.]+(\([^)]*\))?\s+)*((public|private|fileprivate|internal|package|final|indirect|nonisolated)\s+)*(struct|enum|class|extension|protocol|actor)\s/#
        /// Whether the brace at `column` of line `index` opens a type's body: its declaration
        /// starts on that line or a few lines above with no brace between.
        func opensType(_ index: Int, _ column: String.Index) -> Bool {
            if lines[index][..<column].contains(typeDeclaration) { return true }
            var above = index - 1
            while above >= 0, above >= index - 4, !lines[above].contains("{"), !lines[above].contains("}") {
                if lines[above].contains(typeDeclaration) { return true }
                above -= 1
            }
            return false
        }
        var stack: [(type: Bool, start: Int, measured: Bool)] = []
        var result: [(line: Int, length: Int)] = []
        for (index, line) in lines.enumerated() {
            for column in line.indices {
                if line[column] == "{" {
                    let type = opensType(index, column)
                    let parentIsType = stack.last?.type ?? true
                    stack.append((type, index, !type && parentIsType))
                } else if line[column] == "}", let block = stack.popLast(), block.measured {
                    result.append((block.start + 1, index - block.start + 1))
                }
            }
        }
        return result
    }

    @Test func theScannerMeasuresAFunction() {
        let text = "struct A {\n    func f() {\n        let s = \"{\" // }\n        if true {\n        }\n    }\n}\n"
        #expect(Self.functions(in: text).map(\.length) == [5])
    }

    /// Every Swift file of every target under Sources.
    static var allSources: [URL] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let walk = FileManager.default.enumerator(at: root.appendingPathComponent("Sources"), includingPropertiesForKeys: nil)
        var files: [URL] = []
        while let url = walk?.nextObject() as? URL { if url.pathExtension == "swift" { files.append(url) } }
        return files.sorted { $0.path < $1.path }
    }

    @Test func theScannerMeasuresMembersNotTypes() {
        let text = """
            struct A {
                var x: Int {
                    1
                }
                func f() {
                    let g = { (a: Int) in
                        a
                    }
                }
                static let c = [1].map { value in
                    value
                }
            }
            """
        #expect(Self.memberBlocks(in: text).map(\.length) == [3, 5, 3])
    }

    /// Every target, not only the engine: no file over 400 lines, and no function,
    /// initialiser, computed property or closure over 60.
    @Test func everyTargetsFilesAndBlocksStayShort() throws {
        var files = 0
        for file in Self.allSources {
            let text = try String(contentsOf: file, encoding: .utf8)
            let name = file.path.components(separatedBy: "Sources/").last.map { "Sources/" + $0 } ?? file.path
            files += 1
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
            #expect(lines <= Self.maxFileLines, "\(name) has \(lines) lines (at most \(Self.maxFileLines)): split it by what it does")
            for block in Self.memberBlocks(in: text) where block.length > Self.maxFunctionLines {
                Issue.record("\(name):\(block.line): a block of \(block.length) lines (at most \(Self.maxFunctionLines)): split it by what it does")
            }
        }
        #expect(files > 200)
    }

    @Test func engineFilesAndFunctionsStayShort() throws {
        let files = Self.engineSources
        #expect(files.count > 20)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let name = file.path.components(separatedBy: "Sources/").last ?? file.path
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
            #expect(lines <= Self.maxFileLines, "\(name) has \(lines) lines (at most \(Self.maxFileLines)): split it by what it decides")
            for function in Self.functions(in: text) where function.length > Self.maxFunctionLines {
                Issue.record("\(name):\(function.line): a function of \(function.length) lines (at most \(Self.maxFunctionLines))")
            }
        }
    }

    /// An evaluation either succeeds or becomes a `problem` record naming the expression's
    /// file and line: no `try?` in the engine turns an error into a silent `false` (or a
    /// silent anything).
    @Test func noErrorIsSilencedInTheEngine() throws {
        for file in Self.engineSources {
            let text = try String(contentsOf: file, encoding: .utf8)
            let name = file.path.components(separatedBy: "Sources/").last ?? file.path
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where Self.code(line).contains("try?") {
                Issue.record("\(name):\(index + 1): 'try?' silences an error: handle it or report a problem record")
            }
        }
    }

    /// The engine's own files compose the parts; a part (a route table, the planner, the
    /// reader, judgement, a gate, …) is a type with its own inputs and outputs and never
    /// extends the engine to write its fields.
    static let engineFiles: Set<String> = [
        "OperatorEngine.swift", "Run.swift", "Verification.swift", "Engine+Apply.swift", "Engine+Decide.swift", "Engine+Deliveries.swift",
        "Engine+Explain.swift", "Engine+Lines.swift", "Engine+Outcomes.swift", "Engine+Time.swift",
    ]

    @Test func noPartFileExtendsTheEngine() throws {
        var composing = 0
        for file in Self.engineSources {
            let text = try String(contentsOf: file, encoding: .utf8)
            let extends = text.split(separator: "\n").contains { $0.hasPrefix("extension OperatorEngine") }
            if Self.engineFiles.contains(file.lastPathComponent) {
                if extends { composing += 1 }
                continue
            }
            let name = file.path.components(separatedBy: "Sources/").last ?? file.path
            if extends { Issue.record("\(name) extends OperatorEngine: make the part a type that returns what it decided") }
        }
        // The scan found the engine's own extensions (it is not looking at nothing).
        #expect(composing >= 5)
    }

    /// The engine's tests build their days from Swift values (`EngineDays`): none runs a
    /// scenario through the simulator, whose own tests cover scenarios and the device model.
    @Test func theEnginesTestsDoNotUseTheSimulator() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20)
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("import RulesSimulator") || line.hasPrefix("@testable import RulesSimulator")
            {
                Issue.record("\(file): \(line) — build the day with EngineDays")
            }
        }
    }
}
