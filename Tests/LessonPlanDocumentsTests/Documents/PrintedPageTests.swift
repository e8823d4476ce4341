import CoreTestSupport
import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanStore
import Testing

/// What a teacher prints: the banner, the version and local date, pacing near the top, lists numbered by
/// their own list, and handouts fit for students.
@Suite struct PrintedPageTests {
    static let utc = TimeZone(identifier: "UTC") ?? .current

    /// A 45-minute plan whose exit ticket is numbered on from the CFU and which runs 10 minutes over.
    static let overPlan = PlanFixtures.overrunningTides

    static func document(
        plan: String = overPlan, kind: TurnKind = .plan, check: ExportCheck? = nil, showModel: Bool = false,
        planVersion: Int? = nil, latest: Int? = nil
    ) -> (ExportDocument, PlanDocument) {
        let framework = Framework(
            name: "default", headings: PlanCorpus.headings, warmUpHeading: "Warm-Up (5 min)", warmUpMinutes: 5,
            cfuHeading: "Check for Understanding", exitTicketHeading: "Exit Ticket",
            unpacedHeadings: ["Homework / Extension (optional)"])
        let parsed = framework.document(of: plan)
        let report = framework.check(parsed, lessonMinutes: 45)
        let document = ExportDocument(
            topic: "Tides", grade: "3–5", minutes: 45, model: "gpt-secret-model",
            created: Date(timeIntervalSince1970: 1_750_000_000),
            versions: [
                ExportVersion(number: 1, command: "/generate", createdAt: Date(timeIntervalSince1970: 1_750_000_000), text: "old"),
                ExportVersion(number: 2, command: "/shorten", createdAt: Date(timeIntervalSince1970: 1_750_000_100), text: plan),
            ],
            currentVersion: 2, pacing: kind == .plan ? framework.pacing(of: parsed) : [], kind: kind,
            check: kind == .plan ? (check ?? ExportCheck(report, framework: framework)) : nil,
            planVersion: planVersion, latestPlanVersion: latest, showModel: showModel)
        return (document, parsed)
    }

    @Test func aFailingVersionCarriesABannerNamingItsProblems() throws {
        let (document, plan) = Self.document()
        let check = try #require(document.check)
        #expect(!check.passed && check.problems.contains("Pacing adds up to 55 min, not 45."))
        let html = PlanExport.renderHTML(document, plan: plan, timeZone: Self.utc)
        #expect(html.contains("<div class=\"banner\" role=\"alert\">"))
        #expect(html.contains("This version does not pass the plan check (1 problem)"))
        #expect(html.contains("<li>Pacing adds up to 55 min, not 45.</li>"))
        let markdown = PlanExport.renderMarkdown(document, plan: plan, timeZone: Self.utc)
        #expect(markdown.contains("> **⚠ This version does not pass the plan check (1 problem)"))
        #expect(markdown.contains("> - Pacing adds up to 55 min, not 45.\n"))
        let json = try #require(try JSONSerialization.jsonObject(with: PlanExport.renderJSON(document)) as? [String: Any])
        #expect((json["check"] as? [String: Any])?["passed"] as? Bool == false)

        var passing = document
        passing.check = ExportCheck(passed: true, problems: [])
        #expect(!PlanExport.renderHTML(passing, plan: plan).contains("class=\"banner\""))
        #expect(!PlanExport.renderMarkdown(passing, plan: plan).contains("⚠"))
    }

    @Test func theVersionAndItsLocalDateAreOnThePageAndTheModelOnlyWhenAsked() {
        let (document, plan) = Self.document()
        let newYork = TimeZone(identifier: "America/New_York") ?? Self.utc
        let html = PlanExport.renderHTML(document, plan: plan, timeZone: newYork)
        #expect(html.contains("<p class=\"version\">Version 2 of 2 · 15 June 2025, 11:08 · /shorten</p>"))
        #expect(PlanExport.renderHTML(document, plan: plan, timeZone: Self.utc).contains("15 June 2025, 15:08"))
        for page in [html, PlanExport.renderMarkdown(document, plan: plan, timeZone: newYork)] {
            #expect(!page.contains("2025-06-15T") && !page.contains("gpt-secret-model"))
            #expect(!page.contains(">Model<") && !page.contains("**Model:**"))
        }
        var shown = document
        shown.showModel = true
        #expect(PlanExport.renderHTML(shown, plan: plan).contains("<span><strong>Model:</strong> gpt-secret-model</span>"))
        #expect(PlanExport.renderMarkdown(shown, plan: plan).contains("- **Model:** gpt-secret-model"))
    }

