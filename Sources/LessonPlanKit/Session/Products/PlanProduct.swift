import Foundation
import LessonPlanCore
import LessonPlanStore

/// A plan: checked (structure and content), measured for reading level, its quotations checked against
/// the sources, and made a version when its keep rule allows.
enum PlanProduct: TurnProduct {
    static func delivery(_ outcome: TurnOutcome) -> CommandProduct? { .plan }

    static func judge(_ context: ProductContext, into ended: inout TurnEnded) -> ProductVerdict {
        let output = context.output
        let keep = context.keep
        guard output.utf8.count <= PlanChecker.largestCheckedPlan else {
            // A runaway answer (a model looping to its limit) is no lesson plan: reading it section by section
            // would take seconds for nothing. It is kept unchecked only where any answer would be kept; a
            // follow-up never replaces its draft with one.
            let kept = keep == .always
            if keep != .always { ended.kept = kept }
            if kept { ended.version = context.state.nextNumber(of: .plan) }
            return ProductVerdict(
                notice: "The answer is \(output.utf8.count / 1024) KB, far longer than a lesson plan, so it was not checked.")
        }
        let framework = context.request.framework
        let inputs = context.request.inputs
        let plan = framework.document(of: output)
        let report = framework.check(plan, lessonMinutes: inputs.minutes, topic: inputs.topic, grade: inputs.grade)
        let level = ReadingMeasure(studentText: framework.studentFacingText(of: plan), band: inputs.grade)
        ended.check = report
        ended.readingLevel = level
        let sources = context.state.sources
        let quotes = sources.isEmpty ? nil : QuoteChecker.check(output, against: sources)
        let kept = keep.keeps(check: report, level: level, quoteProblems: quotes?.problems.count ?? 0)
        if keep != .always { ended.kept = kept }
        if kept { ended.version = context.state.nextNumber(of: .plan) }
        return ProductVerdict(
            quotes: quotes, keepNote: context.base.flatMap { keep.note(kept: kept, draft: $0.number, level: level) })
    }
}
