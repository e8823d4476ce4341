import Foundation

/// One recorded turn run again, and how its new plan differs from the recorded one.
public struct RerunStep: Sendable {
    public var turn: Int
    public var command: String
    public var recordedStatus: TurnStatus?
    public var recordedOutput: String
    /// Nil when the command could not be run again (its reason is in `note`).
    public var outcome: TurnOutcome?
    /// The automatic turns that followed it this time (a repair, a reading-level retry).
    public var followUps: [TurnOutcome] = []
    public var note: String?
}

/// `replay --rerun`: the same commands, against today's model and templates, into a new session.
public enum SessionRerun {
    /// Runs every recorded turn's command again in `engine` (a fresh session with the same inputs),
    /// repeating undos so later commands revise the same version they did the first time.
    ///
    /// Recorded automatic turns (repairs, reading-level retries) are not sent again as such: each command
    /// is followed by whatever automatic turns today's check calls for, as `options` allow.
    public static func run(
        _ recorded: SessionState, in engine: SessionEngine, options: FollowUpOptions = FollowUpOptions(),
        progress: @escaping @Sendable (Int, TurnProgress) -> Void
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
                if turn.started.follows != nil {
                    step.note = "an automatic turn; the re-run makes its own when today's plan calls for one"
                    steps.append(step)
                    continue
                }
                do {
                    let action = try CommandTable.parse(turn.started.command, context: await engine.commandContext)
                    switch action {
                    case .refine(let refinement):
                        let result = await engine.request(
                            command: turn.started.command, refinement: refinement, options: options
                        ) { update in
                            if case .turn(let turnProgress) = update { progress(number, turnProgress) }
                        }
                        step.outcome = result.first
                        step.followUps = Array(result.outcomes.dropFirst())
                    case .repair:
                        step.outcome = await engine.repair(command: turn.started.command) { update in
                            if case .turn(let turnProgress) = update { progress(number, turnProgress) }
                        }
                        if step.outcome == nil { step.note = "the plan passes the check today, so there was nothing to repair" }
                    default:
                        step.note = "not a request to the model"
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
