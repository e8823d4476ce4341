import Foundation
import LessonPlanCLI
import LessonPlanCore
import LessonPlanKit
import LessonPlanModel
import TestSupport
import Testing

/// Every slash command run the same way in the four places commands run (the REPL at a terminal, a
/// piped script, `generate --then`, `replay --rerun`), against an in-memory model: one table.
@Suite struct CommandRunnerTests {
    /// A fresh session with a first plan, run in one place.
    typealias Session = CommandSession

    /// One row: a command, what must hold after it ran, and whether it needs a terminal.
    struct Row: CustomTestStringConvertible, Sendable {
        let line: String
        /// Lines run first (after /generate) so the command has something to work on.
        var before: [String] = []
        var needsTerminal = false
        /// Requests the command sends.
        var requests = 0
        /// Versions after it ran (the first plan is v1).
        var versions = 1
        /// Text its output must contain.
        var shows: String? = nil
        /// Text the result it hands on (what `--then` prints last) must contain.
        var delivers: String? = nil
        var testDescription: String { line }
    }

    static let rows: [Row] = [
        Row(line: "/generate", requests: 1, versions: 2),
        Row(line: "/shorten 30", requests: 1, versions: 2),
        Row(line: "/shorten 30 minutes", requests: 1, versions: 2),
        Row(line: "/lengthen 60", requests: 1, versions: 2),
        Row(line: "/differentiate ell iep", requests: 1, versions: 2),
        Row(line: "/regrade 3–5", requests: 1, versions: 2),
        Row(line: "/revise add a think-pair-share", requests: 1, versions: 2),
        Row(line: "make it more hands-on", requests: 1, versions: 2),
        Row(line: "/standards RI.6.1 Cite textual evidence", requests: 1, versions: 2, shows: "quoted word for word"),
        // The scripted model keeps the default headings, so the 5E plan fails its check and is repaired once.
        Row(line: "/framework 5e", requests: 2, versions: 2),
        Row(line: "/framework", shows: "→ default"),
        // The scripted model answers with a plan, so the handouts check finds its teacher-only parts.
        Row(line: "/materials", requests: 1, versions: 1, shows: "Teacher-only section: “Materials”"),
        // The scripted model answers quiz and rubric prompts with ones that pass their checks.
        Row(line: "/quiz", requests: 1, delivers: "5. Question 5 about Tides"),
        Row(line: "/quiz starter 7", requests: 1, delivers: "Answer: B"),
        Row(line: "/rubric 3", requests: 1, shows: "│ Criterion", delivers: "Developing (3)"),
        Row(line: "/show quiz", before: ["/quiz exit 3"], shows: "── quiz 1 · exit · 3 items · from v1"),
        Row(line: "/show rubric", before: ["/rubric"], shows: "For students:"),
        // The scripted model answers a review prompt with one that quotes the plan it reviews.
        Row(line: "/review", requests: 1, shows: "✓ Every quoted sentence (7) is in the plan.", delivers: "Assurance of Accessibility: 1 of 3"),
        Row(line: "/show review", before: ["/review"], shows: "── review 1 · 7 criteria · of v1"),
        Row(line: "/slides", before: ["/quiz"], shows: "tides-v1.pptx"),
        Row(line: "/slides deck.pptx --force", shows: "Wrote PowerPoint"),
        Row(line: "/check", shows: "plan check of v1"),
        Row(line: "/repair", shows: "nothing to repair"),
        Row(line: "/repair off", shows: "Automatic repair is off"),
        Row(line: "/pacing", shows: "pacing of v1"),
        Row(line: "/level", shows: "reading level of v1"),
        Row(line: "/undo", before: ["/shorten 30"], versions: 2, shows: "Back to v1"),
        Row(line: "/show 1", shows: "── v1 · /generate"),
        Row(line: "/history", shows: "→ v1"),
        Row(line: "/diff", before: ["/shorten 30"], versions: 2, shows: "── v1 → v2"),
        Row(line: "/save tides-unit", shows: "Saved as “tides-unit”"),
        Row(line: "/export md plan.md", shows: "Wrote MD of v1"),
        Row(line: "/export html", shows: "tides-v1.html"),
        Row(line: "/export docx plan.docx", shows: "Wrote Word document of v1"),
        Row(line: "/export md --show-model"),
        Row(line: "/export materials html handouts.html", before: ["/materials"], shows: "Wrote HTML of the handouts"),
        Row(line: "/help shorten", shows: "/shorten [minutes]"),
        Row(line: "help", shows: "/shorten [minutes]"),
        Row(line: "/clear"),
        Row(line: "cls"),
        Row(line: "shorter", requests: 1, versions: 2),
        Row(line: "more hands-on", requests: 1, versions: 2),
        Row(line: "/edit", needsTerminal: true, versions: 2, shows: "Saved your edit as v2"),
        Row(line: "/copy", needsTerminal: true, shows: "Copied v1"),
    ]

