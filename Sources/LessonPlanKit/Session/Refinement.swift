import Foundation

/// One request to the model: which template to render and the inputs the resulting plan is for.
public struct Refinement: Equatable, Sendable {
    /// The template under `prompts/`, e.g. `"shorten"`.
    public var template: String
    /// The inputs of the plan this turn should produce (a `/regrade` changes the band, a `/shorten` the minutes).
    public var inputs: LessonInputs
    /// Extra placeholder values for this template, e.g. `focus` or `request`.
    public var values: [String: String]
    /// The framework the resulting plan is written in; nil keeps the current plan's framework.
    public var framework: String?
    /// What the turn produces: a plan version, or student handouts.
    public var kind: TurnKind

    public init(
        template: String, inputs: LessonInputs, values: [String: String] = [:], framework: String? = nil,
        kind: TurnKind = .plan
    ) {
        self.template = template
        self.inputs = inputs
        self.values = values
        self.framework = framework
        self.kind = kind
    }

    /// Whether this turn starts from nothing rather than revising the current plan.
    public var isGeneration: Bool { template == "generate" }

    /// Whether the turn's plan is measured for reading level and retried once when it misses the band:
    /// only a change of grade band sets out to change how hard the text is.
    public var measuresReadingLevel: Bool { template == "regrade" && kind == .plan }

    /// The placeholder values for rendering, with the current plan and its inputs as context.
    public func promptValues(currentPlan: String?, currentInputs: LessonInputs?) -> [String: String] {
        var all: [String: String] = [
            "grade": inputs.grade.rawValue,
            "grade_level": inputs.gradeText,
            "from_grade_level": (currentInputs ?? inputs).gradeText,
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
