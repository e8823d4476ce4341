import Foundation
import LessonPlanCore
import LessonPlanModel

/// `/rubric [levels]`: a criteria × levels rubric for the plan's independent task, with a version for students,
/// checked and repaired once, kept beside the plan version it was made from.
package struct RubricCommand: Command, Equatable {
    package static let name = "rubric"
    package static let asksTheModel = true
    package static let usage = "/rubric [levels]; /rubric again; /rubric row N [what to change]"
    package static let summary = "a rubric for the plan's independent task, shown as a table (default: 4 levels)"
    package static let details = """
        levels is 2 to 6, lowest first, each with its points. The rubric is checked (the level count, every cell
        filled, levels in order, no criterion twice) and, when it fails, repaired once. It is kept beside the plan
        version it was made from: /show rubric prints it; exports of that version carry it (the students' “I can …”
        version on handouts and slides). /rubric row N [what to change] writes the Nth criterion's row of the
        latest rubric again, and its "I can …" row with it, keeping every other line as it was; the new rubric
        is checked like any, and not repaired unasked. /rubric again writes the latest rubric again from the
        current plan with as many levels (after a revision, a rubric written for an earlier version that no longer
        fits it is named, with why).
        """
    package static let templates = ["rubric", "rubric-repair", "rubric-row"]

    package let levels: Int
    /// For `/rubric row N`: the row to write again and what to change; nil for a new rubric.
    package let row: Int?
    package let request: String
    /// `/rubric again`: the latest rubric written again from the current plan, with as many levels.
    package let again: Bool

    package init(levels: Int = Rubric.defaultLevels, row: Int? = nil, request: String = "", again: Bool = false) {
        self.levels = levels
        self.row = row
        self.request = request
        self.again = again
    }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        let typed = arguments.split(whereSeparator: \.isWhitespace).map(String.init)
        if typed.first?.lowercased() == "row" {
            guard typed.count >= 2, let number = Int(typed[1]), number >= 1 else {
                throw CommandError("/rubric row needs the row's number, e.g. /rubric row 2 make the levels easier to tell apart.")
            }
            let request = typed.dropFirst(2).joined(separator: " ")
            guard request.count <= LessonInputs.optionalFieldLimit else {
                throw CommandError("That request is \(request.count) characters long; keep it to \(LessonInputs.optionalFieldLimit).")
            }
            return Self(row: number, request: request)
        }
        let words = arguments.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        guard let first = words.first else { return Self() }
        if words == ["again"] { return Self(again: true) }
        guard let number = Int(first), words.count == 1 || (words.count == 2 && words[1].hasPrefix("level")) else {
            throw CommandError("/rubric takes a number of levels, e.g. /rubric 4.")
        }
        guard Rubric.levelRange.contains(number) else {
            throw CommandError(
                "A rubric has \(Rubric.levelRange.lowerBound) to \(Rubric.levelRange.upperBound) levels, not \(number); e.g. /rubric 4.")
        }
        return Self(levels: number)
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        if let row { return await redoRow(row, run) }
        var levels = levels
        if again {
            guard let old = await run.engine.state.rubrics.last else {
                run.host.error("There is no rubric to write again yet; type /rubric to make one from the plan.")
                return .failed
            }
            levels = old.rubric.levels.isEmpty ? Rubric.defaultLevels : old.rubric.levels.count
        }
        let columns = run.host.columns
        let (outcome, result) = await run.assessment(
            .rubric(levels: levels), waiting: "writing the rubric…",
            shows: { text in
                let table = RubricProduct.table(RubricReader.read(text), text: text, width: columns)
                return StyledText(table.hasSuffix("\n") ? String(table.dropLast()) : table)
            })
        guard result.first.status == .completed else { return outcome }
        if let made = result.outcomes.compactMap(\.made?.number).last, let rubric = await run.engine.state.rubrics.last, rubric.number == made {
            run.host.deliver(.text(RubricProduct.table(rubric.rubric, text: rubric.text, width: columns)))
        }
        return outcome
    }

    /// `/rubric row N`: row N of the current plan's latest rubric written again, the rest kept; says what changed.
    private func redoRow(_ number: Int, _ run: CommandRun) async -> CommandOutcome {
        let state = await run.engine.state
        guard let current = state.current, let rubric = state.rubric(for: current.number) else {
            run.host.error("There is no rubric of this plan yet; type /rubric to make one, then /rubric row N to change one row.")
            return .failed
        }
        let count = rubric.rubric.criteria.count
        guard number <= count else {
            run.host.error("Rubric \(rubric.number) has \(count) rows; /rubric row \(count) is the last.")
            return .failed
        }
        let columns = run.host.columns
        let (outcome, result) = await run.part(
            .part(PartRedo(.rubricRow, text: rubric.text, number: number, request: request)),
            assessment: .rubric(levels: max(Rubric.levelRange.lowerBound, rubric.rubric.levels.count)),
            waiting: "writing row \(number)…",
            shows: { text in
                let table = RubricProduct.table(RubricReader.read(text), text: text, width: columns)
                return StyledText(table.hasSuffix("\n") ? String(table.dropLast()) : table)
            })
        guard result.first.status == .completed, let made = await run.engine.state.rubrics.last, made.number != rubric.number else {
            return outcome
        }
        let changed = zip(rubric.rubric.criteria, made.rubric.criteria).enumerated().filter { $0.element.0 != $0.element.1 }.map { $0.offset + 1 }
        let kept = made.rubric.criteria.count - changed.count
        run.host.deliver(.text(RubricProduct.table(made.rubric, text: made.text, width: columns)))
        run.host.show(
            StyledText(
                "rubric \(made.number) from rubric \(rubric.number): changed row \(changed.map(String.init).joined(separator: ", ")); \(kept) \(kept == 1 ? "row" : "rows") unchanged",
                style: .dim))
        return outcome
    }
}