    static let places: [CommandPlace] = [.terminal, .script, .then, .rerun]

    @Test(arguments: rows, places)
    func aCommandRunsTheSameWayInEveryPlace(row: Row, place: CommandPlace) async throws {
        let session = try await Session(place: place, edits: [PlanFixtures.passing(minutes: 45) + "\nEdited by hand.\n"])
        defer { session.home.remove() }
        #expect(await session.runner.run("/generate").status == .done)
        for line in row.before { #expect(await session.runner.run(line).status == .done) }
        let sentBefore = session.transport.requests.count

        let outcome = await session.runner.run(row.line)

        if row.needsTerminal, !place.isTerminal {
            #expect(outcome.status == .failed)
            #expect(session.host.errors.last?.contains("needs a teacher at a terminal") == true)
            #expect(session.transport.requests.count == sentBefore)
            #expect(CommandRunner.precheck([row.line], place: place).count == 1)
            #expect(session.runner.exitStatus == 1)
            return
        }
        #expect(outcome.status == .done, "\(session.host.errors)")
        #expect(session.host.errors.isEmpty)
        #expect(session.transport.requests.count - sentBefore == row.requests)
        #expect(outcome.turns.count == row.requests)
        #expect(await session.versions == row.versions)
        if let shows = row.shows {
            #expect(session.host.transcript.contains(shows), "\(session.host.transcript)")
        }
        if let delivers = row.delivers {
            let texts = session.host.products.compactMap { if case .text(let text) = $0 { text } else { nil } }
            #expect(texts.last?.contains(delivers) == true, "\(texts)")
        }
        #expect(CommandRunner.precheck([row.line], place: place).isEmpty)
        #expect(session.runner.exitStatus == 0)
    }

    /// A session made at the terminal, re-run: the same commands reach the model in the same order,
    /// each revising the plan it revised the first time.
    @Test func aRerunSendsTheRequestsBehindEachVersionAgain() async throws {
        let first = try await Session(place: .terminal)
        defer { first.home.remove() }
        for line in ["/generate", "/shorten 30", "/undo", "/differentiate ell", "/check", "/export md plan.md"] {
            #expect(await first.runner.run(line).status == .done)
        }
        let recorded = await first.engine.state
        let again = try await Session(place: .rerun)
        defer { again.home.remove() }
        let steps = await SessionRerun.run(recorded, runner: again.runner)

        #expect(steps.map(\.command) == ["/generate", "/shorten 30", "/differentiate ell"])
        #expect(steps.allSatisfy { $0.outcome?.status == .completed })
        #expect(await again.commands == ["/generate", "/shorten 30", "/differentiate ell"])
        let state = await again.engine.state
        #expect(state.current?.parent == 1)
        #expect(again.transport.prompts == first.transport.prompts)
    }

    /// Cancelled and failed attempts are listed as skipped; the retry that made the version is sent once.
    @Test func aRerunSkipsFailedAttemptsAndSendsTheRetryThatMadeTheVersion() async throws {
        let failingOnce = ScriptedTransport { request, number in
            number == 2
                ? .error(status: 400, message: "Invalid value for 'model'.")
                : .text(PlanFixtures.passing(minutes: PlanFixtures.requestedMinutes(in: request.body) ?? 45, number: number))
        }
        let first = try await Session(place: .terminal, transport: failingOnce)
        defer { first.home.remove() }
        #expect(await first.runner.run("/generate").status == .done)
        #expect(await first.runner.run("/shorten 30").status == .failed)
        #expect(await first.runner.run("/retry").status == .done)
        let recorded = await first.engine.state
        #expect(recorded.turns.count == 3)

        let again = try await Session(place: .rerun)
        defer { again.home.remove() }
        let steps = await SessionRerun.run(recorded, runner: again.runner)
        #expect(steps.map(\.turn) == [1, 2, 3])
        #expect(steps[1].outcome == nil)
        #expect(steps[1].note?.contains("failed attempt") == true)
        #expect(steps[2].outcome?.status == .completed)
        #expect(await again.commands == ["/generate", "/shorten 30"])
        #expect(again.transport.requests.count == 2)
    }

    /// `--turn N`: only turn N is compared; the turns before it run to rebuild the plan it revised.
    @Test func aRerunOfOneTurnComparesOnlyThatTurn() async throws {
        let first = try await Session(place: .terminal)
        defer { first.home.remove() }
        for line in ["/generate", "/shorten 30", "/lengthen 50"] { #expect(await first.runner.run(line).status == .done) }
        let again = try await Session(place: .rerun)
        defer { again.home.remove() }
        let steps = await SessionRerun.run(await first.engine.state, runner: again.runner, only: 2)
        #expect(steps.map(\.turn) == [2])
        #expect(await again.commands == ["/generate", "/shorten 30"])
    }

    /// Lines that cannot run say why, and the run's exit status says so.
    @Test func rejectedLinesAndFailedTurnsMakeTheExitStatusOne() async throws {
        let session = try await Session(place: .script)
        defer { session.home.remove() }
        #expect(await session.runner.run("/generate").status == .done)
        #expect(session.runner.exitStatus == 0)
        #expect(await session.runner.run("/shortn 30").status == .failed)
        #expect(session.host.errors.last?.contains("did you mean /shorten?") == true)
        #expect(session.runner.exitStatus == 1)
        #expect(session.runner.counts.rejected == 1)
    }

    /// `quit`, `exit`, `help` and `?` alone are commands, never paid revisions; `/revise quit` is a revision.
    @Test func bareWordsRunCommandsAndRevisionsStayRevisions() async throws {
        let session = try await Session(place: .script)
        defer { session.home.remove() }
        #expect(await session.runner.run("/generate").status == .done)
        for word in ["quit", "exit", "QUIT"] { #expect(await session.runner.run(word).status == .quit) }
        #expect(await session.runner.run("?").status == .done)
        #expect(session.transport.requests.count == 1)
        #expect(await session.runner.run("/revise quit").turns.count == 1)
        #expect(session.transport.prompts.last?.contains("quit") == true)
    }

    /// `/export` keeps an existing file: at a terminal it asks, elsewhere it needs --force.
    @Test func exportAsksBeforeReplacingAtATerminalAndNeedsForceElsewhere() async throws {
        let terminal = try await Session(place: .terminal, answers: [false, true])
        defer { terminal.home.remove() }
        #expect(await terminal.runner.run("/generate").status == .done)
        let file = terminal.home.url.appending(path: "plan.md")
        try Data("mine".utf8).write(to: file)
        #expect(await terminal.runner.run("/export md plan.md").status == .done)
        #expect(try String(contentsOf: file, encoding: .utf8) == "mine")
        #expect(await terminal.runner.run("/export md plan.md").status == .done)
        #expect(try String(contentsOf: file, encoding: .utf8).contains("Learning Objective"))
        #expect(terminal.host.questions.count == 2)

        let script = try await Session(place: .script)
        defer { script.home.remove() }
        #expect(await script.runner.run("/generate").status == .done)
        let other = script.home.url.appending(path: "plan.md")
        try Data("mine".utf8).write(to: other)
        #expect(await script.runner.run("/export md plan.md").status == .failed)
        #expect(script.host.errors.last?.contains("--force") == true)
        #expect(await script.runner.run("/export md plan.md --force").status == .done)
        #expect(try String(contentsOf: other, encoding: .utf8).contains("Learning Objective"))
        #expect(script.host.questions.isEmpty)
    }

    /// `/edit` decides what the editor's result means: unchanged text makes no version, a failing editor
    /// changes nothing and says so.
    @Test func editKeepsThePlanWhenNothingChangedOrTheEditorFails() async throws {
        let session = try await Session(place: .terminal, edits: [PlanFixtures.passing(minutes: 45) + "\n"])
        defer { session.home.remove() }
        #expect(await session.runner.run("/generate").status == .done)
        #expect(await session.runner.run("/edit").status == .done)
        #expect(session.host.shown.last == "No changes; still v1.")
        #expect(await session.runner.run("/edit").status == .failed)
        #expect(session.host.errors.last == "No editor in this test. Nothing changed; still v1.")
        #expect(await session.versions == 1)
    }
}
