import Foundation
import LessonPlanCore
import LessonPlanModel

/// `/unit`: the session's unit of lessons. Alone it shows the overview with each lesson's check; `/unit N` writes a
/// unit of N lessons from the session's inputs; `/unit continue` writes the lessons still missing. `/unit overview N`
/// and `/unit lesson K` write one turn each: they are what a unit's turns record, so `replay --rerun` sends them again.
package struct UnitCommand: Command, Equatable {
    package static let name = "unit"
    package static let usage = "/unit [N | continue | lesson K]"
    package static let summary = "show the unit's overview and each lesson's check; /unit N writes a unit of N lessons"
    package static let details = """
        /unit shows the unit's goal, essential questions and each lesson: its check (✓ or ✗), its objective, which \
        lesson is current, and lessons possibly out of step with an earlier lesson whose objective changed.
        /unit N (2–15) writes a unit from this session's inputs: an overview checked by code and repaired once, then \
        each lesson as a whole plan with the overview and the lessons before it as context, each checked and repaired.
        /unit continue (or /continue) writes the lessons still missing, e.g. after Ctrl-C.
        /unit lesson K writes lesson K again from the overview, as a new version of that lesson.
        """
    package static let argumentCompletions = ["continue", "lesson"]
    package static let needsPlan = false
    package static let asksTheModel = true
    package static let templates = ["unit-instructions", "unit-overview", "unit-overview-repair", "unit-lesson"]

    /// What the line asks for.
    package enum Action: Equatable, Sendable {
        case show
        /// An overview and then every lesson.
        case write(lessons: Int)
        /// The overview alone (what the overview turn records).
        case overview(lessons: Int)
        /// One lesson (what a lesson's turn records).
        case lesson(Int)
        /// The lessons still missing.
        case rest
    }

    package let action: Action

    package init(_ action: Action) {
        self.action = action
    }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        let words = arguments.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        let unit = context.unitLessons
        func lessons(_ text: String) throws(CommandError) -> Int {
            guard let count = Int(text), UnitPlan.lessonRange.contains(count) else {
                throw CommandError("A unit has 2 to 15 lessons; type /unit followed by a number in that range, e.g. /unit 5.")
            }
            guard unit == nil else {
                throw CommandError("This session is already a unit of \(unit ?? 0) lessons; /unit shows it.")
            }
            return count
        }
        switch words.first {
        case nil:
            guard unit != nil else {
                throw CommandError("This session is a single lesson; /unit N writes a unit of N lessons (2–15) from its inputs.")
            }
            return Self(.show)
        case "continue" where words.count == 1:
            guard unit != nil else { throw CommandError("There is no unit to continue; /unit N writes one.") }
            guard !context.lessonsMissing.isEmpty else {
                throw CommandError("Every lesson of the unit is written; /unit shows them.")
            }
            return Self(.rest)
        case "overview" where words.count == 2:
            return Self(.overview(lessons: try lessons(words[1])))
        case "lesson" where words.count == 2:
            guard let total = unit else { throw CommandError("There is no unit yet; /unit N writes one.") }
            guard let number = Int(words[1]), (1...total).contains(number) else {
                throw CommandError("The unit has lessons 1 to \(total); type /unit lesson followed by one of them.")
            }
            return Self(.lesson(number))
        case let first? where words.count == 1 && Int(first) != nil:
            return Self(.write(lessons: try lessons(first)))
        default:
            throw CommandError("/unit takes a number of lessons, continue, or lesson K; type \(usage).")
        }
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        switch action {
        case .show:
            run.host.show(await Self.view(run.engine))
            return .done
        case .write(let lessons):
            let overview = await Self.overview(lessons: lessons, run: run)
            guard overview.status == .done else { return overview }
            let rest = await Self.writeLessons(Array(1...lessons), run: run)
            return CommandOutcome(status: rest.status, turns: overview.turns + rest.turns)
        case .overview(let lessons):
            return await Self.overview(lessons: lessons, run: run)
        case .lesson(let number):
            return await Self.writeLessons([number], run: run)
        case .rest:
            return await Self.writeLessons(await run.engine.state.lessonsMissing, run: run)
        }
    }

    /// Writes the overview (and its one repair), says why when there is none, and shows it when there is.
    static func overview(lessons: Int, run: CommandRun) async -> CommandOutcome {
        let engine = run.engine
        let host = run.host
        let repair = run.settings.followUps.repair
        let inputs = await engine.state.currentInputs
        let framework = await engine.state.currentFramework
        let result = await host.cancellable {
            await engine.writeOverview(lessons: lessons, inputs: inputs, framework: framework, repair: repair) { update in
                host.progress(update, waiting: "planning the unit…")
            }
        }
        guard result.unit != nil else {
            if let failure = result.failure, result.outcomes.last?.status == .completed || result.outcomes.isEmpty {
                host.error(failure)
            }
            return CommandOutcome(status: .failed, turns: result.outcomes)
        }
        return CommandOutcome(status: .done, turns: result.outcomes)
    }

    /// Writes the lessons in order, a progress line before each; stops at the first that does not complete
    /// (Ctrl-C, a failure), keeping the lessons already written.
    static func writeLessons(_ numbers: [Int], run: CommandRun) async -> CommandOutcome {
        let engine = run.engine
        let host = run.host
        let options = run.settings.followUps
        let total = await engine.state.unit?.lessons ?? numbers.count
        let clock = ContinuousClock()
        let start = clock.now
        var turns: [TurnOutcome] = []
        for number in numbers {
            host.note(StyledText("lesson \(number) of \(total) · \(Int(start.duration(to: clock.now).seconds)) s so far"))
            let result = await host.cancellable {
                await engine.writeLesson(number, options: options) { update in
                    host.progress(update, waiting: "writing lesson \(number)…")
                }
            }
            turns += result.outcomes
            guard result.first.status == .completed else {
                let missing = await engine.state.lessonsMissing
                if !missing.isEmpty {
                    host.note(
                        StyledText(
                            "Stopped at lesson \(number) of \(total); the lessons written are kept, and /unit continue (or /continue) writes the \(counted(missing.count, "lesson")) still missing."
                        ))
                }
                return CommandOutcome(status: .failed, turns: turns)
            }
        }
        if numbers.count > 1 {
            // From the shell (`lessonplan unit`, `--then`) the session has ended by the time this is read: /unit and
            // /lesson work once it is resumed.
            let resume = host.place.isREPL ? "" : "`lessonplan resume \(await engine.state.header.id.prefix(8))`, then "
            host.note(
                StyledText(
                    "\(counted(numbers.count, "lesson")) written in \(Int(start.duration(to: clock.now).seconds)) s; \(resume)/unit shows each lesson's check, /lesson N opens one."
                ))
        }
        return CommandOutcome(status: .done, turns: turns)
    }

    /// The overview with each lesson's check, objective and state: what `/unit` shows and `lessonplan unit` prints.
    package static func view(_ engine: SessionEngine) async -> StyledText {
        let state = await engine.state
        guard let unit = state.unit else { return StyledText("This session is a single lesson, not a unit.") }
        let outOfStep = await engine.lessonsOutOfStep
        let clean = { (text: String) in TerminalSanitizer.cleanLine(text, limit: 400) }
        var text = StyledText(
            "── unit · \(clean(unit.inputs.topic)) · \(unit.inputs.gradeText) · \(counted(unit.lessons, "lesson")) of \(unit.inputs.minutes) min\n",
            style: .dim)
        var lines: [String] = []
        if !unit.goal.isEmpty { lines.append("Goal: \(clean(unit.goal))") }
        if !unit.questions.isEmpty {
            lines.append("Essential questions:")
            lines += unit.questions.map { "  - \(clean($0))" }
        }
        for (index, outline) in unit.outline.enumerated() {
            let number = index + 1
            lines.append("")
            guard let version = state.lessonVersions[number].flatMap(state.version) else {
                lines.append("· Lesson \(number): \(clean(outline.title)) — not written yet; /unit continue writes it")
                lines.append("    Objective: \(clean(outline.objective))")
                continue
            }
            var check = version.check
            if check == nil { check = try? await engine.check(version) }
            let mark = check.map { $0.passed ? "✓" : "✗" } ?? "·"
            let problems = check.map { $0.passed ? "passes the check" : counted($0.problems.count, "problem") } ?? "not checked"
            let current = state.currentLesson == number ? "   ← current" : ""
            lines.append("\(mark) Lesson \(number): \(clean(outline.title)) — v\(version.number) · \(problems)\(current)")
            let objective = await engine.objective(of: version) ?? outline.objective
            lines.append("    Objective: \(clean(objective))")
            if outOfStep.contains(number) {
                lines.append("    possibly out of step: an earlier lesson's objective changed after this one was written")
            }
        }
        text.append(lines.joined(separator: "\n"))
        return text
    }
}
