import Foundation
import LessonPlanCore
import LessonPlanStore

/// One version of the plan and how it came to be.
package struct PlanVersion: Equatable, Sendable {
    package var number: Int
    package var text: String
    /// The command as typed that produced it.
    package var command: String
    /// The inputs this version was written for.
    package var inputs: LessonInputs
    /// The version `/undo` goes back to: the one it was made from, or for a plan that replaced a draft
    /// automatically, the draft's own parent; nil for the first plan.
    package var parent: Int?
    package var createdAt: Date
    /// The framework the plan is written in.
    package var framework: String = Framework.defaultName
    /// The plan check recorded with it; nil in transcripts older than the check.
    package var check: PlanCheckReport?
    /// The draft this version replaced when an automatic repair or retry made it.
    package var draft: Int?
    /// The version it was made from is on a damaged line of the transcript, so it cannot be shown.
    package var parentLost: Bool = false
    /// The line that started its turn is damaged: its command is unknown and its inputs are
    /// those of the plan before it.
    package var startLost: Bool = false
    /// In a unit: the lesson this is a version of; nil outside a unit.
    package var lesson: Int? = nil
    /// Whether it is the same lesson as the version it was made from: a hand edit, a repair (`/repair`, template
    /// `repair`), or a plan that replaced a draft; decided from the record that made it, never from the command typed.
    package var sameLesson: Bool = false
}

/// A turn as the transcript tells it, for `/history`, `replay` and `sessions`.
package struct TurnSummary: Equatable, Sendable {
    package var started: TurnStarted
    package var ended: TurnEnded?
}

/// Something that changed the session, in order.
package enum SessionEvent: Equatable, Sendable {
    /// A turn, by its index in ``SessionState/turns``.
    case turn(Int)
    case undo(UndoRecord)
    case handEdit(HandEditRecord)
    case sourceAdded(SourceRecord)
    case sourceRemoved(SourceRemovedRecord)
    case unit(UnitRecord)
    case lesson(LessonRecord)
}

