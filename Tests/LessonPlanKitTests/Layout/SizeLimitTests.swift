import Foundation
import Testing

/// No Swift file over 600 lines, no function over 80 and no folder of the library over 4,000: past that a file
/// holds more than one idea, a function more than one step and a folder more than one room (issue #25), and a
/// reader can no longer count what is where.
@Suite struct SizeLimitTests {
    static let fileLimit = 600
    static let folderLimit = 4_000

    /// Files allowed over the limit for now, each with the reason. An entry that is back under the limit fails
    /// the test too, so the list only shrinks.
    static let exceptions: [String: String] = [:]

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "Sources")

    /// Every Swift file under Sources/, by its path below Sources/, with its line count (as `wc -l` counts).
    static func lineCounts() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(sources.standardizedFileURL.path.count + 1))
            counts[path] = try Data(contentsOf: url).reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        }
        return counts
    }

    @Test func noFileIsOverTheLimit() throws {
        let counts = try Self.lineCounts()
        #expect(counts.count > 100, "the sources were not found at \(Self.sources.path)")
        let over = counts.filter { $0.value > Self.fileLimit && Self.exceptions[$0.key] == nil }
            .sorted { $0.key < $1.key }.map { "\($0.key): \($0.value) lines" }
        #expect(over.isEmpty, "over \(Self.fileLimit) lines; split them:\n\(over.joined(separator: "\n"))")
    }

    @Test func everyExceptionIsStillOverTheLimit() throws {
        let counts = try Self.lineCounts()
        for (path, reason) in Self.exceptions {
            let lines = try #require(counts[path], "\(path) is listed as an exception (\(reason)) but does not exist")
            #expect(lines > Self.fileLimit, "\(path) is down to \(lines) lines: remove it from the exceptions")
        }
    }

    @Test func noLibraryFolderIsOverTheLimit() throws {
        var folders: [String: Int] = [:]
        for (path, lines) in try Self.lineCounts() {
            let parts = path.split(separator: "/")
            guard parts.count > 1, let target = FolderLayoutTests.targets.first(where: { $0.name == parts[0] }) else { continue }
            // A library folder as the layer test names it: a one-folder target is that folder, whatever is below it.
            let folder = target.folder ?? String(parts[parts.count > 2 ? 1 : 0])
            folders[folder, default: 0] += lines
        }
        #expect(folders.count > 5, "the library's folders were not found")
        let over = folders.filter { $0.value > Self.folderLimit }.sorted { $0.key < $1.key }.map { "\($0.key)/: \($0.value) lines" }
        #expect(over.isEmpty, "over \(Self.folderLimit) lines; move a room out:\n\(over.joined(separator: "\n"))")
    }

    /// The executable is a thin shell (signals, the command line's `App`, the exit status): the subcommands live in
    /// LessonPlanCLI, where the layer and size tests see them.
    @Test func theExecutableIsAThinShell() throws {
        let lines = try Self.lineCounts().filter { $0.key.hasPrefix("lessonplan/") }.values.reduce(0, +)
        #expect(lines > 0 && lines < 800, "Sources/lessonplan holds \(lines) lines")
    }

    static let functionLimit = 80

    /// Functions allowed over the limit for now, by file and first line, each with the reason.
    static let functionExceptions: [String: String] = [:]

    /// Every function, initializer and computed property body under Sources/ longer than the limit: its file, its
    /// first line and its length, counted from its first line to the brace that closes it at the same indentation.
    static func longFunctions() throws -> [(key: String, lines: Int)] {
        let start = try NSRegularExpression(
            pattern:
                #"^(\s*)(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|static|mutating|nonisolated|override|final|convenience)\s+)*(?:func\s|init[?]?[(<])"#
        )
        var found: [(String, Int)] = []
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(sources.standardizedFileURL.path.count + 1))
            let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() {
                let range = NSRange(line.startIndex..., in: line)
                guard let match = start.firstMatch(in: line, range: range), let indent = Range(match.range(at: 1), in: line)
                else { continue }
                let closing = String(line[indent]) + "}"
                guard
                    let end = lines[(index + 1)...].firstIndex(where: { $0 == closing || $0.hasPrefix(closing + " ") || $0.hasPrefix(closing + ")") })
                else { continue }
                let length = end - index + 1
                if length > functionLimit { found.append(("\(path): \(line.trimmingCharacters(in: .whitespaces))", length)) }
            }
        }
        return found
    }

    @Test func noFunctionIsOverTheLimit() throws {
        let long = try Self.longFunctions()
        let over = long.filter { Self.functionExceptions[$0.key] == nil }.map { "\($0.key) (\($0.lines) lines)" }
        #expect(over.isEmpty, "over \(Self.functionLimit) lines; split them:\n\(over.joined(separator: "\n"))")
        for (key, reason) in Self.functionExceptions {
            #expect(long.contains { $0.key == key }, "\(key) is listed (\(reason)) but is no longer over the limit: remove it")
        }
    }
}
