import Foundation
import LessonPlanCore
import LessonPlanStore

/// Student handouts made from a plan version by `/materials`; they are not a plan version themselves.
package struct MaterialsVersion: Equatable, Sendable, KeptProduct {
    package var number: Int
    package var text: String
    /// The plan version they were made from.
    package var planVersion: Int?
    package var inputs: LessonInputs
    package var createdAt: Date
}

/// Student handouts: kept, numbered on their own, beside the plan version they were made from.
enum MaterialsProduct: ProductKind {
    static let kind = TurnKind.materials
    static let noneYet = "There are no handouts yet; type /materials to make them from the plan."

    static func judge(_ context: ProductContext, into ended: inout TurnEnded) -> ProductVerdict {
        ended.made = Made(kind, context.state.nextNumber(of: kind))
        return ProductVerdict()
    }

    static func delivery(_ outcome: TurnOutcome) -> CommandProduct? { .text(outcome.text) }

    static func kept(_ made: Made, ended: TurnEnded, started: TurnStarted, in state: SessionState) -> MaterialsVersion {
        MaterialsVersion(number: made.number, text: ended.output, planVersion: started.baseVersion, inputs: started.inputs, createdAt: ended.at)
    }

    static func show(_ kept: MaterialsVersion, in state: SessionState, width: Int) -> [StyledText] {
        let from = kept.planVersion.map { " · from v\($0)" } ?? ""
        var stale: String?
        if let made = kept.planVersion, let current = state.currentVersion, made != current {
            stale = "These handouts were made from v\(made), but the plan is now v\(current); type /materials to make them from v\(current)."
        }
        return [ProductText.labelled("── handouts \(kept.number)\(from)", kept.text, problems: [], stale: stale)]
    }

    static func replay(_ turn: TurnSummary, ended: TurnEnded, base: String, in state: SessionState) -> (facts: [String], body: String?)? {
        (["completed → handouts \(ended.made(kind).map(String.init) ?? "?")\(base)"], nil)
    }
}

extension SessionState {
    /// Handouts made by `/materials`, oldest first.
    package var materials: [MaterialsVersion] { kept(MaterialsProduct.self) }
}
