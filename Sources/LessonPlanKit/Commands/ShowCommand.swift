import Foundation
import LessonPlanCore

/// `/show [N|quiz [N]|rubric [N]|review [N]|repair]`: print the current plan, version N, a quiz (with its key),
/// rubric or review, the latest by default, or the latest repair that was not kept.
package struct ShowCommand: Command, Equatable {
    package static let name = "show"
    package static let usage = "/show [N|quiz [N|starter|exit]|rubric [N]|review [N]|repair]"
    package static let summary =
        "print the current plan, version N, a quiz (with its key), rubric or review (the latest unless you give its number), or the last repair not kept"
    package static let argumentCompletions = ["quiz", "rubric", "review", "repair"]

    /// What is printed.
    package enum Subject: Equatable, Sendable {
        /// A plan version; nil for the current one.
        case plan(Int?)
        /// A quiz by its number or kind (the newest starter or exit quiz); nil for the latest.
        case quiz(QuizChoice?)
        /// A rubric by its number; nil for the latest.
        case rubric(Int?)
        /// A review by its number; nil for the latest.
        case review(Int?)
        /// The latest automatic or typed repair (or reading-level retry) whose plan was not kept.
        case repair
    }

    package let subject: Subject

    /// The version to print; nil for the current one (or for a quiz or rubric).
    package var version: Int? { if case .plan(let number) = subject { number } else { nil } }

    package init(version: Int?) { subject = .plan(version) }

    package init(_ subject: Subject) { self.subject = subject }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        guard !arguments.isEmpty else { return Self(version: nil) }
        let words = arguments.lowercased().split(separator: " ").map(String.init)
        if words == ["repair"] { return Self(.repair) }
        switch words.first {
        case "quiz", "rubric", "review":
            let noun = words[0]
            guard words.count <= 2 else {
                throw CommandError("/show \(noun) takes at most one number, the \(noun)'s (see /history): e.g. /show \(noun) 2.")
            }
            if noun == "quiz", words.count == 2, let kind = Quiz.Kind(text: words[1]) { return Self(.quiz(.kind(kind))) }
            var number: Int?
            if words.count == 2 {
                guard let given = Int(words[1]), given > 0 else {
                    throw CommandError("“\(words[1])” is not a \(noun) number; give the number /history shows, e.g. /show \(noun) 2.")
                }
                number = given
            }
            return Self(noun == "quiz" ? .quiz(number.map(QuizChoice.number)) : noun == "rubric" ? .rubric(number) : .review(number))
        default: return Self(version: try parseVersion(arguments, context: context))
        }
    }

    /// A version number that exists, written `3` or `v3`.
    static func parseVersion(_ text: String, context: CommandContext) throws(CommandError) -> Int {
        let digits = text.lowercased().hasPrefix("v") ? String(text.dropFirst()) : text
        guard let number = Int(digits), (1...max(1, context.versionCount)).contains(number) else {
            throw CommandError(
                "“\(text)” is not a version; give a number from 1 to \(context.versionCount) (see /history), or quiz, rubric or review.")
        }
        return number
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        let state = await run.engine.state
        switch subject {
        case .quiz(let choice):
            guard let quiz = choice.map(state.quiz) ?? state.quizzes.last else {
                if case .number(let number)? = choice, let last = state.quizzes.last {
                    run.host.error("There is no quiz \(number); the quizzes are numbered 1 to \(last.number) (see /history).")
                } else if case .kind(let kind)? = choice {
                    run.host.error("There is no \(kind.rawValue) quiz yet; type /quiz \(kind.rawValue) to make one from the plan.")
                } else {
                    run.host.error("There is no quiz yet; type /quiz to make one from the plan.")
                }
                return .failed
            }
            run.host.show(Self.render(quiz, current: Self.lessonVersion(state, madeFrom: quiz.planVersion, quiz: quiz.quiz)))
            if let standing = Self.standingLine(state, madeFrom: quiz.planVersion, quiz: quiz.quiz, noun: "quiz") {
                run.host.show(StyledText(standing, style: .dim))
            }
            return .done
        case .rubric(let number):
            guard let rubric = number.map({ wanted in state.rubrics.first { $0.number == wanted } }) ?? state.rubrics.last else {
                if let number, let last = state.rubrics.last {
                    run.host.error("There is no rubric \(number); the rubrics are numbered 1 to \(last.number) (see /history).")
                } else {
                    run.host.error("There is no rubric yet; type /rubric to make one from the plan.")
                }
                return .failed
            }
            run.host.show(Self.render(rubric, current: Self.lessonVersion(state, madeFrom: rubric.planVersion), width: run.host.columns))
            if let standing = Self.standingLine(state, madeFrom: rubric.planVersion, quiz: nil, noun: "rubric") {
                run.host.show(StyledText(standing, style: .dim))
            }
            return .done
        case .review(let number):
            guard let review = number.map({ wanted in state.reviews.first { $0.number == wanted } }) ?? state.reviews.last else {
                if let number, let last = state.reviews.last {
                    run.host.error("There is no review \(number); the reviews are numbered 1 to \(last.number) (see /history).")
                } else {
                    run.host.error("There is no review yet; type /review to ask for one of the plan.")
                }
                return .failed
            }
            run.host.show(Self.render(review, current: state.currentVersion, width: run.host.columns))
            return .done
        case .repair:
            guard let tried = Self.lastRepairNotKept(in: state) else {
                run.host.error("No repair was left unkept in this session; /show prints the current plan.")
                return .failed
            }
            run.host.show(tried)
            return .done
        case .plan:
            break
        }
        guard let shown = version.flatMap(state.version) ?? state.current else {
            run.host.error(run.noPlanYet)
            return .failed
        }
        run.host.show(Self.render(shown))
        return .done
    }

    /// The plan of the latest plan turn that was judged and not kept, under a label saying why, or nil.
    static func lastRepairNotKept(in state: SessionState) -> StyledText? {
        guard
            let turn = state.turns.last(where: { summary in
                summary.ended?.kept == false && summary.ended?.status == .completed && (summary.started.kind ?? .plan) == .plan
            }), let ended = turn.ended
        else { return nil }
        let draft = turn.started.follows ?? turn.started.baseVersion
        var label = "── \(turn.started.command) of v\(draft.map(String.init) ?? "?") · turn \(turn.started.turn) · not kept"
        if let check = ended.check { label += " · \(check.summary)" }
        var text = StyledText(label + "\n", style: .dim)
        text.append(ended.output)
        return text
    }

    /// A quiz with its key (the teacher's view) under a one-line label, its check's problems, and a warning when
    /// the plan has moved on from the version it was made from.
    package static func render(_ quiz: QuizVersion, current: Int?) -> StyledText {
        let from = quiz.planVersion.map { " · from v\($0)" } ?? ""
        let label = "── quiz \(quiz.number) · \(quiz.quiz.kind.rawValue) · \(counted(quiz.quiz.items.count, "item"))\(from)"
        let body = quiz.quiz.items.isEmpty ? quiz.text : AssessmentText.quiz(quiz.quiz, withKey: true)
        return labelled(label, body, problems: quiz.problems, noun: "quiz", planVersion: quiz.planVersion, current: current)
    }

    /// A rubric as a table `width` columns wide (and the students' version under it) under a one-line label, its
    /// check's problems, and a warning when the plan has moved on from the version it was made from.
    package static func render(_ rubric: RubricVersion, current: Int?, width: Int) -> StyledText {
        let from = rubric.planVersion.map { " · from v\($0)" } ?? ""
        let task = rubric.rubric.task.isEmpty ? "" : " · \(rubric.rubric.task)"
        let label = "── rubric \(rubric.number)\(task) · \(counted(rubric.rubric.levels.count, "level"))\(from)"
        var body = RubricCommand.table(rubric.rubric, text: rubric.text, width: width)
        if !rubric.rubric.studentCriteria.isEmpty {
            body += "\nFor students:\n" + AssessmentText.rubricTable(rubric.rubric.forStudents, width: width)
        }
        return labelled(label, body, problems: rubric.problems, noun: "rubric", planVersion: rubric.planVersion, current: current)
    }

    /// A review under a one-line label, and a warning when the plan has moved on from the version it reviewed (its
    /// quotations were checked against that version, not the current one).
    package static func render(_ review: ReviewVersion, current: Int?, width: Int) -> StyledText {
        let from = review.planVersion.map { " · of v\($0)" } ?? ""
        let label = "── review \(review.number) · \(counted(review.review.rows.count, "criterion", "criteria"))\(from)"
        let body = review.review.rows.isEmpty ? review.text : ReviewText.render(review.review, source: review.source, width: width)
        return labelled(label, body, problems: [], noun: "review", planVersion: review.planVersion, current: current)
    }

    /// The current version as the stale warning compares it: the quiz's own version when the current plan is
    /// still its lesson (a hand edit or repair of it), so no warning shows.
    static func lessonVersion(_ state: SessionState, madeFrom: Int?, quiz: Quiz? = nil) -> Int? {
        guard let current = state.currentVersion, let madeFrom else { return state.currentVersion }
        return state.standing(madeFrom: madeFrom, quiz: quiz, plan: current).isCarried ? madeFrom : current
    }

    /// For what was written for an earlier version of the current plan: that it still fits, or why it does not.
    static func standingLine(_ state: SessionState, madeFrom: Int?, quiz: Quiz?, noun: String) -> String? {
        guard let current = state.currentVersion else { return nil }
        switch state.standing(madeFrom: madeFrom, quiz: quiz, plan: current) {
        case .fits(let made):
            return "Written for v\(made) and checked against v\(current) by code: it still fits, so it goes with v\(current)."
        case .doesNotFit(_, let reasons):
            return "It does not fit v\(current): \(reasons.joined(separator: "; ")); /\(noun) again writes it again."
        case .sameLesson, .elsewhere:
            return nil
        }
    }

    /// A label, the body, the check's problems, and the stale warning, as one block without a final newline.
    private static func labelled(
        _ label: String, _ body: String, problems: [String], noun: String, planVersion: Int?, current: Int?
    ) -> StyledText {
        var text = StyledText(label + "\n", style: .dim)
        var lines = [body.hasSuffix("\n") ? String(body.dropLast()) : body]
        lines += problems.map { "✗ \($0)" }
        if let made = planVersion, let current, made != current {
            lines.append("This \(noun) was made from v\(made), but the plan is now v\(current); type /\(noun) to make one from v\(current).")
        }
        text.append(lines.joined(separator: "\n"))
        return text
    }

    /// One version under a one-line label.
    package static func render(_ version: PlanVersion) -> StyledText {
        let lost = version.parentLost ? " · made from v\(version.parent ?? 0), whose line is damaged" : ""
        var text = StyledText(
            "── v\(version.number) · \(version.command) · \(version.inputs.grade.rawValue) · \(version.inputs.minutes) min\(lost)\n",
            style: .dim)
        // A table of supports (`/accommodate`) a student at a time: four columns wrap mid-word at 80.
        let shown = AccommodateCommand.readable(version.text)
        text.append(shown.hasSuffix("\n") ? String(shown.dropLast()) : shown)
        return text
    }
}
