import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanKit
import TestSupport
import Testing

/// A unit's document: the overview, a contents list, and each lesson as its own part with its pacing and exit
/// ticket, rendered by the same code as a single lesson's export.
@Suite struct UnitExportTests {
    static func writtenUnit(overview: String = UnitPlanTests.overview) async throws -> (SessionEngineTests.Fixture, SessionState) {
        let fixture = try await SessionEngineTests.Fixture(model: ScriptedModel([.text(overview)]))
        _ = await fixture.engine.writeOverview(lessons: 3, inputs: fixture.inputs, framework: "default", repair: true) { _ in }
        for number in 1...2 { _ = await fixture.engine.writeLesson(number, options: FollowUpOptions()) { _ in } }
        return (fixture, await fixture.engine.state)
    }

    @Test func markdownHasTheOverviewContentsAndEachLessonAsAPart() async throws {
        let (fixture, state) = try await Self.writtenUnit()
        defer { fixture.home.remove() }
        let data = try await UnitExport.render(state, format: .md, prompts: .builtIn, pandoc: nil)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("# Unit: Tides\n"))
        #expect(text.contains("## Overview") && text.contains("**Goal:** Students compare and order fractions"))
        #expect(text.contains("## Contents\n\n1. Lesson 1: Unit fractions — Students will name and draw unit fractions of a whole."))
        #expect(
            text.contains(
                "3. Lesson 3: Comparing fractions — Students will compare two fractions using benchmarks and common denominators. (not written yet)"))
        // Each written lesson is a part of its own (a top heading) with its pacing and exit ticket one level down.
        let parts = text.components(separatedBy: "\n# Lesson ")
        #expect(parts.count == 3)
        for part in parts.dropFirst() {
            #expect(part.contains("\n### Pacing") && part.contains("\n### Exit Ticket"), "\(part.prefix(40))")
        }
        #expect(parts[1].hasPrefix("1: Unit fractions") && parts[2].hasPrefix("2: Equivalent fractions"))
    }

    /// A lesson's rubric that failed its check is left out of the unit's export with a sentence naming the lesson,
    /// as a single lesson's export says it (issue #35).
    @Test func aLessonsFailedRubricIsNamedBeforeTheUnitIsExported() async throws {
        let (fixture, _) = try await Self.writtenUnit()
        defer { fixture.home.remove() }
        fixture.model.script([.text("Rubric: Fractions\nStudents explain fractions well."), .text("Still no table.")])
        _ = await fixture.engine.assess(command: "/rubric", .rubric(levels: 4), repair: true) { _ in }
        let state = await fixture.engine.state
        #expect(state.rubrics.last?.problems.isEmpty == false)
        let notes = UnitExport.leftOutNotes(state)
        #expect(notes.count == 1, "\(notes)")
        #expect(notes.first?.hasPrefix("Lesson 2: Rubric 1 did not pass its check (") == true, "\(notes)")
        let text = String(decoding: try await UnitExport.render(state, format: .md, prompts: .builtIn, pandoc: nil), as: UTF8.self)
        #expect(!text.contains("Criterion"), "no empty rubric table")
    }

    @Test func htmlIsOnePageWithALinkedContentsList() async throws {
        let (fixture, state) = try await Self.writtenUnit()
        defer { fixture.home.remove() }
        let text = await String(decoding: try UnitExport.render(state, format: .html, prompts: .builtIn, pandoc: nil), as: UTF8.self)
        #expect(text.components(separatedBy: "<html").count == 2 && text.components(separatedBy: "<main>").count == 2)
        #expect(text.contains("<a href=\"#lesson-1\">Lesson 1: Unit fractions</a>"))
        #expect(text.contains("<section class=\"lesson\" id=\"lesson-2\">\n<h1>Lesson 2: Equivalent fractions</h1>"))
        #expect(!text.contains("id=\"lesson-3\""))
    }

    @Test func aSingleLessonOrAFormatForPeopleNotIsRefusedInOneSentence() async throws {
        let (fixture, state) = try await Self.writtenUnit()
        defer { fixture.home.remove() }
        await #expect(throws: ExportError.self) { try await UnitExport.render(state, format: .json, prompts: .builtIn, pandoc: nil) }
        let single = SessionState(header: state.header)
        await #expect(throws: ExportError.self) { try await UnitExport.render(single, format: .md, prompts: .builtIn, pandoc: nil) }
    }

    // MARK: Common Cartridge

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
        let overview = UnitPlanTests.overview
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
        #expect(ExportCommand.defaultUnitFile(state, format: .cartridge, toTerminal: false) == "tides-unit.imscc")
        #expect(ExportCommand.defaultUnitFile(state, format: .document(.md), toTerminal: true) == nil)
        let data = try await ExportCommand.unitDocument(state, format: .cartridge, prompts: .builtIn)
        let url = fixture.home.url.appending(path: "tides-unit.imscc")
        #expect(
            ExportCommand.writeUnit(data, format: .cartridge, state: state, to: url, replace: false)
                == .wrote("Wrote Common Cartridge of the unit (2 lessons) to \(url.path)."))
        #expect(try Data(contentsOf: url).prefix(2) == Data("PK".utf8))
    }

    @Test func exportUnitImsccParsesAndAFormatNotOfferedListsIt() throws {
        var context = CommandContext(inputs: try LessonInputs(grade: .sixTo8, topic: "Tides", minutes: 45), currentVersion: 1, versionCount: 1)
        context.unitLessons = 3
        let parsed = try ExportCommand.parse("unit imscc", context: context)
        #expect(parsed.unit && parsed.unitFormat == .cartridge && parsed.path == nil && parsed.quiz == nil)
        let named = try ExportCommand.parse("unit cc my unit.imscc --force", context: context)
        #expect(named.unitFormat == .cartridge && named.path == "my unit.imscc" && named.force)
        #expect(try ExportCommand.parse("unit docx", context: context).unitFormat == .document(.docx))
        for format in ["json", "pptx", "gift", ""] {
            #expect {
                try ExportCommand.parse("unit \(format)", context: context)
            } throws: { error in
                (error as? CommandError)?.message.contains("md, html, docx, odt or imscc") == true
            }
        }
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
