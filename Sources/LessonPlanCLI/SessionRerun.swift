import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanModel

/// One recorded turn in a re-run: sent again, or skipped with the reason.
package struct RerunStep: Sendable {
    package var turn: Int
    package var command: String
    package var recordedStatus: TurnStatus?
    package var recordedOutput: String
    /// Nil when the turn was not sent again (its reason is in `note`).
    package var outcome: TurnOutcome?
    /// The automatic turns that followed it this time (a repair, a reading-level retry).
    package var followUps: [TurnOutcome] = []
    package var note: String?
}

/// `replay --rerun`: the requests behind a session's versions, sent again against today's model
/// and templates into a new session, through the same ``CommandRunner`` as the REPL.
package enum SessionRerun {
    /// What a re-run does with one recorded event.
    enum Plan: Equatable {
        /// Send this command again (the completed attempt behind a version or handouts).
        case send(turn: Int, command: String)
        /// Repeat an undo, so later commands revise the version they revised the first time.
        case undo
        /// Repeat a `/switch` or `/fork` to the version recorded as `to`: the re-run's version made by the same
        /// recorded turn (or the nearest such one before it on its branch).
        case move(to: Int, forks: Bool)
        /// Ground the turns that follow in this source, as the recorded session did: the copy the
        /// transcript keeps (data, never a path to read).
        case addSource(SourceDocument)
        /// Take that source away again, as the recorded session did.
        case removeSource(Int)
        /// Make that lesson of the unit current again, so later commands revise the lesson they revised.
        case lesson(Int)
        /// Not sent again, listed with the reason.
        case skip(turn: Int, command: String, reason: String)
    }

    /// A re-run that sends more requests than this asks first (or needs `--yes`).
    package static let sendsWithoutAsking = 3

    /// How many requests a re-run sends before any repairs: one per command sent again.
    package static func requestCount(_ recorded: SessionState, through: Int? = nil) -> Int {
        plan(recorded, through: through).count { if case .send = $0 { true } else { false } }
    }

    /// The recorded events a re-run walks: completed requests are sent again (a `/continue`
    /// sends the command whose draft it finished, once); cancelled, failed and unfinished attempts,
    /// automatic turns and hand edits are listed as skipped.
    /// - Parameter through: with `--turn N`, the last turn to run (earlier ones rebuild the plan it revised).
    static func plan(_ recorded: SessionState, through: Int? = nil) -> [Plan] {
        var plan: [Plan] = []
        // The drafts a later /continue finished: their command is sent once, at the /continue.
        let continued = Set(recorded.turns.compactMap { $0.ended?.status == .completed ? $0.started.continues : nil })
        for event in recorded.events {
            switch event {
            case .undo(let undo):
                if let command = undo.command {
                    plan.append(.move(to: undo.to, forks: command.hasPrefix("/fork")))
                } else {
                    plan.append(.undo)
                }
            case .sourceAdded(let added):
                plan.append(.addSource(added.source))
            case .sourceRemoved(let removed):
                plan.append(.removeSource(removed.number))
            case .unit:
                break
            case .lesson(let lesson):
                plan.append(.lesson(lesson.number))
            case .handEdit(let edit):
                plan.append(
                    .skip(turn: 0, command: edit.command, reason: "a hand edit is not re-run; later turns revise the model's plan instead"))
            case .turn(let index):
                let turn = recorded.turns[index]
                let number = turn.started.turn
                if let through, number > through { return plan }
                let command = turn.started.command
                if turn.started.follows != nil {
                    plan.append(
                        .skip(turn: number, command: command, reason: "an automatic turn; the re-run makes its own when today's plan calls for one"))
                } else if turn.ended?.status != .completed, continued.contains(number) {
                    plan.append(.skip(turn: number, command: command, reason: "a draft that stopped early; it is sent again whole at its /continue"))
                } else if let status = turn.ended?.status, status != .completed {
                    plan.append(.skip(turn: number, command: command, reason: "a \(status.rawValue) attempt, not sent again"))
                } else if turn.ended == nil {
                    plan.append(.skip(turn: number, command: command, reason: "an attempt that never finished, not sent again"))
                } else {
                    let draft = turn.started.continues.flatMap { draft in recorded.turns.first { $0.started.turn == draft } }
                    let sent = draft?.started.command ?? command
                    if let refusal = refusal(sent) {
                        plan.append(.skip(turn: number, command: sent, reason: refusal))
                    } else {
                        plan.append(.send(turn: number, command: sent))
                    }
                }
            }
        }
        return plan
    }

    /// Why a recorded command is not sent again, or nil for a request to the model. A transcript may
    /// come from anyone, so a line that writes, removes, opens an editor or the clipboard (or is not a
    /// command at all) is listed, never run: a re-run sends model turns only.
    static func refusal(_ command: String) -> String? {
        guard let resolved = try? CommandTable.resolve(command) else {
            return "not a command this lessonplan knows, so not run"
        }
        guard resolved.command.asksTheModel else {
            return "/\(resolved.command.name) is not a request to the model; a re-run sends model turns only, so it did not run"
        }
        return nil
    }

    /// Sends the recorded requests again through `runner`, whose engine holds a fresh session with the
    /// same inputs.
    /// - Parameters:
    ///   - only: with `--turn N`, the one turn to compare; the turns before it run to rebuild its plan.
    ///   - announce: called once as each turn starts.
    package static func run(
        _ recorded: SessionState, runner: CommandRunner, only: Int? = nil, announce: @Sendable (Int, String) -> Void = { _, _ in }
    ) async -> [RerunStep] {
        var steps: [RerunStep] = []
        // The recorded versions each command made (its own and its follow-ups'), to the re-run's version after it.
        var made: [Int: Int] = [:]
        for item in plan(recorded, through: only) {
            if Task.isCancelled { break }
            switch item {
            case .undo:
                await runner.run("/undo")
            case .move(let to, let forks):
                if let target = rerunVersion(of: to, in: recorded, made: made) {
                    await runner.run("\(forks ? "/fork" : "/switch") \(target)")
                }
            case .lesson(let number):
                await runner.run("/lesson \(number)")
            case .addSource(let source):
                await runner.engine.addSource(source)
            case .removeSource(let number):
                _ = try? await runner.engine.removeSource(number)
            case .skip(let turn, let command, let reason):
                guard only == nil || turn == only else { continue }
                let recordedTurn = recorded.turns.first { $0.started.turn == turn }
                steps.append(
                    RerunStep(
                        turn: turn, command: command, recordedStatus: recordedTurn?.ended?.status,
                        recordedOutput: recordedTurn?.ended?.output ?? "", outcome: nil, note: reason))
            case .send(let turn, let command):
                announce(turn, command)
                let recordedTurn = recorded.turns.first { $0.started.turn == turn }
                var step = RerunStep(
                    turn: turn, command: command, recordedStatus: recordedTurn?.ended?.status,
                    recordedOutput: recordedTurn?.ended?.output ?? "", outcome: nil, note: nil)
                let outcome = await runner.run(command)
                if let now = await runner.engine.state.currentVersion {
                    for version in recordedVersions(madeBy: turn, in: recorded) { made[version] = now }
                }
                step.outcome = outcome.turns.first
                step.followUps = Array(outcome.turns.dropFirst())
                if step.outcome == nil {
                    step.note = outcome.status == .failed ? "it could not run today (said above)" : "not a request to the model today"
                }
                if only == nil || turn == only { steps.append(step) }
            }
        }
        return steps
    }

    /// The versions a recorded command made: its own turn's and those of the automatic turns that followed it.
    static func recordedVersions(madeBy turn: Int, in recorded: SessionState) -> [Int] {
        guard let own = recorded.turns.first(where: { $0.started.turn == turn })?.ended?.version else { return [] }
        let followUps = recorded.turns.filter { $0.started.follows == own }.compactMap { $0.ended?.version }
        return [own] + followUps
    }

    /// The re-run's version standing for recorded version `number`: the one made by the same command, or by the
    /// nearest command before it on its branch; nil when none was made.
    static func rerunVersion(of number: Int, in recorded: SessionState, made: [Int: Int]) -> Int? {
        var next: Int? = number
        var seen = Set<Int>()
        while let current = next, seen.insert(current).inserted {
            if let mapped = made[current] { return mapped }
            next = recorded.version(current)?.parent
        }
        return nil
    }
}
