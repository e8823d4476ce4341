import Foundation
import LessonPlanCore
import LessonPlanStore

/// A rubric `/rubric` made, kept beside the plan version it was made from (not a version itself).
package struct RubricVersion: Equatable, Sendable, KeptProduct {
    package var number: Int
    /// The model's answer as it came; ``rubric`` is read from it.
    package var text: String
    package var rubric: Rubric
    /// What the check found, one sentence each; empty when it passed.
    package var problems: [String]
    /// The plan version it was made from.
    package var planVersion: Int?
    package var inputs: LessonInputs
    package var createdAt: Date

    init(number: Int, text: String, started: TurnStarted, createdAt: Date) {
        self.number = number
        self.text = text
        rubric = RubricReader.read(text)
        problems = AssessmentRequest.rubric(levels: started.rubricLevels ?? Rubric.defaultLevels).problems(
            in: text, lesson: nil, feedbackAsked: false)
        planVersion = started.baseVersion
        inputs = started.inputs
        self.createdAt = createdAt
    }
}

/// A rubric (`/rubric`): checked against what was asked for; a repair of one is kept only with fewer problems.
enum RubricProduct: AssessmentKind {
    static let kind = TurnKind.rubric
    static let noneYet = "There is no rubric yet; type /rubric to make one from the plan."

    static func kept(_ made: Made, ended: TurnEnded, started: TurnStarted, in state: SessionState) -> RubricVersion {
        RubricVersion(number: made.number, text: ended.output, started: started, createdAt: ended.at)
    }

    /// A rubric as a table `width` columns wide, or its text as it came when no level could be read from it.
    static func table(_ rubric: Rubric, text: String, width: Int) -> String {
        rubric.levels.isEmpty ? text : AssessmentText.rubricTable(rubric, width: width)
    }

    /// The rubric as a table `width` columns wide (and the students' version under it) under a one-line label, its
    /// check's problems, a warning when the plan has moved on from the version it was made from, and whether it
    /// still fits the current plan.
    static func show(_ rubric: RubricVersion, in state: SessionState, width: Int) -> [StyledText] {
        let from = rubric.planVersion.map { " · from v\($0)" } ?? ""
        let task = rubric.rubric.task.isEmpty ? "" : " · \(rubric.rubric.task)"
        let label = "── rubric \(rubric.number)\(task) · \(counted(rubric.rubric.levels.count, "level"))\(from)"
        var body = table(rubric.rubric, text: rubric.text, width: width)
        if !rubric.rubric.studentCriteria.isEmpty {
            body += "\nFor students:\n" + AssessmentText.rubricTable(rubric.rubric.forStudents, width: width)
        }
        return shown(label, body, problems: rubric.problems, madeFrom: rubric.planVersion, in: state)
    }
}

extension SessionState {
    /// Rubrics made by `/rubric` (and kept repairs of them), oldest first.
    package var rubrics: [RubricVersion] { kept(RubricProduct.self) }
}
