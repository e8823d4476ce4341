import Foundation
import LessonPlanCore
import LessonPlanModel

/// The one place a turn's request is written, for every purpose: the instructions, the input rendered from
/// the purpose's template with the current plan as context, the structure the tool writes when it writes one,
/// and the teacher's sources where the purpose carries them.
package struct TurnPrompt {
    let prompts: PromptLibrary
    /// The teacher's sources; the pages nearest the request go with it.
    let sources: [SourceDocument]
    /// Whether the tool writes the plan's structure and asks only for its content (``ModelSettings/structured``,
    /// unless a proxy was seen to drop it).
    let structured: Bool
    /// What a structured answer may hold: ``StructuredPlan/Size/bounded`` for a server that enforces lengths.
    var size: StructuredPlan.Size = .counted

    /// What one turn sends.
    struct Written {
        var framework: Framework
        var instructions: String
        var input: String
        var structure: StructuredPlan?
        /// For a unit's overview when the tool structures answers: the JSON schema its answer is asked under.
        var overview: UnitOverviewSchema? = nil
        var sourceCuts: [String]
    }

    /// Writes the request for `refinement` from `base` (the plan it starts from; nil for a fresh one).
    /// - Parameters:
    ///   - command: the command as typed, which helps choose the source pages to send.
    ///   - unitObjective: in a unit, the objective the turn's lesson keeps (``TurnPurpose/keepsUnitObjective``);
    ///     nil when the model writes the objective.
    /// - Throws: ``PromptError`` when a template is missing or broken.
    func write(
        _ refinement: Refinement, base: PlanVersion?, sessionFramework: String, command: String, unitObjective: String? = nil
    ) throws -> Written {
        let framework = try prompts.framework(refinement.framework ?? base?.framework ?? sessionFramework)
        // A draft to finish is the whole context: the plan it was revising is not sent again.
        var context = base
        if case .finish = refinement.purpose { context = nil }
        var values = refinement.promptValues(currentPlan: context?.text, currentInputs: context?.inputs)
        if let context, values["from_framework"] == nil {
            values["from_framework"] = (try? prompts.framework(context.framework).title) ?? context.framework
        }
        var structure = self.structure(allowed: refinement.purpose.canBeStructured, framework: framework, inputs: refinement.inputs)
        if let unitObjective {
            // The tool writes the lesson's objective, the model the rest (the tiny model otherwise writes one of
            // its own, file names and all).
            structure = structure?.giving(objective: unitObjective)
        }
        if let structure {
            // The tool writes the structure: the format rules become the parts the model fills in.
            values["sections"] = structure.promptSections
            values["rules"] = try prompts.render("structured", values: values, framework: framework.name)
        }
        let instructions = try prompts.render(
            refinement.purpose.instructionsTemplate ?? (structure == nil ? "instructions" : "structured-instructions"),
            values: [:], framework: framework.name)
        var input = try prompts.render(refinement.template, values: values, framework: framework.name)
        // A model whose plans are structured gets the overview's fields under a schema too.
        var overview: UnitOverviewSchema?
        if structured, let lessons = refinement.purpose.overviewLessons {
            let schema = UnitOverviewSchema(
                lessons: lessons, steps: UnitOverviewSchema.steps(lessons: lessons, progression: prompts.unitProgression))
            overview = schema
            values["progression"] = schema.promptLine
            input += "\n\n" + (try prompts.render("unit-overview-json", values: values, framework: framework.name))
        }
        var cuts: [String] = []
        if !sources.isEmpty, refinement.purpose.carriesSources {
            // The pages nearest the topic and the request, marked so quotations can cite them.
            let query = [refinement.inputs.topic, command, values["request"] ?? "", values["focus"] ?? ""]
            let selection = SourceSelection(sources: sources, query: query.joined(separator: " "))
            let cite = sources.count == 1 ? "\"…\" (p. N)" : "\"…\" (NAME p. N), NAME being the file's name as marked"
            input +=
                "\n\n"
                + (try prompts.render(
                    "sources", values: ["sources": selection.text, "cite_form": cite], framework: framework.name))
            cuts = selection.cuts
        }
        return Written(
            framework: framework, instructions: instructions, input: input, structure: structure, overview: overview,
            sourceCuts: cuts)
    }

    /// The JSON schema a turn's answer is asked under: the plan's structure, or a unit overview's; nil for free text.
    static func schema(structure: StructuredPlan?, overview: UnitOverviewSchema?, api: APIFlavor) -> ResponseSchema? {
        structure.map { ResponseSchema(name: StructuredPlan.schemaName, json: $0.schema()) }
            // llama-server (Chat Completions) enforces string lengths; OpenAI's strict mode takes a subset.
            ?? overview.map { ResponseSchema(name: UnitOverviewSchema.schemaName, json: $0.schema(lengthLimits: api == .chat)) }
    }

    /// The body of the request a new session sends for its first plan, exactly as it would go out (the class's
    /// pseudonyms in it), for `doctor --show-request`; nothing is sent.
    /// - Throws: ``PromptError`` when a template is missing or broken.
    package static func firstPlanBody(
        inputs: LessonInputs, framework: String, prompts: PromptLibrary, client: ModelClient
    ) throws -> Data {
        let settings = client.settings
        let writer = TurnPrompt(
            prompts: prompts, sources: [], structured: settings.structured,
            size: settings.api == .chat ? .local(model: settings.model) : .counted)
        let written = try writer.write(
            Refinement(.generate, inputs: inputs, framework: framework), base: nil, sessionFramework: framework, command: "/generate")
        return client.request(
            instructions: written.instructions, input: written.input,
            schema: schema(structure: written.structure, overview: written.overview, api: settings.api)
        ).body
    }

    /// The structure the tool writes when the settings say so and the turn may have one
    /// (``TurnPurpose/canBeStructured``); nil for a free-text answer.
    func structure(allowed: Bool, framework: Framework, inputs: LessonInputs) -> StructuredPlan? {
        guard structured, allowed else { return nil }
        return StructuredPlan(framework: framework, inputs: inputs, size: size)
    }
}
