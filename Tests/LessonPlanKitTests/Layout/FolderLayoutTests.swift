import Foundation
import Testing

/// The library's folders form layers: a folder uses only folders below it, so the arrows are one-way and
/// the picture in docs/design.md stays true. A name declared in one folder and used in another is a dependency.
@Suite struct FolderLayoutTests {
    /// Lowest first; folders on the same layer may not use each other.
    static let layers: [[String]] = [
        ["Text", "Grounding"],
        ["Plan"],
        ["Prompts", "Assessments"],
        ["Model"],
        ["Session"],
        ["Documents", "Settings"],
        ["Commands"],
        ["CLI"],
    ]

    static let library = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "Sources/LessonPlanKit")

    /// Every Swift file of the library by folder, comments removed.
    static func sources() throws -> [String: [(file: String, text: String)]] {
        var sources: [String: [(String, String)]] = [:]
        let enumerator = FileManager.default.enumerator(at: library, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let folder = url.path.dropFirst(library.path.count + 1).split(separator: "/").first.map(String.init) ?? ""
            let text = try String(contentsOf: url, encoding: .utf8)
                .replacing(/\/\/[^\n]*/, with: "")
            sources[folder, default: []].append((url.lastPathComponent, text))
        }
        return sources
    }

    @Test func everyFolderUsesOnlyTheLayersBelowIt() throws {
        let sources = try Self.sources()
        let rank = Dictionary(uniqueKeysWithValues: Self.layers.enumerated().flatMap { index, folders in folders.map { ($0, index) } })
        #expect(Set(sources.keys) == Set(rank.keys), "a new folder needs a place in the layers")

        var declared: [String: String] = [:]
        let declaration = /(?m)^(?:public |package |internal )?(?:final )?(?:struct|enum|class|protocol|actor|typealias) (\w+)/
        for (folder, files) in sources {
            for file in files {
                for match in file.text.matches(of: declaration) { declared[String(match.1)] = folder }
            }
        }
        var wrongWay: [String] = []
        for (folder, files) in sources {
            for file in files {
                let words = Set(file.text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
                for word in words {
                    guard let owner = declared[word], owner != folder, let from = rank[folder], let to = rank[owner] else { continue }
                    if to >= from { wrongWay.append("\(folder)/\(file.file) uses \(word) from \(owner)") }
                }
            }
        }
        #expect(wrongWay.isEmpty, "\(wrongWay.sorted().joined(separator: "\n"))")
    }
}