    @Test func pacingSitsNearTheTopWithTheLessonEndAndTheOverrunMarked() throws {
        let (document, plan) = Self.document()
        let html = PlanExport.renderHTML(document, plan: plan)
        let pacing = try #require(html.range(of: "<h2>Pacing</h2>"))
        let firstSection = try #require(html.range(of: "<h2>Learning Objective</h2>"))
        #expect(pacing.lowerBound < firstSection.lowerBound)
        #expect(html.contains("<tr><td>Direct Instruction</td><td>5–17</td><td>12 min</td></tr>"))
        // The lesson's end stands between the last section inside it and the one that runs past it.
        #expect(
            html.contains(
                "<tr><td>Check for Understanding</td><td>40–45</td><td>5 min</td></tr>\n"
                    + "<tr class=\"lesson-end\"><td>Lesson ends</td><td>45</td><td></td></tr>\n"
                    + "<tr class=\"over\"><td>Exit Ticket</td><td>45–55</td><td>10 min</td></tr>"))
        #expect(html.contains("timeline-bar timeline-over\" style=\"left: 81.82%; width: 18.18%\""))
        #expect(html.contains("Lesson ends at 45 min ▲"))
        #expect(html.contains("Runs over: the plan ends at 55 min, 10 min past the lesson&#39;s end at 45."))
        let markdown = PlanExport.renderMarkdown(document, plan: plan)
        #expect(markdown.contains("| **Lesson ends** | **45** | |\n| Exit Ticket (past the end) | 45–55 | 10 min |"))
        #expect(
            markdown.range(of: "## Pacing")?.lowerBound ?? markdown.endIndex < markdown.range(of: "## Learning Objective")?.lowerBound
                ?? markdown.startIndex)
    }

    @Test func exitTicketPromptsAreNumberedOneTwoThree() {
        let (document, plan) = Self.document()
        let html = PlanExport.renderHTML(document, plan: plan)
        #expect(html.contains("<h2>Exit Ticket (45–55 min)</h2>\n<ol>\n<li>Draw the moon and the bulges.</li>"))
        #expect(!html.contains("start=\""))
        let markdown = PlanExport.renderMarkdown(document, plan: plan)
        #expect(markdown.contains("## Exit Ticket (45–55 min)\n\n1. Draw the moon and the bulges.\n2. Name the force.\n3. Explain a spring tide."))
        // An unnamed heading is a heading too, and its list restarts.
        let wrapped = Self.document(plan: PlanCorpus.wrapUp)
        let page = PlanExport.renderHTML(wrapped.0, plan: wrapped.1)
        #expect(page.contains("<h2>Wrap-up (5 min)</h2>\n<ol>\n<li>Find the area of a 2 by 5 rectangle.</li>"))
    }

    static let handouts = """
        Tides — student handout
        Name: ______________   Date: __________

        Practice (10 min)
        1. Label the diagram.

        Exit Ticket
        1. What pulls the ocean?
        Answer: the moon
        2. Why two bulges?

        7) Differentiation
        - Support: word bank
        """

    @Test func handoutsHaveWriteInLinesRoomToWriteAndNoTeacherFurniture() {
        let (document, plan) = Self.document(plan: Self.handouts, kind: .materials, planVersion: 2, latest: 2)
        let html = PlanExport.renderHTML(document, plan: plan, timeZone: Self.utc)
        #expect(html.contains("<div class=\"write-in\"><span>Name <i></i></span><span>Date <i></i></span><span>Class <i></i></span></div>"))
        #expect(html.contains("<li>What pulls the ocean?<div class=\"write\"><i></i><i></i><i></i></div></li>"))
        #expect(html.contains("<h3>Practice</h3>") || html.contains("<h2>Practice</h2>"))
        for furniture in ["the moon", "Differentiation", "word bank", "10 min", "Pacing", "Grade band", "Version 2", "______"] {
            #expect(!html.contains(furniture), "handout shows \(furniture)")
        }
        #expect(html.contains("<footer>Handouts 2 from plan v2 · 15 June 2025, 15:08</footer>"))
        #expect(!html.contains("class=\"stale\""))
        let markdown = PlanExport.renderMarkdown(document, plan: plan)
        #expect(markdown.contains("Name: ______________________   Date: ____________   Class: ____________"))
        #expect(markdown.contains("1. What pulls the ocean?\n\n   Answer: ______"))
        #expect(!markdown.contains("the moon") && !markdown.contains("Differentiation"))
    }

    @Test func aStaleHandoutSaysNothingOfItToTheStudents() {
        let (document, plan) = Self.document(plan: Self.handouts, kind: .materials, planVersion: 1, latest: 3)
        #expect(document.isStale)
        for page in [PlanExport.renderHTML(document, plan: plan), PlanExport.renderMarkdown(document, plan: plan)] {
            #expect(!page.contains("Made from plan v1") && !page.contains("/materials"), "a teacher's note on a student page")
        }
    }
}
