import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanKit
import TestSupport
import Testing

/// A unit's document: the overview, a contents list, and each lesson as its own part with its pacing and exit
/// ticket, rendered by the same code as a single lesson's export.
@Suite struct UnitExportTests {
    static func writtenUnit(overview: String = UnitFixtures.overview) async throws -> (EngineFixture, SessionState) {
        try await EngineFixture.writtenUnit(overview: overview)
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

    @Test func exportUnitImsccParsesAndAFormatNotOfferedListsIt() throws {
        var context = CommandContext(inputs: try LessonInputs(grade: .sixTo8, topic: "Tides", minutes: 45), currentVersion: 1, versionCount: 1)
        context.unitLessons = 3
        let parsed = try ExportCommand.parse("unit imscc", context: context)
        #expect(parsed.entry.subject == .unit && parsed.entry.name == "imscc" && parsed.path == nil && parsed.quizChoice == nil)
        let named = try ExportCommand.parse("unit cc my unit.imscc --force", context: context)
        #expect(named.entry.name == "imscc" && named.path == "my unit.imscc" && named.force)
        #expect(try ExportCommand.parse("unit docx", context: context).entry.format == .docx)
        for format in ["json", "pptx", "gift", ""] {
            #expect {
                try ExportCommand.parse("unit \(format)", context: context)
            } throws: { error in
                (error as? CommandError)?.message.contains("md, html, docx, odt or imscc") == true
            }
        }
    }

}
