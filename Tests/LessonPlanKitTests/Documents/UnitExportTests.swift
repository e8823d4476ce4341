import Foundation
import LessonPlanKit
import TestSupport
import Testing

/// A unit's document: the overview, a contents list, and each lesson as its own part with its pacing and exit
/// ticket, rendered by the same code as a single lesson's export.
@Suite struct UnitExportTests {
    static func writtenUnit() async throws -> (SessionEngineTests.Fixture, SessionState) {
        let fixture = try await SessionEngineTests.Fixture(model: ScriptedModel([.text(UnitPlanTests.overview)]))
        _ = await fixture.engine.writeOverview(lessons: 3, inputs: fixture.inputs, framework: "default", repair: true) { _ in }
        for number in 1...2 { _ = await fixture.engine.writeLesson(number, options: FollowUpOptions()) { _ in } }
        return (fixture, await fixture.engine.state)
    }

    @Test func markdownHasTheOverviewContentsAndEachLessonAsAPart() async throws {
        let (fixture, state) = try await Self.writtenUnit()
        defer { fixture.home.remove() }
        let data = try UnitExport.render(state, format: .md, prompts: .builtIn, pandoc: nil)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("# Unit: Tides\n"))
        #expect(text.contains("## Overview") && text.contains("**Goal:** Students compare and order fractions"))
        #expect(text.contains("## Contents\n\n1. Lesson 1: Unit fractions — Students will name and draw unit fractions of a whole."))
        #expect(text.contains("3. Lesson 3: Comparing fractions — Students will compare two fractions using benchmarks and common denominators. (not written yet)"))
        // Each written lesson is a part of its own (a top heading) with its pacing and exit ticket one level down.
        let parts = text.components(separatedBy: "\n# Lesson ")
        #expect(parts.count == 3)
        for part in parts.dropFirst() {
            #expect(part.contains("\n### Pacing") && part.contains("\n### Exit Ticket"), "\(part.prefix(40))")
        }
        #expect(parts[1].hasPrefix("1: Unit fractions") && parts[2].hasPrefix("2: Equivalent fractions"))
    }

    @Test func htmlIsOnePageWithALinkedContentsList() async throws {
        let (fixture, state) = try await Self.writtenUnit()
        defer { fixture.home.remove() }
        let text = String(decoding: try UnitExport.render(state, format: .html, prompts: .builtIn, pandoc: nil), as: UTF8.self)
        #expect(text.components(separatedBy: "<html").count == 2 && text.components(separatedBy: "<main>").count == 2)
        #expect(text.contains("<a href=\"#lesson-1\">Lesson 1: Unit fractions</a>"))
        #expect(text.contains("<section class=\"lesson\" id=\"lesson-2\">\n<h1>Lesson 2: Equivalent fractions</h1>"))
        #expect(!text.contains("id=\"lesson-3\""))
    }

    @Test func aSingleLessonOrAFormatForPeopleNotIsRefusedInOneSentence() async throws {
        let (fixture, state) = try await Self.writtenUnit()
        defer { fixture.home.remove() }
        #expect(throws: ExportError.self) { try UnitExport.render(state, format: .json, prompts: .builtIn, pandoc: nil) }
        let single = SessionState(header: state.header)
        #expect(throws: ExportError.self) { try UnitExport.render(single, format: .md, prompts: .builtIn, pandoc: nil) }
    }
}
