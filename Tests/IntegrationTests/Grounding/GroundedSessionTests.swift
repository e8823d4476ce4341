import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanKit
import LessonPlanModel
import LessonPlanStore
import TestSupport
import Testing

/// The issue's done-when, against an in-memory model: a three-page PDF and a docx as sources, an answer quoting
/// once right, once on the wrong page and once not at all.
@Suite struct GroundedSessionTests {
    /// The passing plan with three quotations in its warm-up.
    static func plan(quotes: String) -> String {
        PlanFixtures.passing(minutes: 45).replacingOccurrences(
            of: "Pair-share two ideas.", with: "Pair-share two ideas. Read aloud: \(quotes)")
    }

    @Test func theRequestCarriesThePagesAndTheTwoProblemsAreRepairedOnce() async throws {
        let folder = try SourceFixtures.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = try SourceFixtures.threePagePDF(in: folder)
        let docx = try #require(try await SourceFixtures.docx(in: folder), "pandoc is needed to make the docx")
        let fixture = try await EngineFixture()
        defer { fixture.home.remove() }
        let (model, inputs, engine) = (fixture.model, fixture.inputs, fixture.engine)
        await engine.addSource(try SourceReader().read(pdf))
        await engine.addSource(try SourceReader().read(docx))

        let right = #""The gravity of the moon pulls the oceans toward it" (tides.pdf p. 2)"#
        let misplaced = #"“Neap tides come when the sun and the moon pull at right angles” (tides.pdf p. 1)"#
        let invented = #""The moon is made of green cheese" (tides.pdf p. 3)"#
        let draft = Self.plan(quotes: "\(right); \(misplaced); \(invented).")
        let repaired = Self.plan(
            quotes: #"\#(right); "Neap tides come when the sun and the moon pull at right angles" (tides.pdf p. 3)."#)
        model.script([.text(draft), .text(repaired)])

        let result = await engine.request(command: "/generate", refinement: Refinement(.generate, inputs: inputs)) { _ in }

        #expect(model.requests.count == 2, "exactly one repair is asked for")
        let first = try #require(model.inputs.first)
        for page in 1...3 { #expect(first.contains("[tides.pdf p. \(page)]")) }
        #expect(first.contains("[notes.docx p. 1]"))
        #expect(first.contains("Neap tides come when the sun and the moon pull at right angles."))
        #expect(first.contains(SourceFixtures.docxParagraphs[0]))
        #expect(first.contains(#""…" (NAME p. N)"#))
        // Page 3's text comes after page 2's marker and before notes.docx's: the pages are marked where they are.
        let page3 = try #require(first.range(of: "[tides.pdf p. 3]"))
        #expect(first[page3.upperBound...].hasPrefix("\nNeap tides"))

        let checked = try #require(result.outcomes.first?.quotes)
        #expect(checked.verdicts.map { $0.result } == [.verified, .wrongPage(found: 3), .notInSource])
        #expect(checked.problems.count == 2)
        #expect(result.outcomes.first?.needsRepair == true)
        let footer = Footer.lines(for: try #require(result.outcomes.first)).joined(separator: "\n")
        #expect(footer.contains("✗ 1 quote not in the source, 1 quote on the wrong page, 1 verified"))
        #expect(footer.contains("is on page 3, not page 1"))

        let second = try #require(model.inputs.last)
        #expect(second.contains("is on page 3, not page 1: cite it as (tides.pdf p. 3)"))
        #expect(second.contains("“The moon is made of green cheese” (tides.pdf p. 3) is not in the source"))
        #expect(second.contains("[tides.pdf p. 2]"), "the repair carries the sources too")

        #expect(result.outcomes.count == 2)
        let repair = try #require(result.outcomes.last)
        #expect(repair.kept == true)
        #expect(repair.quotes?.footer == "✓ 2 quotes verified")
        #expect(await engine.state.current?.text == repaired)
    }

    @Test func aRepairThatQuotesNoBetterIsNotKept() async throws {
        let folder = try SourceFixtures.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = try await EngineFixture()
        defer { fixture.home.remove() }
        let (model, inputs, engine) = (fixture.model, fixture.inputs, fixture.engine)
        await engine.addSource(try SourceReader().read(try SourceFixtures.threePagePDF(in: folder)))
        let draft = Self.plan(quotes: #""The moon is made of green cheese" (p. 3)."#)
        let worse = Self.plan(quotes: #""The moon is made of blue cheese" (p. 3)."#)
        model.script([.text(draft), .text(worse)])
        let result = await engine.request(command: "/generate", refinement: Refinement(.generate, inputs: inputs)) { _ in }
        #expect(result.outcomes.count == 2)
        #expect(result.outcomes.last?.kept == false)
        #expect(await engine.state.current?.text == draft)
        // One source: the cite form has no file name.
        let first = try #require(model.inputs.first)
        #expect(first.contains(#"in this form: "…" (p. N)"#))
    }

    /// The sources are kept in the transcript: a session read back from its file (as `resume`, `replay` and
    /// `export` read it) still checks quotations after the PDF is deleted, says the file is gone, and its
    /// printout's banner names what is not verified.
    @Test func theSourcesAreKeptWithTheSessionAndStillCheckAfterTheFileIsGone() async throws {
        let folder = try SourceFixtures.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = try SourceFixtures.threePagePDF(in: folder)
        let fixture = try await EngineFixture()
        defer { fixture.home.remove() }
        let (model, home, inputs, engine) = (fixture.model, fixture.home, fixture.inputs, fixture.engine)
        await engine.addSource(try SourceReader().read(pdf))
        await engine.addSource(try SourceReader().read(pdf))
        try await engine.removeSource(2)
        let right = #""The gravity of the moon pulls the oceans toward it" (p. 2)"#
        let invented = #""The moon is made of green cheese" (p. 3)"#
        // The repair asked for the invented quotation answers the same plan, so it is not kept.
        let draft = Self.plan(quotes: "\(right); \(invented).")
        model.script([.text(draft), .text(draft)])
        _ = await engine.request(command: "/generate", refinement: Refinement(.generate, inputs: inputs)) { _ in }
        let id = await engine.state.header.id
        try FileManager.default.removeItem(at: pdf)

        let state = try #require(TranscriptReader.state(of: try TranscriptReader.read(home.directory.transcript(id: id))))
        #expect(state.sources.count == 1, "one added twice, the second removed")
        let source = try #require(state.sources.first)
        #expect(source.name == "tides.pdf" && source.pages.count == 3 && source.sha256.count == 64)
        #expect(source.fileOnDiskNote()?.contains("is no longer at") == true)
        let current = try #require(state.current)
        let report = QuoteChecker.check(current.text, against: state.sources)
        #expect(report.verdicts.map(\.result) == [.verified, .notInSource])

        let framework = try PromptLibrary.builtIn.framework(Framework.defaultName)
        let (document, plan) = try #require(SessionReview.document(state, framework: framework))
        #expect(document.check?.quotations.count == 1)
        let html = PlanExport.renderHTML(document, plan: plan)
        let banner = try #require(html.range(of: "1 quotation is not verified against the sources"))
        let inBanner = try #require(html.range(of: "“The moon is made of green cheese” (p. 3) is not in the source"))
        let planStart = try #require(html.range(of: "<section class=\"plan\">"))
        #expect(banner.lowerBound < inBanner.lowerBound && inBanner.lowerBound < planStart.lowerBound, "the banner comes before the plan")
        let markdown = PlanExport.renderMarkdown(document, plan: plan)
        #expect(markdown.contains("> **⚠ 1 quotation is not verified against the sources"))
        // replay names the sources where they were added and removed.
        let replay = SessionReview.replay(state, options: ReplayOptions()).map { $0.rendered(colour: false) }.joined()
        #expect(replay.contains("added tides.pdf · 3 pages"))
        #expect(replay.contains("removed 2: tides.pdf"))
    }

    /// A transcript's path is anyone's: a device or a pipe named there is never read to compare.
    @Test func aSourcePathFromATranscriptIsReadOnlyWhenItIsARegularFile() {
        let source = SourceDocument(name: "x.pdf", path: "/dev/zero", bytes: 3, sha256: String(repeating: "0", count: 64), pages: ["a"], paged: true)
        #expect(source.fileOnDiskNote()?.contains("is no longer at /dev/zero") == true)
    }
}
