import LessonPlanCore

/// Answers to a structured plan's schema, as a model writes them.
package enum StructuredPlanFixtures {
    /// An answer filling every part with `extra` more items than the schema's minimum, each shaped by `item`.
    package static func answer(
        _ plan: StructuredPlan, extra: Int = 0,
        item: (StructuredPlan.Part, Int) -> String = { part, n in
            part.role == .content ? "Students work on step \(n) with a partner." : "What does step \(n) show about fractions?"
        }
    ) -> String {
        let members = plan.parts.map { part in
            let count = min(part.minItems + extra, part.maxItems)
            return JSONText.string(part.key).serialized + ":"
                + JSONText.array((1...count).map { .string(item(part, $0)) }).serialized
        }
        return "{" + members.joined(separator: ",") + "}"
    }
}
