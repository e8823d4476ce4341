import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanStore
import TestSupport
import Testing

/// The records of checks, repairs, reading-level retries, frameworks and handouts, and how they fold into state.
@Suite struct FollowUpRecordTests {
    static let t0 = TranscriptFixtures.t0
    static let report = PlanCheckReport(
        problems: [
            .missingHeading("Materials"), .pacingTotal(found: 50, expected: 45), .noPacing, .codeFence,
            .tooFewCFUQuestions(found: 2, minimum: 3), .warmUpMinutes(found: 10, expected: 5),
            .exitTicketPrompts(found: 1, expected: 3), .duplicateHeading("Exit Ticket"), .outOfOrder("Materials"),
        ],
        pacedMinutes: 50, lessonMinutes: 45)

    static func measure(_ text: String, _ band: GradeBand = .threeTo5) -> ReadingMeasure {
        ReadingMeasure(studentText: text, band: band)
    }

    @Test func checkAndReadingLevelRoundTripOnTurnEnded() throws {
        let coder = TranscriptCoder()
        var ended = TranscriptFixtures.ended(2, output: "Plan", version: nil)
        ended.check = Self.report
        ended.readingLevel = Self.measure("The cat sat on the mat.")
        ended.kept = false
        let line = coder.encode(.turnEnded(ended))
        let text = String(decoding: line, as: UTF8.self)
        #expect(try coder.decode(line) == .turnEnded(ended))
        #expect(
            text.contains(
                "\"check\":{\"lesson_minutes\":45,\"paced_minutes\":50,\"passed\":false,\"problems\":[{\"heading\":\"Materials\",\"kind\":\"missing_heading\"},{\"expected\":45,\"found\":50,\"kind\":\"pacing_total\"},{\"kind\":\"no_pacing\"}"
            ))
        #expect(text.contains("{\"found\":2,\"kind\":\"too_few_cfu_questions\",\"minimum\":3}"))
        #expect(text.contains("\"kept\":false"))
        #expect(text.contains("\"reading_level\":{\"band\":\"3–5\",\"expected_high\":5.5,\"expected_low\":2,\"grade\":"))
        #expect(text.contains("\"in_range\":false") && text.contains("\"words\":6"))
        #expect(!text.contains("\"version\""))

        var started = try TranscriptFixtures.started(2, command: "(auto repair)", base: 1)
        started.framework = "5e"
        started.follows = 1
        started.kind = .materials
        let startLine = coder.encode(.turnStarted(started))
        #expect(try coder.decode(startLine) == .turnStarted(started))
        let startText = String(decoding: startLine, as: UTF8.self)
        #expect(startText.contains("\"follows\":1") && startText.contains("\"framework\":\"5e\"") && startText.contains("\"kind\":\"materials\""))

