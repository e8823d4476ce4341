import Foundation
import LessonPlanCore
import LessonPlanStore

/// One request to the model: why it goes out, the inputs the resulting plan is for, and the command's own values.
package struct Refinement: Equatable, Sendable {
    /// Why the turn goes out; it names the template and the kind of answer.
    package var purpose: TurnPurpose
    /// The inputs of the plan this turn should produce (a `/regrade` changes the band, a `/shorten` the minutes).
    package var inputs: LessonInputs
    /// The command's own placeholder values, e.g. `focus` or `request`.
    package var values: [String: String]
    /// The framework the resulting plan is written in; nil keeps the current plan's framework.
    package var framework: String?

    package init(_ purpose: TurnPurpose, inputs: LessonInputs, values: [String: String] = [:], framework: String? = nil) {
        self.purpose = purpose
        self.inputs = inputs
        self.values = values
        self.framework = framework
    }

    /// The template under `prompts/` the request is written with.
    package var template: String { purpose.template }

    /// What the turn produces: a plan version, or something kept beside one.
    package var kind: TurnKind { purpose.kind }

    /// Whether this turn starts from nothing rather than revising the current plan.
    package var isGeneration: Bool { purpose.startsFresh }

    /// Whether the turn's plan is measured for reading level and retried once when it misses the band.
    package var measuresReadingLevel: Bool { purpose.measuresReadingLevel }

    /// The placeholder values for rendering, with the current plan and its inputs as context.
    package func promptValues(currentPlan: String?, currentInputs: LessonInputs?) -> [String: String] {
        var all: [String: String] = [
            "grade": inputs.grade.rawValue,
            "grade_level": inputs.gradeText,
            "from_grade_level": (currentInputs ?? inputs).gradeText,
            "topic": inputs.topic,
            "minutes": String(inputs.minutes),
            "standards": Self.standards(inputs.standards, citedIn: kind == .quiz || kind == .rubric ? currentPlan : nil),
            "constraints": inputs.constraints,
            // Handouts are written from the plan without its tables of supports: no row about a student reaches them.
            "plan": (purpose == .besidePlan(.materials) ? currentPlan.map(AccommodationTable.withoutTables) : currentPlan) ?? "",
            "from_grade": (currentInputs ?? inputs).grade.rawValue,
            "from_minutes": String((currentInputs ?? inputs).minutes),
        ]
        all.merge(purpose.values) { _, new in new }
        all.merge(values) { _, new in new }
        return all
    }

    /// The lesson's standards as given; for a quiz or rubric also each NGSS expectation the plan cites beyond them,
    /// with its assessment boundary, so the assessment is asked to stay inside what the plan is aligned to.
    static func standards(_ given: String, citedIn plan: String?) -> String {
        guard let plan else { return given }
        let catalog = StandardsCatalog.builtIn
        let named = Set(catalog.cited(in: given).compactMap { $0.standard?.code })
        let bounded = catalog.cited(in: plan).compactMap(\.standard).filter { !$0.boundary.isEmpty && !named.contains($0.code) }
        guard !bounded.isEmpty else { return given }
        let lines = bounded.map { "\($0.code) (cited by the plan): \($0.text) (Assessment boundary: \($0.boundary))" }
        return ([given].filter { !$0.isEmpty } + lines).joined(separator: "\n")
    }
}
