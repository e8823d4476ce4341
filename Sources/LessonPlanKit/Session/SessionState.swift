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

/// Something that changed the session, in order.
public enum SessionEvent: Equatable, Sendable {
    /// A turn, by its index in ``SessionState/turns``.
    case turn(Int)
    case undo(UndoRecord)
    case handEdit(HandEditRecord)
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
    /// Turns, undos and hand edits in the order they happened, for `replay`.
    public private(set) var events: [SessionEvent] = []

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
        CommandContext(inputs: currentInputs, currentVersion: currentVersion, versionCount: versions.count)
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
            events.append(.turn(turns.count - 1))
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
            if version(undo.to) != nil {
                currentVersion = undo.to
                events.append(.undo(undo))
            }
        case .named(let named):
            name = named.name
        case .handEdit(let edit):
            guard edit.version == versions.count + 1, let base = version(edit.baseVersion) else { return }
            versions.append(
                PlanVersion(
                    number: edit.version, text: edit.text, command: edit.command, inputs: base.inputs,
                    parent: edit.baseVersion, createdAt: edit.at))
            currentVersion = edit.version
            events.append(.handEdit(edit))
        }
    }

    /// Where `/undo` goes from the current version, or nil when there is nothing to undo.
    public var undoTarget: Int? { current?.parent }
}
