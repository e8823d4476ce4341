import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanKit
import TestSupport
import Testing

/// The HTML exports printed by headless Chromium and read back with `pdftotext`: what is asserted is what
/// prints. `scripts/render-docs` runs this suite with `LESSONPLAN_DOCS_DIR` set to keep the first page of
/// the plan, handout and failing-plan printouts as PNGs for the README.
@Suite(.serialized) struct PrintedPDFTests {
    /// A 45-minute plan whose exit ticket is numbered on from the CFU and which runs 10 minutes over.
    static let overPlan = PlanFixtures.overrunningTides

    /// Every framework the built-in templates offer, the default included.
    static let frameworks: [String] =
        [Framework.defaultName]
        + PromptLibrary.builtIn.frameworkNames.filter {
            $0 != Framework.defaultName
        }

    /// A plan in `framework` with stated times filling `minutes`, CFU questions, and final prompts written
    /// `10. 11. 12.` as if continuing an earlier list: on paper they must read 1, 2, 3.
    static func plan(for framework: Framework, minutes: Int) -> String {
        let timed = framework.headings.filter { !framework.unpacedHeadings.contains($0) }
        let last = framework.exitTicketHeading ?? timed.last ?? framework.headings[0]
        var lines = ["Lesson Plan: Floating and Sinking", ""]
        var clock = 0
        for (index, heading) in framework.headings.enumerated() {
            var title = "\(index + 1)) \(heading)"
            if let position = timed.firstIndex(of: heading) {
                let share = position == timed.count - 1 ? minutes - clock : minutes / timed.count
                let length = heading == framework.warmUpHeading ? (framework.warmUpMinutes ?? share) : share
                let end = position == timed.count - 1 ? minutes : clock + length
                title = "\(index + 1)) \(heading) (\(clock)–\(end) min)"
                clock = end
            }
            lines.append(title)
            if heading == framework.cfuHeading && heading != last {
                lines += ["1. Which objects floated?", "2. What did the heavy ones share?", "3. How could a ship float?"]
            } else if heading == last {
                if heading == framework.cfuHeading { lines.append("Ask these three questions, then collect the slips:") }
                lines += [
                    "10. Predict: will a grape float?", "11. Explain why a steel ship floats.", "12. Draw an object that sinks.",
                ]
            } else {
                lines.append("Students test objects in a tub of water and record what they see.")
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    static func export(_ plan: String, framework: Framework, minutes: Int = 45) -> (ExportDocument, PlanDocument) {
        let parsed = framework.document(of: plan)
        let report = framework.check(parsed, lessonMinutes: minutes)
        let document = ExportDocument(
            topic: "Floating and Sinking", grade: "3–5", minutes: minutes, created: Date(timeIntervalSince1970: 1_780_000_000),
            versions: [ExportVersion(number: 1, command: "/generate", createdAt: Date(timeIntervalSince1970: 1_780_000_000), text: plan)],
            currentVersion: 1, pacing: framework.pacing(of: parsed),
            framework: framework.name == Framework.defaultName ? "" : framework.title,
            check: ExportCheck(report, framework: framework))
        return (document, parsed)
    }

    static func printed(_ html: String, name: String) async throws -> (text: String, pdf: URL) {
        let directory = FileManager.default.temporaryDirectory.appending(path: "lessonplan-print-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pdf = try await PrintedPage.pdf(html: html, name: name, in: directory)
        return (try await PrintedPage.text(of: pdf), pdf)
    }

    /// Keeps a page (the first unless told) as `docs/<name>.png` when `scripts/render-docs` asks for it.
    static func keep(_ pdf: URL, as name: String, page: Int = 1) async throws {
        guard let folder = ProcessInfo.processInfo.environment["LESSONPLAN_DOCS_DIR"], !folder.isEmpty else { return }
        try await PrintedPage.pagePNG(of: pdf, page: page, to: URL(fileURLWithPath: folder).appending(path: "\(name).png"))
    }

    /// The number (from 1) of the first printed page whose text holds `words`.
    static func page(holding words: String, in text: String) -> Int? {
        let pages = text.split(separator: "\u{0C}", omittingEmptySubsequences: false)
        return pages.firstIndex { $0.contains(words) }.map { $0 + 1 }
    }

    /// Whether `text` has a list line numbered `number` with `words` after it, as pdftotext lays it out.
    static func numbered(_ number: Int, _ words: String, in text: String) -> Bool {
        text.split(separator: "\n").contains { line in
            // A page break (form feed) may open the line.
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.hasPrefix("\(number). ") && trimmed.contains(words)
        }
    }

    @Test(arguments: frameworks)
    func eachFrameworksPlanPrintsWithItsNumberingAndLessonEnd(name: String) async throws {
        let framework = try PromptLibrary.builtIn.framework(name)
        let (document, plan) = Self.export(Self.plan(for: framework, minutes: 45), framework: framework)
        let html = PlanExport.renderHTML(document, plan: plan)
        let (text, pdf) = try await Self.printed(html, name: "plan-\(name)")
        defer { try? FileManager.default.removeItem(at: pdf.deletingLastPathComponent()) }
        #expect(Self.numbered(1, "Predict: will a grape float?", in: text), "\(text)")
        #expect(Self.numbered(2, "Explain why a steel ship floats.", in: text))
        #expect(Self.numbered(3, "Draw an object that sinks.", in: text))
        #expect(!Self.numbered(10, "Predict", in: text) && !Self.numbered(12, "Draw", in: text))
        #expect(text.contains("Lesson ends at 45 min"))
        #expect(text.contains("Version 1 of 1"))
        #expect(!text.contains("does not pass the plan check"), "\(document.check?.problems ?? [])")
        // The pacing prints before the plan: it is what a teacher glances at.
        let pacing = try #require(text.range(of: "Pacing"))
        let objective = try #require(text.range(of: "Students test objects") ?? text.range(of: "Predict"))
        #expect(pacing.lowerBound < objective.lowerBound)
        // Where sections say the same line, the teacher's copy says so, after the pacing.
        let repeated = Self.plan(for: framework, minutes: 45).components(separatedBy: "Students test objects").count > 2
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("Content notes (for the teacher") == repeated, "\(text)")
        #expect(flat.contains("repeat the same line, “Students test objects") == repeated)
        if let notes = text.range(of: "Content notes") { #expect(pacing.lowerBound < notes.lowerBound) }
        if name == Framework.defaultName { try await Self.keep(pdf, as: "printout-plan") }
    }

    @Test func aFailingPlanPrintsItsBannerAndItsOverrun() async throws {
        let framework = try PromptLibrary.builtIn.framework(Framework.defaultName)
        // No Materials, and the exit ticket runs 10 minutes past the end of a 45-minute lesson.
        let plan = Self.overPlan.replacingOccurrences(of: "2) Materials\n- Globe\n", with: "")
        let (document, parsed) = Self.export(plan, framework: framework)
        let html = PlanExport.renderHTML(document, plan: parsed)
        let (text, pdf) = try await Self.printed(html, name: "failing")
        defer { try? FileManager.default.removeItem(at: pdf.deletingLastPathComponent()) }
        #expect(text.contains("This version does not pass the plan check"))
        #expect(text.contains("This version does not pass the plan check (2 problems)"))
        #expect(text.contains("The plan has no “Materials” section."))
        #expect(text.contains("Pacing adds up to 55 min, not 45."))
        #expect(text.contains("Lesson ends at 45 min"))
        #expect(text.contains("Runs over: the plan ends at 55 min"))
        #expect(Self.numbered(1, "Draw the moon and the bulges.", in: text) && !Self.numbered(10, "Draw the moon", in: text))
        // In the pacing table the lesson's end stands between the last section inside it and the one past it.
        let table = try #require(text.components(separatedBy: "Lesson ends at 45 min").first)
        let rows = table.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let end = try #require(rows.firstIndex { $0.hasPrefix("Lesson ends") })
        #expect(rows[..<end].contains { $0.hasPrefix("Check for Understanding") && $0.contains("40–45") })
        #expect(rows[end...].contains { $0.hasPrefix("Exit Ticket") && $0.contains("45–55") })
        try await Self.keep(pdf, as: "printout-failing")
    }

    @Test func aQuizAndRubricPrintWithTheKeyOnAPageOfItsOwn() async throws {
        let (document, plan) = try EditableDocumentTests.document()
        let (text, pdf) = try await Self.printed(PlanExport.renderHTML(document, plan: plan), name: "quiz")
        defer { try? FileManager.default.removeItem(at: pdf.deletingLastPathComponent()) }
        #expect(Self.numbered(1, "Why does a steel ship float?", in: text) && Self.numbered(2, "Which will float?", in: text))
        #expect(text.contains("A prediction tied to density."))
        let keyPage = try #require(EditableDocumentTests.page(holding: "Answer key", in: text))
        #expect(keyPage.hasPrefix("Answer key: exit quiz"), "\(keyPage.prefix(200))")
        #expect(keyPage.contains("B) Its shape pushes aside a lot of water"))
        #expect(!(text.components(separatedBy: "Answer key").first ?? "").contains("whatever their shape"))

        var handout = document
        handout.kind = .materials
        let (students, handoutPDF) = try await Self.printed(PlanExport.renderHTML(handout, plan: plan), name: "quiz-handout")
        defer { try? FileManager.default.removeItem(at: handoutPDF.deletingLastPathComponent()) }
        #expect(Self.numbered(1, "Why does a steel ship float?", in: students) && students.contains("I used density."))
        for hidden in ["Answer key", "whatever their shape", "A prediction tied to density."] {
            #expect(!students.contains(hidden), "the handout prints \(hidden)")
        }
        // The pictures in the README: the students' quiz, and the teacher's rubric.
        try await Self.keep(handoutPDF, as: "printout-quiz", page: try #require(Self.page(holding: "Why does a steel ship float?", in: students)))
        try await Self.keep(pdf, as: "printout-rubric", page: try #require(Self.page(holding: "Criterion", in: text)))
        let markdown = PlanExport.renderMarkdown(document, plan: plan)
        // Options and misconceptions are lists nested in their item (three spaces, to the item's text), not text
        // four spaces in, which a CommonMark viewer runs into the item's line.
        #expect(markdown.contains("## Exit quiz\n\n1. Why does a steel ship float?\n   - A) Steel is lighter than water"))
        #expect(markdown.contains("| Criterion | Beginning (1) | Developing (2) | Proficient (3) | Exemplary (4) |"))
        #expect(markdown.contains("## Answer key: exit quiz\n\n1. B) Its shape pushes aside a lot of water\n   - A: Materials"))
    }

    @Test func handoutsPrintWithWriteInLinesAndNoTeacherFurniture() async throws {
        let handouts = """
            Floating and Sinking — student handout
            Name: ______________   Date: __________

            Practice (10 min)
            1. Test five objects and record whether each floats.

            Check your understanding
            1. Which objects floated?
            Answer: the cork and the apple
            2. What did the heavy ones share?

            Exit Ticket
            10. Predict: will a grape float?
            11. Explain why a steel ship floats.
            12. Draw an object that sinks.

            7) Differentiation
            - Support: a picture word bank
            """
        let document = ExportDocument(
            topic: "Floating and Sinking", grade: "3–5", minutes: 45, created: Date(timeIntervalSince1970: 1_780_000_000),
            versions: [ExportVersion(number: 1, command: "/materials", createdAt: Date(timeIntervalSince1970: 1_780_000_000), text: handouts)],
            currentVersion: 1, kind: .materials, planVersion: 1, latestPlanVersion: 2)
        let plan = PlanDocument(parsing: handouts, headings: try PromptLibrary.builtIn.framework(Framework.defaultName).headings)
        let (text, pdf) = try await Self.printed(PlanExport.renderHTML(document, plan: plan), name: "handouts")
        defer { try? FileManager.default.removeItem(at: pdf.deletingLastPathComponent()) }
        #expect(text.contains("Name") && text.contains("Date") && text.contains("Class"))
        #expect(Self.numbered(1, "Predict: will a grape float?", in: text) && Self.numbered(3, "Draw an object that sinks.", in: text))
        #expect(!Self.numbered(10, "Predict", in: text))
        for furniture in ["cork", "Differentiation", "word bank", "10 min", "Pacing", "Grade band"] {
            #expect(!text.contains(furniture), "the handout prints \(furniture)")
        }
        // Made from an older plan: that is the teacher's news (the terminal says it), not the students'.
        #expect(!text.contains("Made from plan v1") && !text.contains("/materials"))
        #expect(text.contains("Handouts 1 from plan v1"))
        try await Self.keep(pdf, as: "printout-handout")
    }
}
