import Foundation

/// One recorded turn run again, and how its new plan differs from the recorded one.
public struct RerunStep: Sendable {
    public var turn: Int
    public var command: String
    public var recordedStatus: TurnStatus?
    public var recordedOutput: String
    /// Nil when the command could not be run again (its reason is in `note`).
    public var outcome: TurnOutcome?
    public var note: String?
}

/// `replay --rerun`: the same commands, against today's model and templates, into a new session.
public enum SessionRerun {
    /// Runs every recorded turn's command again in `engine` (a fresh session with the same inputs),
    /// repeating undos so later commands revise the same version they did the first time.
    public static func run(
        _ recorded: SessionState, in engine: SessionEngine, progress: @escaping @Sendable (Int, TurnProgress) -> Void
    ) async -> [RerunStep] {
        var steps: [RerunStep] = []
        for event in recorded.events {
            if Task.isCancelled { break }
            switch event {
            case .undo:
                _ = try? await engine.undo()
            case .handEdit(let edit):
                steps.append(
                    RerunStep(
                        turn: 0, command: edit.command, recordedStatus: .completed, recordedOutput: edit.text,
                        outcome: nil, note: "a hand edit is not re-run; later turns revise the model's plan instead"))
            case .turn(let index):
                let turn = recorded.turns[index]
                let number = turn.started.turn
                var step = RerunStep(
                    turn: number, command: turn.started.command, recordedStatus: turn.ended?.status,
                    recordedOutput: turn.ended?.output ?? "", outcome: nil, note: nil)
                do {
                    let action = try CommandTable.parse(turn.started.command, context: await engine.state.commandContext)
                    guard case .refine(let refinement) = action else {
                        step.note = "not a request to the model"
                        steps.append(step)
                        continue
                    }
                    step.outcome = await engine.run(command: turn.started.command, refinement: refinement) { update in
                        progress(number, update)
                    }
                } catch {
                    step.note = "cannot run it again: \(error.message)"
                }
                steps.append(step)
            }
        }
        return steps
    }
}
