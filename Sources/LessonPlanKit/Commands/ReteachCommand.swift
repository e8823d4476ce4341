import Foundation
import LessonPlanCore
import LessonPlanModel
import LessonPlanStore

/// `/reteach`: tomorrow's plan written around the misconceptions a quiz's results showed (`lessonplan results`):
/// the warm-up on the most chosen one, small groups by misconception, an exit ticket that checks them again. The
/// counts are the tool's, written into the plan by code as a teacher's note under the warm-up.
package struct ReteachCommand: Command, Equatable {
    package static let name = "reteach"
    package static let asksTheModel = true
    package static let templates = ["reteach"]
    package static let usage = "/reteach"
    package static let summary = "tomorrow's plan around the misconceptions the quiz results showed (lessonplan results first)"
    package static let details = """
        Reads the latest results saved with `lessonplan results SESSION FILE` (how many students chose each option),
        ranks the wrong answers' misconceptions by count, and asks for the next plan built on the top three: a
        warm-up on the most chosen, small groups by misconception, an exit ticket that checks each again. The counts
        are written into the new plan by the tool, as a teacher's note under the warm-up, never by the model. In a
        unit, /lesson N first to revise that lesson.
        """
    /// How many misconceptions the plan is built around, the most chosen first.
    static let top = 3

    package init() {}

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self()
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        let state = await run.engine.state
        guard let current = state.current else {
            run.host.error("There is no plan yet; type /generate to write one.")
            return .failed
        }
        guard let results = state.results.last, let quiz = state.quizzes.first(where: { $0.number == results.quiz }) else {
            run.host.error(
                "There are no quiz results in this session yet; save them with `lessonplan results \(state.name ?? String(state.header.id.prefix(8))) FILE` (a CSV of item,option,count), then type /reteach."
            )
            return .failed
        }
        let analysis = ResultsAnalysis(QuizResults(counts: results.counts), quiz: quiz.quiz)
        let chosen = Array(analysis.misconceptions.prefix(Self.top))
        guard !chosen.isEmpty else {
            run.host.show(StyledText("No student chose a wrong answer on quiz \(quiz.number), so there is nothing to reteach."))
            return .done
        }
        let request = chosen.enumerated().map { index, one in
            "\(index + 1). \(one.misconception.isEmpty ? "the idea behind option \(one.letter) of item \(one.item)" : one.misconception) (item \(one.item), option \(one.letter))"
        }.joined(separator: "\n")
        let note = Self.note(chosen, quiz: quiz.number, students: analysis.items.map(\.answered).max() ?? 0)
        let refinement = Refinement(
            .revise(.reteach), inputs: current.inputs, values: ["request": request, "results_note": note], framework: current.framework)
        let (outcome, result) = await run.requestResult(refinement, waiting: "writing tomorrow's plan…")
        if result.first.status == .completed {
            run.host.show(StyledText("Written into the plan under the warm-up by lessonplan, not by the model: \(note)", style: .dim))
        }
        return outcome
    }

    /// The teacher's note the tool writes under the warm-up: each misconception with its count, counted by code.
    static func note(_ chosen: [ResultsAnalysis.Chosen], quiz: Int, students: Int) -> String {
        "Teacher note: quiz \(quiz) results (\(counted(students, "student")), counted by lessonplan): "
            + chosen.map(\.sentence).joined(separator: "; ") + "."
    }
}
