import Foundation
import LessonPlanCore
import LessonPlanDocuments

/// The quizzes and rubric a teacher asks for by name (`--with rubric`), to print them although they did not pass
/// their check: without that, a failed one is left out of every export, never printed as if it passed.
package struct ExportAsked: Equatable, Sendable {
    package var rubric: Bool
    package var quizzes: Set<Quiz.Kind>

    package init(rubric: Bool = false, quizzes: Set<Quiz.Kind> = []) {
        self.rubric = rubric
        self.quizzes = quizzes
    }

    /// Nothing asked for: every export leaves out what failed.
    package static let none = ExportAsked()

    /// What `--with` takes, as a sentence names it.
    package static let names = "rubric, quiz (both quizzes), starter or exit, or several joined by commas"

    /// Reads `rubric`, `quiz`, `starter`, `exit` (any case), several joined by commas; nil for anything else.
    package init?(text: String) {
        self.init()
        let words = text.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !words.isEmpty else { return nil }
        for word in words {
            switch word {
            case "rubric": rubric = true
            case "quiz", "quizzes": quizzes.formUnion(Quiz.Kind.allCases)
            case "starter": quizzes.insert(.starter)
            case "exit": quizzes.insert(.exit)
            default: return nil
            }
        }
    }

    /// The words that ask for the same again (`rubric,exit`), for the sentence that says how.
    var text: String {
        ((rubric ? ["rubric"] : []) + Quiz.Kind.allCases.filter(quizzes.contains).map(\.rawValue)).joined(separator: ",")
    }
}

extension SessionReview {
    /// The rubric an export of plan version `number` carries: the lesson's newest, when it passed its check, or when
    /// it failed, the teacher asked for it and it has rows to print (a table is never printed empty).
    static func exportedRubric(_ state: SessionState, number: Int?, asked: ExportAsked) -> RubricVersion? {
        guard let made = state.rubric(for: number) else { return nil }
        if made.problems.isEmpty { return printable(made.rubric) ? made : nil }
        return asked.rubric && printable(made.rubric) ? made : nil
    }

    /// The quizzes an export of plan version `number` carries, on the same rule as ``exportedRubric(_:number:asked:)``.
    static func exportedQuizzes(_ state: SessionState, number: Int?, asked: ExportAsked) -> [QuizVersion] {
        state.quizzes(for: number).filter { made in
            !made.quiz.items.isEmpty && (made.problems.isEmpty || asked.quizzes.contains(made.quiz.kind))
        }
    }

    /// A check's sentence as a clause inside another one: without its closing full stop.
    static func clause(_ sentence: String) -> String {
        sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
    }

    /// Whether a rubric has something to print: at least one level and one row.
    static func printable(_ rubric: Rubric) -> Bool {
        !rubric.levels.isEmpty && !rubric.criteria.isEmpty
    }

    /// The line over a failed quiz or rubric printed because it was asked for: on the teacher's copy only.
    static func failedMark(_ what: String, problems: [String]) -> String {
        "\(what) did not pass its check: " + problems.joined(separator: " ")
    }

    /// Marks the failed quiz and rubric the teacher asked for, on the teacher's copy (a handout never says so).
    static func markFailed(_ document: inout ExportDocument, rubric: RubricVersion?, quizzes: [QuizVersion]) {
        guard document.kind != .materials else { return }
        if let rubric, !rubric.problems.isEmpty { document.rubricWarning = failedMark("Rubric \(rubric.number)", problems: rubric.problems) }
        for quiz in quizzes where !quiz.problems.isEmpty {
            document.quizWarnings[quiz.quiz.kind] = failedMark("Quiz \(quiz.number) (\(quiz.quiz.kind.rawValue))", problems: quiz.problems)
        }
    }

    /// One sentence for each failed quiz or rubric an export of `number` leaves out: what failed, and how to ask again.
    static func failedLeftOut(_ state: SessionState, number: Int?, asked: ExportAsked) -> [String] {
        var notes: [String] = []
        let carried = Set(exportedQuizzes(state, number: number, asked: asked).map(\.number))
        for made in state.quizzes(for: number) where !carried.contains(made.number) {
            let kind = made.quiz.kind.rawValue
            let why = Self.clause(made.problems.first ?? "it has no items")
            notes.append(
                "Quiz \(made.number) (\(kind)) did not pass its check (\(why)), so every export leaves it out; type /quiz \(kind) to ask for a new one, or add --with \(kind) to print it as it is, marked on the teacher's copy."
            )
        }
        if let made = state.rubric(for: number), exportedRubric(state, number: number, asked: asked) == nil {
            let why = Self.clause(made.problems.first ?? "it has no rows")
            let anyway = printable(made.rubric) ? ", or add --with rubric to print it as it is, marked on the teacher's copy" : ""
            notes.append(
                "Rubric \(made.number) did not pass its check (\(why)), so every export leaves it out; type /rubric to ask for a new one\(anyway).")
        }
        return notes
    }

    /// Refuses an export whose failed quiz or rubric was asked for by name but cannot be printed: there is none made
    /// from this lesson, or it has nothing to print (a rubric with no rows is never printed as an empty table).
    /// - Throws: ``ExportError`` in one sentence; nothing is written.
    package static func checkAsked(_ state: SessionState, materials: Bool, asked: ExportAsked) throws(ExportError) {
        guard asked != .none else { return }
        let number = materials ? state.materials.last?.planVersion : state.currentVersion
        let lesson = number.map { "v\($0)" } ?? "this plan"
        if asked.rubric {
            guard let made = state.rubric(for: number) else {
                throw ExportError("There is no rubric made from \(lesson) to print, so nothing was written; type /rubric to make one.")
            }
            guard printable(made.rubric) else {
                throw ExportError(
                    "Rubric \(made.number) has no rows to print (\(Self.clause(made.problems.first ?? "its table is empty"))), so nothing was written; type /rubric to ask for a new one."
                )
            }
        }
        let made = Set(state.quizzes(for: number).filter { !$0.quiz.items.isEmpty }.map(\.quiz.kind))
        for kind in Quiz.Kind.allCases where asked.quizzes.contains(kind) && !made.contains(kind) {
            // `quiz` asks for both kinds: only the one there is must be there.
            if asked.quizzes.count > 1, !made.isEmpty { continue }
            throw ExportError(
                "There is no \(kind.rawValue) quiz with items made from \(lesson) to print, so nothing was written; type /quiz \(kind.rawValue) to make one."
            )
        }
    }
}
