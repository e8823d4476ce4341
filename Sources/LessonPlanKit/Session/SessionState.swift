import Foundation

/// One version of the plan and how it came to be.
public struct PlanVersion: Equatable, Sendable {
    public var number: Int
    public var text: String
    /// The command as typed that produced it.
    public var command: String
    /// The inputs this version was written for.
    public var inputs: LessonInputs
    /// The version it was made from; nil for the first plan.
    public var parent: Int?
    public var createdAt: Date
}

/// A turn as the transcript tells it, for `/history`, `replay` and `sessions`.
public struct TurnSummary: Equatable, Sendable {
    public var started: TurnStarted
    public var ended: TurnEnded?
}

/// Everything a session knows, rebuilt by folding its transcript records in order.
///
/// There is no other source of truth: the REPL appends a record, then applies it here, so a
/// resumed session is exactly what the user last saw.
public struct SessionState: Sendable {
    public private(set) var header: SessionHeader
    public private(set) var name: String?
    public private(set) var versions: [PlanVersion] = []
    /// The number of the current version; nil before the first plan.
    public private(set) var currentVersion: Int?
    public private(set) var turns: [TurnSummary] = []

    public init(header: SessionHeader) {
        self.header = header
        self.name = header.name
    }

    /// The current plan, if there is one.
    public var current: PlanVersion? { currentVersion.flatMap(version) }

    /// The inputs of the current plan, or the session's starting inputs before the first plan.
    public var currentInputs: LessonInputs { current?.inputs ?? header.inputs }

    /// Version `number`, if it exists.
    public func version(_ number: Int) -> PlanVersion? {
        versions.indices.contains(number - 1) ? versions[number - 1] : nil
    }

    /// The number the next turn gets.
    public var nextTurnNumber: Int { (turns.last?.started.turn ?? 0) + 1 }

    /// The command context for parsing what the teacher types next.
    public var commandContext: CommandContext {
        CommandContext(
            inputs: currentInputs, currentVersion: currentVersion, versionCount: versions.count,
            retryCommand: retryTarget?.command, draftCommand: draft?.command)
    }

    /// The last command typed, for `sessions`.
    public var lastCommand: String? { turns.last?.started.command }

    /// Applies one record. Records that contradict the state (an undo to a version that does
    /// not exist, say) are ignored rather than trusted.
    public mutating func apply(_ record: TranscriptRecord) {
        switch record {
        case .header(let header):
            self.header = header
            name = header.name ?? name
        case .turnStarted(let started):
            turns.append(TurnSummary(started: started, ended: nil))
        case .turnEnded(let ended):
            guard let index = turns.lastIndex(where: { $0.started.turn == ended.turn }) else { return }
            turns[index].ended = ended
            let started = turns[index].started
            if ended.status == .completed, let number = ended.version, number == versions.count + 1 {
                versions.append(
                    PlanVersion(
                        number: number, text: ended.output, command: started.command, inputs: started.inputs,
                        parent: started.baseVersion, createdAt: ended.at))
                currentVersion = number
            }
        case .undo(let undo):
            if version(undo.to) != nil { currentVersion = undo.to }
        case .named(let named):
            name = named.name
        }
    }

    /// Where `/undo` goes from the current version, or nil when there is nothing to undo.
    public var undoTarget: Int? { current?.parent }

    /// The request `/retry` sends again: the last turn, when it did not complete (failed,
    /// cancelled, stopped early, or never ended because the process died).
    public var retryTarget: TurnStarted? {
        guard let last = turns.last, last.ended?.status != .completed else { return nil }
        return last.started
    }

    /// What `/continue` finishes: the partial plan of the last turn, when it stopped early
    /// (`response.incomplete`, e.g. at the output limit) with some text.
    public var draft: Draft? {
        guard let last = turns.last, let ended = last.ended, ended.status == .incomplete,
            !ended.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        else { return nil }
        return Draft(
            turn: last.started.turn, text: ended.output, command: last.started.command, inputs: last.started.inputs,
            baseVersion: last.started.baseVersion)
    }

    /// The output of turn `number` so far, as recorded when it ended.
    public func output(ofTurn number: Int) -> String? {
        turns.last { $0.started.turn == number }?.ended?.output
    }
}

/// A plan that stopped before it was finished, kept so `/continue` can finish it.
public struct Draft: Equatable, Sendable {
    /// The turn that wrote it.
    public var turn: Int
    /// The partial plan.
    public var text: String
    /// The command that asked for it.
    public var command: String
    /// The inputs the plan is for.
    public var inputs: LessonInputs
    /// The version that turn revised; nil for a first plan.
    public var baseVersion: Int?
}