/// Everything a session knows, rebuilt by folding its transcript records in order.
///
/// There is no other source of truth: the REPL appends a record, then applies it here, so a
/// resumed session is exactly what the user last saw.
package struct SessionState: Sendable {
    package private(set) var header: SessionHeader
    package private(set) var name: String?
    package private(set) var versions: [PlanVersion] = []
    /// The number of the current version; nil before the first plan.
    package private(set) var currentVersion: Int?
    package private(set) var turns: [TurnSummary] = []
    /// What turns made and the session keeps beside the plan (handouts, quizzes, rubrics …), by kind, each kind's
    /// oldest first; its ``ProductKind`` decides what one is (``kept(_:)``).
    private var products: [TurnKind: [any KeptProduct]] = [:]
    /// The criteria and scale a ``ReviewProduct`` is read against: the session's prompts' (``reviewing(with:)``), or
    /// nil when not known (a transcript read on its own), when only what its answer says of itself is checked.
    package internal(set) var reviewRubric: ReviewRubric?
    /// The teacher's sources the plans are grounded in, in the order added, as the transcript keeps them.
    package private(set) var sources: [SourceDocument] = []
    /// Turns, undos, hand edits and sources in the order they happened, for `replay`.
    package private(set) var events: [SessionEvent] = []
    /// The unit's overview when the session is a unit of lessons; nil for a single lesson.
    package private(set) var unit: UnitRecord?
    /// In a unit: the lesson whose plan is current (``current``).
    package private(set) var currentLesson: Int?
    /// In a unit: each written lesson's current version, by lesson number.
    package private(set) var lessonVersions: [Int: Int] = [:]
    /// The automatic repair as `/repair on|off` (or `--no-repair`) last set it; nil when never set in the session.
    package private(set) var automaticRepair: Bool?
    /// The class the session is tied to (`--class`, then `/class`): its name only.
    package private(set) var className: String?
    /// Counts of what students chose on a quiz (`lessonplan results`), oldest first.
    package private(set) var results: [ResultsRecord] = []
    /// Each quiz's parallel forms (`/quiz forms N`), the latest asked for, by quiz number.
    package private(set) var forms: [Int: FormsRecord] = [:]

    package init(header: SessionHeader) {
        self.header = header
        self.name = header.name
        self.className = header.className
    }

    /// The current plan, if there is one.
    package var current: PlanVersion? { currentVersion.flatMap(version) }

    /// The inputs of the current plan, or the session's starting inputs before the first plan.
    package var currentInputs: LessonInputs { current?.inputs ?? header.inputs }

    /// The framework of the current plan, or the one the session started with before the first plan.
    package var currentFramework: String { current?.framework ?? header.framework ?? Framework.defaultName }

    /// What the turns of `kind` made and the session keeps, oldest first.
    func kept<Kind: ProductKind>(_ kind: Kind.Type) -> [Kind.Kept] {
        products[kind.kind]?.compactMap { $0 as? Kind.Kept } ?? []
    }

    /// Reads again everything of `kind` kept (after what it is read against changed).
    mutating func reread<Kind: ProductKind>(_ kind: Kind.Type, _ change: (Kind.Kept) -> Kind.Kept) {
        products[kind.kind] = kept(kind).map(change)
    }

    /// Version `number`, if it exists.
    ///
    /// Versions are numbered 1, 2, 3 …; a damaged line can leave a gap, so the number is looked
    /// up when it is not at its place.
    package func version(_ number: Int) -> PlanVersion? {
        if versions.indices.contains(number - 1), versions[number - 1].number == number { return versions[number - 1] }
        var low = 0
        var high = versions.count
        while low < high {
            let middle = (low + high) / 2
            if versions[middle].number < number { low = middle + 1 } else { high = middle }
        }
        return low < versions.count && versions[low].number == number ? versions[low] : nil
    }

    /// The number the next thing of `kind` made beside the plan gets; for a plan, the next version's.
    package func nextNumber(of kind: TurnKind) -> Int {
        let last = kind.keptKind == nil ? versions.last?.number : products[kind]?.last?.number
        return (last ?? 0) + 1
    }

    /// The command shown for a turn whose starting line is damaged.
    package static let lostCommand = "(unknown: its line in the transcript is damaged)"

    /// The number the next turn gets.
    package var nextTurnNumber: Int { (turns.last?.started.turn ?? 0) + 1 }

    /// The last command typed, for `sessions`.
    package var lastCommand: String? { turns.last?.started.command }

    /// Applies one record. Records that contradict the state (an undo to a version that does
    /// not exist, say) are ignored rather than trusted.
    package mutating func apply(_ record: TranscriptRecord) {
        switch record {
        case .header(let header):
            self.header = header
            name = header.name ?? name
        case .turnStarted(let started):
            turns.append(TurnSummary(started: started, ended: nil))
            events.append(.turn(turns.count - 1))
        case .turnEnded(let ended):
            end(ended)
        case .undo(let undo):
            if version(undo.to) != nil {
                makeCurrent(undo.to)
                events.append(.undo(undo))
            }
        case .named(let named):
            name = named.name
        case .handEdit(let edit):
            guard edit.version >= nextNumber(of: .plan) else { return }
            // An edit of a version whose line is damaged keeps the inputs of the plan before it.
            let base = version(edit.baseVersion)
            versions.append(
                PlanVersion(
                    number: edit.version, text: edit.text, command: edit.command, inputs: base?.inputs ?? currentInputs,
                    parent: edit.baseVersion, createdAt: edit.at, framework: base?.framework ?? currentFramework,
                    check: edit.check, parentLost: base == nil, lesson: edit.lesson ?? base?.lesson, sameLesson: true))
            makeCurrent(edit.version)
            events.append(.handEdit(edit))
        case .sourceAdded(let added):
            sources.append(added.source)
            events.append(.sourceAdded(added))
        case .sourceRemoved(let removed):
            guard sources.indices.contains(removed.number - 1) else { return }
            sources.remove(at: removed.number - 1)
            events.append(.sourceRemoved(removed))
        case .unit(let record):
            // A session is one unit at most; a second overview line is not trusted.
            guard unit == nil, record.lessons == record.outline.count, record.lessons >= 1 else { return }
            unit = record
            events.append(.unit(record))
        case .setting(let setting):
            automaticRepair = setting.repair ?? automaticRepair
            className = setting.className ?? className
        case .results(let record):
            results.append(record)
        case .forms(let record):
            forms[record.quiz] = record
        case .lesson(let record):
            guard let written = lessonVersions[record.number] else { return }
            makeCurrent(written)
            events.append(.lesson(record))
        }
    }

    /// A turn's end: a completed answer becomes what its kind keeps (a version, or what its ``ProductKind``
    /// keeps), numbered as the record says; a turn whose start is damaged is still shown.
    private mutating func end(_ ended: TurnEnded) {
        // A turn whose starting line is damaged is still shown, with what its end records.
        let startLost = !turns.contains { $0.started.turn == ended.turn }
        if startLost {
            let guessed = TurnStarted(
                turn: ended.turn, at: ended.at, command: Self.lostCommand, template: "", inputs: currentInputs,
                baseVersion: currentVersion, model: header.model, instructions: "", input: "", maxOutputTokens: 0,
                framework: currentFramework, kind: ended.made?.kind)
            turns.append(TurnSummary(started: guessed, ended: nil))
            events.append(.turn(turns.count - 1))
        }
        guard let index = turns.lastIndex(where: { $0.started.turn == ended.turn }) else { return }
        turns[index].ended = ended
        let started = turns[index].started
        guard ended.status == .completed else { return }
        if let made = ended.made {
            // What the turn made beside the plan, kept when it is of the turn's own kind; a number past the next one
            // means a damaged line hid one, and the later ones still count.
            if made.kind == started.kind, made.number >= nextNumber(of: made.kind) { keep(made, ended: ended, started: started) }
            return
        }
        guard (started.kind ?? .plan) == .plan else { return }
        // A number past the next one means a damaged line hid a version; the later ones still count.
        if let number = ended.version, number >= nextNumber(of: .plan) {
            // A plan that replaced a draft automatically stands where the draft stood.
            let parent: Int?
            if let draft = started.follows {
                parent = version(draft).map(\.parent) ?? draft
            } else {
                parent = started.baseVersion
            }
            versions.append(
                PlanVersion(
                    number: number, text: ended.output, command: started.command, inputs: started.inputs,
                    parent: parent, createdAt: ended.at, framework: started.framework ?? Framework.defaultName,
                    check: ended.check, draft: started.follows,
                    parentLost: parent.map { version($0) == nil } ?? false, startLost: startLost, lesson: started.lesson,
                    sameLesson: started.follows != nil || started.template == TurnPurpose.repair(problems: []).template))
            makeCurrent(number)
        }
    }

    /// Keeps what a turn made beside the plan among its kind's, as the kind reads it.
    private mutating func keep(_ made: Made, ended: TurnEnded, started: TurnStarted) {
        guard let kind = made.kind.keptKind else { return }
        products[made.kind, default: []].append(kind.keptProduct(made, ended: ended, started: started, in: self))
    }

    /// Makes a version current; in a unit, its lesson becomes the current lesson and the version that lesson's current one.
    private mutating func makeCurrent(_ number: Int) {
        currentVersion = number
        guard unit != nil, let lesson = version(number)?.lesson else { return }
        currentLesson = lesson
        lessonVersions[lesson] = number
    }

    /// Where `/undo` goes from the current version, or nil when there is nothing to undo.
    package var undoTarget: Int? { current?.parent }

    /// The request `/retry` sends again: the last turn, when it did not complete (failed,
    /// cancelled, stopped early, or never ended because the process died).
    package var retryTarget: TurnStarted? {
        guard let last = turns.last, last.ended?.status != .completed else { return nil }
        return last.started
    }

    /// What `/continue` finishes: the partial plan of the last turn, when it stopped early
    /// (`response.incomplete`, e.g. at the output limit) with some text. Handouts, a quiz or a rubric
    /// that stopped early are not a plan to finish: `/retry` asks for them again.
    package var draft: Draft? {
        // A section that `/redo` asked for and that stopped early is no plan to finish either.
        guard let last = turns.last, (last.started.kind ?? .plan) == .plan, !TurnPurpose.partTemplates.contains(last.started.template),
            let ended = last.ended, ended.status == .incomplete,
            !ended.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        else { return nil }
        return Draft(
            turn: last.started.turn, text: ended.output, command: last.started.command, inputs: last.started.inputs,
            baseVersion: last.started.baseVersion, lesson: last.started.lesson)
    }

    /// The output of turn `number` so far, as recorded when it ended.
    package func output(ofTurn number: Int) -> String? {
        turns.last { $0.started.turn == number }?.ended?.output
    }
}

/// A plan that stopped before it was finished, kept so `/continue` can finish it.
package struct Draft: Equatable, Sendable {
    /// The turn that wrote it.
    package var turn: Int
    /// The partial plan.
    package var text: String
    /// The command that asked for it.
    package var command: String
    /// The inputs the plan is for.
    package var inputs: LessonInputs
    /// The version that turn revised; nil for a first plan.
    package var baseVersion: Int?
    /// In a unit: the lesson the plan is for.
    package var lesson: Int? = nil
}
