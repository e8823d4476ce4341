import Foundation
import Testing

/// The library's folders form layers: a folder uses only folders below it, so the arrows are one-way and
/// the picture in docs/design.md stays true. A name declared in one folder and used in another is a dependency.
@Suite struct FolderLayoutTests {
    /// Lowest first; folders on the same layer may not use each other. The libcurl transport uses no other
    /// folder; with the model's wire it is a target of its own, the only one that links libcurl. The store
    /// (transcripts on disk) and the documents (exports) sit below the engine (`Session`): they are handed
    /// values and never see its state. What the session looks like to a reader (`Presentation`: the footer, replay,
    /// the documents an export is made from) sits above the engine, which never asks it anything.
    static let layers: [[String]] = [
        ["Tools"],
        ["Text", "Grounding", "Privacy"],
        ["Plan"],
        ["Prompts", "Assessments", "Standards"],
        ["Schemas"],
        ["Transport"],
        ["Model"],
        ["Store"],
        ["Documents"],
        ["Session", "Settings"],
        ["Presentation"],
        ["Commands"],
        ["CLI"],
    ]

    /// The library's targets, lowest first, each with the folder it is when it is one folder (its files at its root).
    /// Package.swift makes each depend only on those before it, so the compiler refuses an arrow between targets
    /// the wrong way; this test checks the arrows between the folders inside a target.
    static let targets: [(name: String, folder: String?)] = [
        ("LessonPlanCore", nil), ("LessonPlanModel", nil), ("LessonPlanStore", "Store"), ("LessonPlanDocuments", "Documents"), ("LessonPlanKit", nil),
        ("LessonPlanCLI", "CLI"),
    ]

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every Swift file of the library by folder, comments removed, and the target each folder is in.
    static func sources() throws -> (files: [String: [(file: String, text: String)]], target: [String: Int]) {
        var sources: [String: [(String, String)]] = [:]
        var target: [String: Int] = [:]
        for (index, (name, single)) in targets.enumerated() {
            let base = root.appending(path: "Sources/\(name)")
            let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "swift" else { continue }
                let folder = single ?? url.path.dropFirst(base.path.count + 1).split(separator: "/").first.map(String.init) ?? ""
                let text = try String(contentsOf: url, encoding: .utf8)
                    .replacing(/\/\/[^\n]*/, with: "")
                sources[folder, default: []].append((url.lastPathComponent, text))
                target[folder] = index
            }
        }
        return (sources, target)
    }

    /// Each use of a name declared in a folder on the same layer or above, as `Folder/File.swift uses Name from Owner`.
    static func wrongWay(_ sources: [String: [(file: String, text: String)]], layers: [[String]]) -> [String] {
        let rank = Dictionary(uniqueKeysWithValues: layers.enumerated().flatMap { index, folders in folders.map { ($0, index) } })
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
        return wrongWay.sorted()
    }

    @Test func theScanFindsAnArrowTheWrongWay() {
        let sources: [String: [(file: String, text: String)]] = [
            "Store": [("SessionStore.swift", "public struct SessionStore {\n    var state: SessionState\n}\n")],
            "Session": [("SessionState.swift", "public struct SessionState {\n    var store: SessionStore\n}\n")],
        ]
        #expect(Self.wrongWay(sources, layers: [["Store"], ["Session"]]) == ["Store/SessionStore.swift uses SessionState from Session"])
        #expect(Self.wrongWay(sources, layers: [["Store", "Session"]]).count == 2, "a folder may not use one on its own layer")
    }

    /// `Process.waitUntilExit()` blocks its thread; in async code that is one of the cooperative pool's two, and
    /// every other task waits meanwhile. A child is awaited through its termination handler (``ToolProcess``).
    @Test func noCodeWaitsForAChildByBlockingAThread() throws {
        let root = Self.root
        let needle = ".waitUntil" + "Exit()"  // in two parts, so this file does not name it
        var blocking: [String] = []
        for folder in ["Sources", "Tests"] {
            let enumerator = FileManager.default.enumerator(at: root.appending(path: folder), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "swift" else { continue }
                let code = try String(contentsOf: url, encoding: .utf8).replacing(/\/\/[^\n]*/, with: "")
                if code.contains(needle) { blocking.append(url.lastPathComponent) }
            }
        }
        #expect(blocking.isEmpty, "\(blocking.sorted())")
    }

    /// No one outside the package uses the library, so nothing in it is `public`: what a target above needs is
    /// `package`, and the rest stays internal.
    @Test func nothingIsPublic() throws {
        let modifier = /(?m)^\s*(?:@\w+(?:\([^)]*\))?\s+|nonisolated\s+|final\s+|static\s+)*public\s/
        var declaring: [String] = []
        for folder in ["Sources", "Tests"] {
            let enumerator = FileManager.default.enumerator(at: Self.root.appending(path: folder), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "swift" else { continue }
                let code = try String(contentsOf: url, encoding: .utf8).replacing(/\/\/[^\n]*/, with: "")
                if code.contains(modifier) { declaring.append(url.lastPathComponent) }
            }
        }
        #expect(declaring.isEmpty, "\(declaring.sorted())")
    }

    /// A file that imports its own module is a warning, and CI builds with warnings as errors: a file moved
    /// into the target it used to import keeps that line unless someone looks.
    @Test func noFileImportsItsOwnTarget() throws {
        var importing: [String] = []
        for (name, _) in Self.targets {
            let base = Self.root.appending(path: "Sources/\(name)")
            let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "swift" else { continue }
                let code = try String(contentsOf: url, encoding: .utf8)
                if code.contains(try Regex("(?m)^import \(name)$")) { importing.append("\(name)/\(url.lastPathComponent)") }
            }
        }
        #expect(importing.isEmpty, "\(importing.sorted())")
    }

    /// What starts a process in a test: the test support's servers, readers and terminals, and the library's calls
    /// that run pandoc, zip or LibreOffice. A suite that uses one belongs in IntegrationTests, so the unit suites
    /// run in memory.
    static let processStarters = [
        "FakeOpenAIServer", "ChildProcess", "LoopbackProcess", "Python.", "PrintedPage.", "OfficeDocument", "LMSReader", "WorkerHost",
        "LessonplanBinary", "TerminalSession", "ToolProcess", "SourceFixtures.docx", "Pandoc(", "CanvasQTIPackage.render",
        "CommonCartridge.render", "KahootSheet.render", "UnitExport.cartridge",
    ]

    /// The test files under `folder` of Tests/ that use one of ``processStarters``.
    static func processStarting(in folder: String) throws -> [String] {
        let base = Self.root.appending(path: "Tests/\(folder)")
        var starting: [String] = []
        let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift", url.lastPathComponent != "FolderLayoutTests.swift" else { continue }
            let code = try String(contentsOf: url, encoding: .utf8).replacing(/\/\/[^\n]*/, with: "")
            if Self.processStarters.contains(where: code.contains) { starting.append(url.lastPathComponent) }
        }
        return starting.sorted()
    }

    /// The unit test targets, one for each library target, and the fixtures only they use: all stay in memory.
    static let unitTestFolders = [
        "LessonPlanCoreTests", "LessonPlanModelTests", "LessonPlanStoreTests", "LessonPlanDocumentsTests", "LessonPlanKitTests",
        "LessonPlanCLITests", "CoreTestSupport", "ModelTestSupport", "StoreTestSupport",
    ]

    /// The rest of Tests/: the suites and support that start processes, and the files they read.
    static let otherTestFolders = ["IntegrationTests", "EndToEndTests", "TestSupport", "Fixtures", "Readers"]

    @Test func noUnitSuiteStartsAProcess() throws {
        for folder in Self.unitTestFolders {
            let starting = try Self.processStarting(in: folder)
            #expect(starting.isEmpty, "unit suites in \(folder) that start a process; move them to IntegrationTests: \(starting)")
        }
        // Every folder of Tests/ is named above, so a new unit test target is checked too.
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.root.appending(path: "Tests").path).filter { !$0.hasPrefix(".") }
        #expect(Set(folders) == Set(Self.unitTestFolders + Self.otherTestFolders), "name a new folder of Tests/ in this test")
        // The scan finds what it looks for: the integration suites start processes.
        #expect(try Self.processStarting(in: "IntegrationTests").count >= 10)
    }

    @Test func everyFolderUsesOnlyTheLayersBelowIt() throws {
        let sources = try Self.sources().files
        #expect(Set(sources.keys) == Set(Self.layers.joined()), "a new folder needs a place in the layers")
        let wrongWay = Self.wrongWay(sources, layers: Self.layers)
        #expect(wrongWay.isEmpty, "\(wrongWay.joined(separator: "\n"))")
    }

    /// A folder's target is never below the target of a folder on a lower layer, so the targets' one-way
    /// dependencies are the layers' arrows.
    @Test func theTargetsFollowTheLayers() throws {
        let target = try Self.sources().target
        let ranked = Self.layers.enumerated().flatMap { rank, folders in folders.map { (rank, $0) } }
        for (rank, folder) in ranked {
            for (otherRank, other) in ranked where otherRank < rank {
                let (lower, upper) = (try #require(target[other]), try #require(target[folder]))
                #expect(lower <= upper, "\(other) (layer \(otherRank)) is in a target above \(folder)'s (layer \(rank))")
            }
        }
        #expect(Set(target.values).count == Self.targets.count, "every target holds a folder")
    }
}
