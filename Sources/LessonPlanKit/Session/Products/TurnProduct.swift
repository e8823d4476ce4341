import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanStore

/// What a product's judge knows about a completed turn.
struct ProductContext {
    /// The whole answer (after a structure is rendered, and after a `/continue`'s draft).
    var output: String
    var request: TurnRequest
    /// When an answer of a follow-up replaces what it follows.
    var keep: KeepRule
    /// The plan the turn started from.
    var base: PlanVersion?
    var state: SessionState
}

/// What a product decided besides the fields it sets on the turn's end.
struct ProductVerdict {
    /// What the kind's check found (a quiz's problems, quotations not in the plan); one sentence each.
    var problems: [String] = []
    /// A plan's quotations checked against the session's sources.
    var quotes: QuoteReport?
    /// For a follow-up: one sentence on why its answer was kept or not.
    var keepNote: String?
    /// One line for the terminal that does not end the turn.
    var notice: String?
}

/// One kind of thing a turn makes: it checks the answer, decides keep or drop, numbers what it keeps and writes
/// its note, all on the turn's end record; it adds its parts to the turn's footer and says what a program receives.
/// Every kind has one such type, found by ``TurnKind/product``; a kind kept beside the plan is a
/// ``ProductKind``.
protocol TurnProduct: Sendable {
    static func judge(_ context: ProductContext, into ended: inout TurnEnded) -> ProductVerdict
    /// The footer's parts after the turn's own (what was made, tokens, seconds): what its check found.
    static func footer(_ outcome: TurnOutcome) -> [String]
    /// What a program receives once a command that asked for one is done; nil when the command delivers it.
    static func delivery(_ outcome: TurnOutcome) -> CommandProduct?
    /// For `replay`: the facts after the turn's status, and the text under them; nil for a plan's (a change to the
    /// plan it came from).
    static func replay(_ turn: TurnSummary, ended: TurnEnded, base: String, in state: SessionState) -> (facts: [String], body: String?)?
}

extension TurnProduct {
    static func footer(_ outcome: TurnOutcome) -> [String] { [] }
    static func delivery(_ outcome: TurnOutcome) -> CommandProduct? { nil }
    static func replay(_ turn: TurnSummary, ended: TurnEnded, base: String, in state: SessionState) -> (facts: [String], body: String?)? {
        nil
    }
}

/// Something a turn made that the session keeps beside the plan versions, numbered among its kind.
package protocol KeptProduct: Sendable {
    var number: Int { get }
    /// The model's answer as it came.
    var text: String { get }
    /// The plan version it was made from.
    var planVersion: Int? { get }
    var createdAt: Date { get }
}

/// A kind of thing kept beside the plan (``TurnKind/keptBesidePlan``): besides judging, it owns how the session keeps
/// one (``SessionState/products``), how `/show` prints it and what the teacher's copy of an export carries of it.
protocol ProductKind: TurnProduct {
    associatedtype Kept: KeptProduct
    static var kind: TurnKind { get }
    /// What the session keeps of a completed turn that made one, numbered as `made` says.
    static func kept(_ made: Made, ended: TurnEnded, started: TurnStarted, in state: SessionState) -> Kept
    /// `/show KIND [N]`: the one kept as the teacher reads it `width` columns wide, and any line after it.
    static func show(_ kept: Kept, in state: SessionState, width: Int) -> [StyledText]
    /// `/show KIND WORD`: the one a word other than a number chooses (a quiz's `starter`), or the sentence why
    /// there is none; nil when the word chooses nothing for this kind.
    static func choose(_ word: String, in state: SessionState) -> Result<Kept, SessionError>?
    /// Puts what an export of plan version `number` carries of this kind on the teacher's copy; nothing by default
    /// (a quiz and a rubric go on both copies, chosen with what was asked for: ``SessionReview/document(_:framework:showModel:asked:)``).
    static func teachersCopy(of number: Int, in state: SessionState, into document: inout ExportDocument)
    /// The sentence when the newest of this kind is left out of the teacher's copy of plan version `number`; nil when
    /// none is.
    static func leftOut(exporting number: Int?, in state: SessionState) -> String?
    /// Whether `/show KIND WORD` reads `word` as a choice of its own (``choose(_:in:)``) rather than a number.
    static func chooses(_ word: String) -> Bool
    /// The sentence `/show KIND` says when there is none yet, naming the command that makes one.
    static var noneYet: String { get }
    /// Whether the request that makes one carries the session's sources; not for a kind that judges the plan alone.
    static var carriesSources: Bool { get }
}

