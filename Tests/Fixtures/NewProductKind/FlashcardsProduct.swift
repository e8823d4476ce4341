// A fixture, not part of the tool: a kind kept beside the plan, added with this one file and a line in each of three
// lists (its `TurnKind` case, `ProductKinds.registered`, `CommandTable.all`). `NewProductKindTests` copies the package,
// puts this file beside the other kinds, adds the three lines and builds the tool.
import Foundation
import LessonPlanCore
import LessonPlanStore

/// A set of flashcards made from one plan version.
package struct FlashcardsVersion: Equatable, Sendable, KeptProduct {
    package var number: Int
    package var text: String
    package var planVersion: Int?
    package var createdAt: Date
}

/// Flashcards: kept when the answer holds a card, numbered on their own, beside the plan version they came from.
enum FlashcardsProduct: ProductKind {
    static let kind = TurnKind.flashcards
    static let noneYet = "There are no flashcards yet; type /flashcards to make some from the plan."

    static func judge(_ context: ProductContext, into ended: inout TurnEnded) -> ProductVerdict {
        guard context.output.split(separator: "\n").contains(where: { $0.hasPrefix("Q:") }) else {
            return ProductVerdict(keepNote: "The answer holds no card (a line starting “Q:”), so it is not kept; type /flashcards to ask again.")
        }
        ended.made = Made(kind, context.state.nextNumber(of: kind))
        return ProductVerdict()
    }

    static func delivery(_ outcome: TurnOutcome) -> CommandProduct? { .text(outcome.text) }

    static func kept(_ made: Made, ended: TurnEnded, started: TurnStarted, in state: SessionState) -> FlashcardsVersion {
        FlashcardsVersion(number: made.number, text: ended.output, planVersion: started.baseVersion, createdAt: ended.at)
    }

    static func show(_ cards: FlashcardsVersion, in state: SessionState, width: Int) -> [StyledText] {
        let stale = ProductText.stale("flashcards", madeFrom: cards.planVersion, current: state.currentVersion)
        return [ProductText.labelled("── flashcards \(cards.number)", cards.text, problems: [], stale: stale)]
    }
}

/// `/flashcards`: cards from the current plan, written with `prompts/flashcards.txt`.
package struct FlashcardsCommand: RequestCommand, Equatable {
    package static let name = "flashcards"
    package static let templates = ["flashcards"]
    package static let usage = "/flashcards"
    package static let summary = "flashcards from the plan, a question and its answer each"
    package static let details = "The cards are kept beside the plan, not as a version of it; /show flashcards prints the newest."

    package let refinement: Refinement

    package init(refinement: Refinement) { self.refinement = refinement }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self(refinement: Refinement(.besidePlan(.flashcards), inputs: context.inputs))
    }
}
