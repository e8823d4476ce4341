import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanKit
import TestSupport
import Testing

/// A unit as one IMS Common Cartridge, zipped by Info-ZIP's zip and read back with its unzip: the overview and
/// each written lesson as a teacher's page, model text escaped in the manifest.
@Suite struct UnitCartridgeTests {
    static func writtenUnit(overview: String = UnitFixtures.overview) async throws -> (EngineFixture, SessionState) {
        try await EngineFixture.writtenUnit(overview: overview)
    }

    /// A cartridge's file names, manifest first, and a way to read one, by Info-ZIP's unzip (not the writer's code).
    struct Unzipped {
        var file: URL
        var names: [String]

        init(_ data: Data) async throws {
            let folder = FileManager.default.temporaryDirectory.appending(path: "unit-cc-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            file = folder.appending(path: "unit.imscc")
            try data.write(to: file)
            let listing = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/unzip"), ["-Z1", file.path], mergingErrors: false)
            #expect(listing.status == 0, "\(listing.errors)")
            names = listing.output.split(separator: "\n").map(String.init)
        }

        func read(_ name: String) async throws -> String {
            let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/unzip"), ["-p", file.path, name], mergingErrors: false)
            #expect(result.status == 0, "\(name): \(result.errors)")
            return result.output
        }

        func remove() { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    }

    @Test func cartridgeHasTheOverviewAndEachWrittenLessonAsATeachersPage() async throws {
        let (fixture, state) = try await Self.writtenUnit()
        defer { fixture.home.remove() }
        let zip = try await Unzipped(try UnitExport.cartridge(state, prompts: .builtIn, tools: LMSTools()))
        defer { zip.remove() }
        // The manifest first, then the overview and lessons 1 and 2; lesson 3 is not written, so it has no page.
        #expect(zip.names.first == "imsmanifest.xml")
        let pages = zip.names.dropFirst()
        #expect(pages.count == 3 && pages.allSatisfy { $0.hasSuffix(".html") }, "\(zip.names)")
        #expect(pages.map { $0.split(separator: "/").last ?? "" } == ["overview.html", "lesson1.html", "lesson2.html"])
        let manifest = try await zip.read("imsmanifest.xml")
        #expect(manifest.contains("<schemaversion>1.1.0</schemaversion>"))
        #expect(manifest.contains("<lomimscc:string>Unit: Tides</lomimscc:string>"))
        for title in ["Unit overview", "Lesson 1: Unit fractions", "Lesson 2: Equivalent fractions"] {
            #expect(manifest.contains("<title>\(title)</title>"), "\(title)")
        }
        #expect(!manifest.contains("Lesson 3") && !manifest.contains("imsqti"))
        // Each page a webcontent resource for the teacher only.
        #expect(manifest.components(separatedBy: "type=\"webcontent\"").count == 4)
        #expect(manifest.components(separatedBy: "<lom:value>Instructor</lom:value>").count == 4)
        for page in pages { #expect(manifest.contains("<file href=\"\(page)\"/>"), "\(page)") }

        let overview = try await zip.read(String(pages[pages.startIndex]))
        #expect(overview.contains("<strong>Goal:</strong> Students compare and order fractions"))
        #expect(overview.contains("<li>Lesson 3: Comparing fractions (not written yet) — "))
        #expect(overview.contains("<li>Lesson 1: Unit fractions — ") && !overview.contains("href=\"#lesson-"))
        // A lesson's page is its own printable page, exit ticket and all.
        let lesson = try await zip.read(String(pages[pages.startIndex + 1]))
        #expect(lesson.hasPrefix("<!DOCTYPE html>") && lesson.contains("Exit Ticket"))
        #expect(lesson.contains("One key idea I learned"))
    }

    @Test func cartridgeEscapesModelTextInItsManifest() async throws {
        let overview = UnitFixtures.overview
            .replacingOccurrences(of: "Lesson 1: Unit fractions", with: "Lesson 1: Unit <script>alert(1)</script> fractions & wholes")
        let (fixture, state) = try await Self.writtenUnit(overview: overview)
        defer { fixture.home.remove() }
        let zip = try await Unzipped(try UnitExport.cartridge(state, prompts: .builtIn, tools: LMSTools()))
        defer { zip.remove() }
        let manifest = try await zip.read("imsmanifest.xml")
        #expect(manifest.contains("<title>Lesson 1: Unit &lt;script&gt;alert(1)&lt;/script&gt; fractions &amp; wholes</title>"))
        #expect(!manifest.contains("<script>") && !manifest.contains("& wholes"))
        let page = try await zip.read(String(zip.names[1]))
        #expect(!page.contains("<script>") && page.contains("Unit &lt;script&gt;alert(1)&lt;/script&gt; fractions &amp; wholes"))
    }

    @Test func cartridgeIsWrittenToItsOwnFileWithItsSentence() async throws {
        let (fixture, state) = try await Self.writtenUnit()
        defer { fixture.home.remove() }
        let cartridge = try #require(ExportTable.entry(.unit, "imscc"))
        #expect(cartridge.defaultFile(state, toTerminal: false) == "tides-unit.imscc")
        #expect(ExportTable.entry(.unit, "md")?.defaultFile(state, toTerminal: true) == nil)
        let made = try await cartridge.make(ExportJob(state: state, prompts: .builtIn))
        let url = fixture.home.url.appending(path: "tides-unit.imscc")
        #expect(
            ExportWriter.write(made, label: cartridge.label, to: url, replace: false)
                == .wrote("Wrote Common Cartridge of the unit (2 lessons) to \(url.path)."))
        #expect(try Data(contentsOf: url).prefix(2) == Data("PK".utf8))
    }

    @Test func aUnitFormatNotOfferedNamesImscc() async throws {
        let (fixture, state) = try await Self.writtenUnit()
        defer { fixture.home.remove() }
        await #expect {
            try await UnitExport.render(state, format: .json, prompts: .builtIn, pandoc: nil)
        } throws: { error in
            (error as? ExportError)?.message.contains("md, html, docx, odt or imscc") == true
        }
        let single = SessionState(header: state.header)
        await #expect(throws: ExportError.self) { try await UnitExport.cartridge(single, prompts: .builtIn, tools: LMSTools()) }
    }
}
