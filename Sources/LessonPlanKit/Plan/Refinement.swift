import Foundation

/// One request to the model: which template to render and the inputs the resulting plan is for.
public struct Refinement: Equatable, Sendable {
    /// The template under `prompts/`, e.g. `"shorten"`.
    public var template: String
    /// The inputs of the plan this turn should produce (a `/regrade` changes the band, a `/shorten` the minutes).
    public var inputs: LessonInputs
    /// Extra placeholder values for this template, e.g. `focus` or `request`.
    public var values: [String: String]

    public init(template: String, inputs: LessonInputs, values: [String: String] = [:]) {
        self.template = template
        self.inputs = inputs
        self.values = values
    }

    /// Whether this turn starts from nothing rather than revising the current plan.
    public var isGeneration: Bool { template == "generate" }

    /// The placeholder values for rendering, with the current plan and its inputs as context.
    public func promptValues(currentPlan: String?, currentInputs: LessonInputs?) -> [String: String] {
        var all: [String: String] = [
            "grade": inputs.grade.rawValue,
            "topic": inputs.topic,
            "minutes": String(inputs.minutes),
            "standards": inputs.standards,
            "constraints": inputs.constraints,
            "plan": currentPlan ?? "",
            "from_grade": (currentInputs ?? inputs).grade.rawValue,
            "from_minutes": String((currentInputs ?? inputs).minutes),
        ]
        all.merge(values) { _, new in new }
        return all
    }
}