        var header = try TranscriptFixtures.header()
        header.framework = "hunter"
        #expect(try coder.decode(coder.encode(.header(header))) == .header(header))
        let edit = HandEditRecord(at: Self.t0, command: "/edit", baseVersion: 1, version: 2, text: "x", check: Self.report)
        #expect(try coder.decode(coder.encode(.handEdit(edit))) == .handEdit(edit))
    }

    @Test func linesWrittenBeforeTheCheckStillRead() throws {
        let coder = TranscriptCoder()
        let header =
            "{\"type\":\"session\",\"v\":1,\"id\":\"0123456789abcdef\",\"created\":\"2026-11-28T09:00:00.000Z\",\"inputs\":{\"grade\":\"6–8\",\"topic\":\"x\",\"minutes\":45,\"standards\":\"\",\"constraints\":\"\"},\"model\":\"m\",\"base_url\":\"u\",\"tool_version\":\"0.1.0\"}"
        guard case .header(let decoded) = try coder.decode(Data(header.utf8)) else { throw CommandError("not a header") }
        #expect(decoded.framework == nil)
        let ended =
            "{\"type\":\"turn_ended\",\"v\":1,\"turn\":1,\"at\":\"2026-11-28T09:00:02.000Z\",\"status\":\"completed\",\"output\":\"p\",\"version\":1,\"duration_ms\":5}"
        guard case .turnEnded(let turn) = try coder.decode(Data(ended.utf8)) else { throw CommandError("not turn_ended") }
        #expect(turn.check == nil && turn.readingLevel == nil && turn.kept == nil && turn.made == nil)
        // A problem kind from a newer lessonplan is dropped; the turn and its other problems still read.
        let newer =
            "{\"type\":\"turn_ended\",\"v\":1,\"turn\":1,\"at\":\"2026-11-28T09:00:02.000Z\",\"status\":\"completed\",\"output\":\"p\",\"version\":1,\"duration_ms\":5,\"check\":{\"problems\":[{\"kind\":\"too_many_emoji\",\"found\":9},{\"kind\":\"code_fence\"}],\"lesson_minutes\":45,\"passed\":false}}"
        guard case .turnEnded(let lenient) = try coder.decode(Data(newer.utf8)) else { throw CommandError("not turn_ended") }
        #expect(lenient.check?.problems == [.codeFence] && lenient.check?.pacedMinutes == nil)
    }

    /// Folds records the way a transcript would hold them.
    func state(_ records: [TranscriptRecord]) throws -> SessionState {
        var state = SessionState(header: try TranscriptFixtures.header())
        for record in records { state.apply(record) }
        return state
    }

    func turn(
        _ number: Int, command: String, base: Int?, follows: Int? = nil, framework: String? = nil, kind: TurnKind? = nil,
        output: String, version: Int?, kept: Bool? = nil, materials: Int? = nil
    ) throws -> [TranscriptRecord] {
        var started = try TranscriptFixtures.started(number, command: command, base: base)
        started.follows = follows
        started.framework = framework
        started.kind = kind
        var ended = TranscriptFixtures.ended(number, output: output, version: version)
        ended.kept = kept
        ended.made = materials.map { Made(.materials, $0) }
        return [.turnStarted(started), .turnEnded(ended)]
    }

    @Test func aKeptRepairStandsWhereItsDraftStood() throws {
        let state = try self.state(
            try turn(1, command: "/generate", base: nil, output: "draft", version: 1)
                + turn(2, command: "(auto repair)", base: 1, follows: 1, output: "repaired", version: 2, kept: true)
                + turn(3, command: "/shorten", base: 2, output: "short draft", version: 3)
                + turn(4, command: "(auto repair)", base: 3, follows: 3, output: "short", version: 4, kept: true))
        #expect(state.versions.map(\.parent) == [nil, nil, 2, 2])
        #expect(state.versions.map(\.draft) == [nil, 1, nil, 3])
        #expect(state.currentVersion == 4 && state.undoTarget == 2)
    }

    /// Whether a version is the lesson it came from is read from the record that made it (a hand edit, a repair's
    /// template, a draft it replaced), never from the command as typed: a `/revise` whose words start with "/edit"
    /// still changes the lesson, and a `/repair` typed in capitals still keeps it.
    @Test func aVersionKeepsItsLessonByTheRecordThatMadeItNotByItsCommand() throws {
        var records = try turn(1, command: "/generate", base: nil, output: "plan", version: 1)
        records.append(.handEdit(HandEditRecord(at: Self.t0, command: "/edit", baseVersion: 1, version: 2, text: "edited")))
        records += try turn(3, command: "/edit the warm-up, please", base: 2, output: "revised", version: 3)
        var repair = try turn(4, command: "/REPAIR", base: 3, output: "repaired", version: 4)
        if case .turnStarted(var started) = repair[0] {
            started.template = "repair"
            repair[0] = .turnStarted(started)
        }
        records += repair
        records += try turn(5, command: "(auto repair)", base: 4, follows: 4, output: "again", version: 5, kept: true)
        let state = try self.state(records)
        #expect(state.versions.map(\.sameLesson) == [false, true, false, true, true])
        #expect(state.standing(madeFrom: 1, plan: 2) == .sameLesson, "a hand edit is the same lesson")
        #expect(state.standing(madeFrom: 1, plan: 3) != .sameLesson, "a revision whose words begin with /edit is not")
        #expect(state.standing(madeFrom: 3, plan: 5) == .sameLesson, "a repair and the plan that replaced its draft are")
    }

    @Test func aRejectedRepairMakesNoVersion() throws {
        let state = try self.state(
            try turn(1, command: "/generate", base: nil, output: "draft", version: 1)
                + turn(2, command: "(auto repair)", base: 1, follows: 1, output: "worse", version: nil, kept: false))
        #expect(state.versions.count == 1 && state.currentVersion == 1)
        #expect(state.turns.count == 2 && state.turns[1].ended?.kept == false)
        #expect(state.nextTurnNumber == 3)
    }

    @Test func frameworksFollowVersionsAndHandoutsAreNotVersions() throws {
        var records = try turn(1, command: "/generate", base: nil, output: "plan", version: 1)
        records += try turn(2, command: "/framework 5e", base: 1, framework: "5e", output: "5e plan", version: 2)
        records += try turn(3, command: "/materials", base: 2, framework: "5e", kind: .materials, output: "handout", version: nil, materials: 1)
        records.append(.handEdit(HandEditRecord(at: Self.t0, command: "/edit", baseVersion: 2, version: 3, text: "edited")))
        var state = try self.state(records)
        #expect(state.versions.map(\.framework) == ["default", "5e", "5e"])
        #expect(state.currentFramework == "5e")
        #expect(state.materials.map(\.number) == [1] && state.materials.first?.text == "handout")
        #expect(state.materials.first?.planVersion == 2)
        #expect(state.versions.count == 3)
        state.apply(.undo(UndoRecord(at: Self.t0, from: 3, to: 2)))
        state.apply(.undo(UndoRecord(at: Self.t0, from: 2, to: 1)))
        #expect(state.currentFramework == "default")
        #expect(state.commandContext.framework == "default")

        var header = try TranscriptFixtures.header()
        header.framework = "ubd"
        #expect(SessionState(header: header).currentFramework == "ubd")
    }

    @Test func aRepairIsKeptOnlyWhenItChecksStrictlyBetter() {
        func report(_ problems: [PlanProblem]) -> PlanCheckReport {
            PlanCheckReport(problems: problems, pacedMinutes: 45, lessonMinutes: 45)
        }
        let draft = report([.pacingTotal(found: 50, expected: 45), .exitTicketPrompts(found: 1, expected: 3)])
        let rule = KeepRule.checksBetter(than: draft)
        #expect(rule.keeps(check: report([]), level: nil))
        #expect(rule.keeps(check: report([.exitTicketPrompts(found: 2, expected: 3)]), level: nil))
        #expect(!rule.keeps(check: draft, level: nil))
        #expect(!rule.keeps(check: report([.missingHeading("Materials")]), level: nil))
        #expect(rule.note(kept: true, draft: 3, level: nil) == "The repaired plan checks better, so it replaces v3.")
        #expect(rule.note(kept: false, draft: 3, level: nil) == "The repaired plan checks no better than v3, so v3 stays; /show repair shows it.")
        #expect(KeepRule.always.keeps(check: report([.missingHeading("Materials")]), level: nil))
        #expect(KeepRule.always.note(kept: true, draft: 1, level: nil) == nil)
    }

    @Test func aReadingLevelRetryIsKeptWhenCloserAndNoWorse() throws {
        let hard = Self.measure("Collaboratively investigate gravitational interactions substantiating interpretations quantitatively.")
        let easy = Self.measure("We look at the sea. It goes up. It goes down.")
        let middling = Self.measure("Students compare the height of the tide at two different times of day.")
        #expect(!hard.inRange && hard.distance > 5)
        #expect(easy.grade.map { $0 < 2 } == true && !easy.inRange)
        #expect(middling.inRange && middling.distance == 0)
        let clean = PlanCheckReport(problems: [], pacedMinutes: 45, lessonMinutes: 45)
        let broken = PlanCheckReport(problems: [.missingHeading("Materials")], pacedMinutes: 45, lessonMinutes: 45)
        let rule = KeepRule.closerReadingLevel(than: hard, check: clean)
        #expect(rule.keeps(check: clean, level: middling))
        #expect(rule.keeps(check: clean, level: easy))
        #expect(!rule.keeps(check: broken, level: middling))
        #expect(!rule.keeps(check: clean, level: hard))
        #expect(!rule.keeps(check: clean, level: Self.measure("")))
        #expect(rule.note(kept: false, draft: 2, level: hard)?.hasSuffix("no closer to 2–5.5 without checking worse, so v2 stays.") == true)
    }

    @Test func readingMeasuresRoundToOneDecimalAndReadAsTeachersWriteThem() {
        let measure = Self.measure("The cat sat on the mat.", .kTo2)
        #expect(measure.words == 6)
        #expect(measure.grade == -1.4)
        #expect(measure.gradeText == "-1.4" && measure.expectedText == "0–2.5")
        #expect(measure.distance == 1.4)
        let nothing = Self.measure("", .nineTo12)
        #expect(nothing.grade == nil && nothing.inRange && nothing.gradeText == "–" && nothing.distance == 0)
        #expect(ReadingMeasure.format(5.5) == "5.5" && ReadingMeasure.format(8) == "8" && ReadingMeasure.format(9.96) == "10")
    }
}