extension ProductKind {
    static func choose(_ word: String, in state: SessionState) -> Result<Kept, SessionError>? { nil }
    static func chooses(_ word: String) -> Bool { false }
    static func teachersCopy(of number: Int, in state: SessionState, into document: inout ExportDocument) {}
    static func leftOut(exporting number: Int?, in state: SessionState) -> String? { nil }
    static var carriesSources: Bool { true }

    /// ``kept(_:ended:started:in:)`` as the session's products map holds it.
    static func keptProduct(_ made: Made, ended: TurnEnded, started: TurnStarted, in state: SessionState) -> any KeptProduct {
        kept(made, ended: ended, started: started, in: state)
    }

    /// `/show KIND [N]` for any kind: the one numbered `number` (the newest when nil), or the sentence why not.
    static func show(_ number: Int?, word: String?, in state: SessionState, width: Int) -> Result<[StyledText], SessionError> {
        let all = state.kept(Self.self)
        let noun = kind.noun
        let chosen: Result<Kept, SessionError>
        if let word, let byWord = choose(word, in: state) {
            chosen = byWord
        } else if let number {
            chosen =
                all.first { $0.number == number }.map { .success($0) }
                ?? .failure(
                    SessionError(
                        all.last.map { "There is no \(noun) \(number); the \(kind.plural) are numbered 1 to \($0.number) (see /history)." }
                            ?? noneYet))
        } else {
            chosen = all.last.map { .success($0) } ?? .failure(SessionError(noneYet))
        }
        return chosen.map { show($0, in: state, width: width) }
    }
}

extension TurnKind {
    /// What one thing of this kind is called before its number: "quiz 2", "handouts 1".
    package var noun: String {
        switch self {
        case .materials: "handouts"
        case .plan: "version"
        default: rawValue
        }
    }

    /// What more than one of this kind is called: "quizzes", "handouts".
    package var plural: String {
        noun.hasSuffix("s") ? noun : noun.hasSuffix("z") ? noun + "zes" : noun + "s"
    }

    /// The product that judges an answer of this kind.
    var product: any TurnProduct.Type {
        if let keptKind { return keptKind }
        return self == .overview ? OverviewProduct.self as any TurnProduct.Type : PlanProduct.self
    }

    /// The product when it is kept beside the plan (``ProductKinds/registered``); nil for a plan or a unit's overview.
    /// (Looked up in the list rather than cast from ``product``: a failed cast to a protocol reads every conformance
    /// in the binary, a megabyte and more of memory.)
    var keptKind: (any ProductKind.Type)? { ProductKinds.registered.first { $0.kind == self } }

    /// The kinds kept beside the plan, in the order they are registered.
    package static let keptBesidePlan = ProductKinds.registered.map { $0.kind }

    /// Their names as a sentence lists them: "materials, quiz, rubric or …".
    package static var keptNames: String {
        keptBesidePlan.map(\.rawValue).listed("or")
    }
}

/// The kinds kept beside the plan, in the order `/show` and the exports list them: the one registration such a kind
/// needs in the session, a line each. Its ``TurnKind`` case and its command in ``CommandTable/all`` are the others.
enum ProductKinds {
    static let registered: [any ProductKind.Type] = [
        MaterialsProduct.self,
        QuizProduct.self,
        RubricProduct.self,
        ReviewProduct.self,
    ]
}
