import Foundation
import LessonPlanCore
import LessonPlanModel
import LessonPlanStore
import Synchronization

/// What the REPL hears while a turn runs.
package enum TurnProgress: Sendable, Equatable {
    /// The request is out; nothing has come back yet.
    case waiting
    /// More plan text to show.
    case text(String)
    /// Something worth one line on stderr that does not end the turn.
    case notice(String)
    /// The attempt failed before any text; the same request goes out again after this wait.
    case retrying(RetryWait)
    /// A structured answer (JSON, shown once complete) has brought this many characters so far, so the
    /// waiting line can show that it is working.
    case received(characters: Int)
}

/// How a turn ended, for the footer and the exit status of the one-shot form: the `turn_ended` line as written, and
/// what the REPL shows beside it (the check's sentences in the framework's names, the keep note, the quotations).
package struct TurnOutcome: Sendable, Equatable {
    /// The turn's `turn_ended` record as it was written; nil for a turn that never went out.
    package var ended: TurnEnded?
    /// Why a turn that never went out did not (a broken template, no key, a disk that cannot be written).
    private var notSentReason: String?

    package var status: TurnStatus { ended?.status ?? .failed }
    /// The version the turn created, if it completed.
    package var version: Int? { ended?.version }
    package var usage: Usage? { ended?.usage }
    /// How long the turn took; 0 for one that never went out.
    package var seconds: Double { Double(ended?.durationMs ?? 0) / 1000 }
    /// The one-sentence reason for anything but `completed`.
    package var message: String? { ended.map(\.error) ?? notSentReason }
    /// The answer text received (partial unless completed).
    package var text: String { ended?.output ?? "" }
    /// The plan check of a completed plan turn's answer.
    package var check: PlanCheckReport? { ended?.check }
    /// The reading level of a completed plan turn's answer.
    package var readingLevel: ReadingMeasure? { ended?.readingLevel }
    /// For a turn whose plan replaces the current one only when better: whether it did; nil for other turns.
    package var kept: Bool? { ended?.kept }
    /// What a turn of a kind kept beside the plan (or a kept repair of one) made: its kind and number.
    package var made: Made? { ended?.made }
    /// Whether the answer came as a stream; false when a proxy sent it whole.
    package var streamed: Bool { ended?.streamed ?? true }
    /// Whether the turn went out: a request was sent and its `turn_ended` line written.
    package var wentOut: Bool { ended != nil }

    /// What the turn produced: a plan, or a kind kept beside it (``TurnKind``).
    package var kind: TurnKind = .plan
    /// A structured answer that did not fit the plan's parts (not JSON, too few usable items): asked once more.
    package var unfittingStructure = false
    /// For a completed turn of a kind with a check of its own (a quiz, a rubric, a unit's overview, the quotations of
    /// a second opinion on the plan): what it found, one sentence each.
    package var assessmentProblems: [String] = []
    /// The framework the answer was checked against.
    package var framework: String = Framework.defaultName
    /// The check's problems in one sentence each, in the framework's own section names.
    package var problems: [String] = []
    /// For a plan turn of a session with sources: every quotation checked against them.
    package var quotes: QuoteReport?
    /// For a turn that carried sources cut to the budget: one line per source naming the pages sent.
    package var sourceCuts: [String] = []
    /// The content check's problems in one sentence each.
    package var notes: [String] = []
    /// The content check's advice in one sentence each: shown, never sent on its own.
    package var advice: [String] = []
    /// The current version once the turn is over.
    package var current: Int?
    /// For a follow-up turn: one sentence on why its plan was kept or not.
    package var keepNote: String?
    /// Why the turn's records are not on disk yet (kept in memory to be written later); nil when saved.
    package var notSaved: String?

    /// A turn that went out and ended as `ended` records.
    init(ended: TurnEnded) { self.ended = ended }

    /// A turn that never went out, for `reason`.
    init(notSent reason: String?) { notSentReason = reason }

    /// Whether the turn produced a plan with structure or content problems, so the one automatic repair should go
    /// out; advice alone never sends one.
    package var needsRepair: Bool {
        status == .completed && kept != false && version != nil
            && (check?.needsRepair == true || quotes?.problems.isEmpty == false)
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// Everything one turn sends, however it was asked for (a command, `/retry`, `/continue`): the `turn_started` record
/// it writes, as ``TurnOutcome`` wraps the `turn_ended` one, and what only the sending needs.
struct TurnRequest: Sendable {
    /// The record of the turn's start; its number, time, model and output limit are set when it is sent (``record``).
    var started: TurnStarted
    /// The framework the answer is checked against.
    var framework: Framework
    /// Text already written that this turn's answer continues; the turn's output starts with it.
    var prefix: String = ""
    /// For a quiz or rubric turn: what was asked for, which its check needs.
    var assessment: AssessmentRequest? = nil
    /// The structure the tool writes around the model's JSON answer; nil for a free-text answer.
    var structure: StructuredPlan? = nil
    /// For a unit's overview asked under a schema: the schema, whose JSON answer is written back into the layout.
    var overview: UnitOverviewSchema? = nil
    /// One line per source cut to the budget, for the footer.
    var sourceCuts: [String] = []
    /// For a part written again (`/redo`, `/quiz item N`, `/rubric row N`): what the answer is put into; the
    /// turn's output is then the whole plan, quiz or rubric.
    var splice: AnswerSplice? = nil

    init(_ started: TurnStarted, framework: Framework, prefix: String = "", assessment: AssessmentRequest? = nil) {
        self.started = started
        self.framework = framework
        self.prefix = prefix
        self.assessment = assessment
    }

    var command: String { started.command }
    var template: String { started.template }
    var inputs: LessonInputs { started.inputs }
    var instructions: String { started.instructions }
    var input: String { started.input }
    /// For an automatic turn: the draft version it tries to improve.
    var follows: Int? { started.follows }
    var kind: TurnKind { started.kind ?? .plan }
    /// In a unit: the lesson the turn writes or works from.
    var lesson: Int? { started.lesson }

    var quizKind: Quiz.Kind? { if case .quiz(let kind, _) = assessment { kind } else { nil } }
    var quizItems: Int? { if case .quiz(_, let items) = assessment { items } else { nil } }
    /// For a quiz turn: whether its prompt asks for student feedback, so the quiz must carry it.
    var quizFeedback: Bool? { quizKind == nil ? nil : QuizReader.asksForFeedback(input) }
    var rubricLevels: Int? { if case .rubric(let levels) = assessment { levels } else { nil } }

    /// The `turn_started` record as the turn is sent: numbered, timed, with the model and what was asked for.
    func record(turn: Int, at: Date, model: String, maxOutputTokens: Int) -> TurnStarted {
        var record = started
        record.turn = turn
        record.at = at
        record.model = model
        record.maxOutputTokens = maxOutputTokens
        record.framework = framework.name
        record.kind = kind == .plan ? nil : kind
        record.quizKind = quizKind
        record.quizItems = quizItems
        record.quizFeedback = quizFeedback
        record.rubricLevels = rubricLevels
        return record
    }
}

/// What a turn's answer is put into when it writes one part again, the rest kept byte for byte.
enum AnswerSplice: Sendable {
    case section(SectionSplice)
    case quizItem(QuizItemSplice)
    case rubricRow(RubricRowSplice)
    /// Lines the tool writes into the answer itself, under a heading: `/reteach`'s counts, never the model's.
    case notes(String, under: String, headings: [String])

    /// The part a purpose writes again in `base` (the current plan, or the quiz or rubric it names), or the notes
    /// the tool adds (`values["results_note"]`); nil for others.
    init?(_ purpose: TurnPurpose, base: PlanVersion?, framework: Framework, values: [String: String] = [:]) {
        switch purpose {
        case .revise(.reteach):
            guard let note = values["results_note"], let heading = framework.warmUpHeading ?? framework.headings.first else { return nil }
            self = .notes(note, under: heading, headings: framework.headings)
        case .redo(let redo):
            guard let base else { return nil }
            self = .section(SectionSplice(plan: base.text, heading: redo.heading, headings: framework.headings))
        case .part(let redo):
            switch redo.part {
            case .quizItem: self = .quizItem(QuizItemSplice(quiz: redo.text, item: redo.number))
            case .rubricRow: self = .rubricRow(RubricRowSplice(rubric: redo.text, row: redo.number))
            }
        default: return nil
        }
    }

    /// The whole text with the answer put in, or the one sentence why it cannot be.
    func whole(with answer: String) -> Result<String, SpliceRefusal> {
        do throws(SpliceRefusal) {
            switch self {
            case .section(let splice):
                do throws(SectionSplice.Failure) { return .success(try splice.splice(answer)) } catch {
                    throw SpliceRefusal(error.sentence)
                }
            case .quizItem(let splice):
                do throws(QuizItemSplice.Failure) { return .success(try splice.splice(answer)) } catch {
                    throw SpliceRefusal(error.sentence)
                }
            case .rubricRow(let splice): return .success(try splice.splice(answer))
            case .notes(let note, let heading, let headings): return .success(Self.insert(note, under: heading, headings: headings, in: answer))
            }
        } catch {
            return .failure(error)
        }
    }
}

extension AnswerSplice {
    /// `answer` with `note` as a line right under the heading of `heading`'s section (at the top when it has none).
    static func insert(_ note: String, under heading: String, headings: [String], in answer: String) -> String {
        var lines = answer.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let document = PlanDocument(parsing: answer, headings: headings)
        let at = document.section(heading).flatMap { section in lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == section.title } }
        lines.insert(note, at: at.map { $0 + 1 } ?? 0)
        return lines.joined(separator: "\n")
    }
}

/// Set by the deadline timer before it cancels the turn, so the cancellation reads as a timeout.
final class DeadlineFlag: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
}

/// Something the session cannot do right now (undo past the first plan, edit before one), in one
/// sentence that says what to do instead.
package struct SessionError: Error, Equatable, Sendable, LocalizedError {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var errorDescription: String? { message }
}
