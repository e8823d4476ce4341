import Foundation

/// `/export quiz [N|starter|exit] FORMAT` and `lessonplan export --quiz [N]`: a quiz made for the current plan, in
/// a learning platform's import format, with what the format leaves out said before anything is written. A
/// Common Cartridge can hold several (the starter and the exit quiz).
package enum LMSExport {
    /// A file ready to write, and what to tell the teacher first.
    package struct Result: Sendable {
        package var data: Data
        /// What the format leaves out, by item number, one sentence each.
        package var notes: [String]
        /// The quizzes exported (one but in a cartridge), and the plan version the first was made from.
        package var quizNumbers: [Int]
        package var planVersion: Int

        /// With parallel forms, one file each: the form's letter and its bytes (``data`` is then the first's).
        package var forms: [(form: String, data: Data)]

        package init(data: Data, notes: [String], quizNumbers: [Int], planVersion: Int, forms: [(form: String, data: Data)] = []) {
            self.data = data
            self.notes = notes
            self.quizNumbers = quizNumbers
            self.planVersion = planVersion
            self.forms = forms
        }

        /// "quiz 2" or "quizzes 1 and 2", as sentences name them.
        package var quizzesNamed: String {
            quizNumbers.count == 1 ? "quiz \(quizNumbers[0])" : "quizzes " + quizNumbers.sorted().map(String.init).joined(separator: " and ")
        }
    }

    /// A quiz's file in `format` (a cartridge holds every one of `quizzes`; the other formats the first) and what
    /// the format leaves out, by item number, one sentence each.
    /// - Parameters:
    ///   - lesson: The lesson's title, for a cartridge.
    ///   - pages: A cartridge's pages besides the quiz, and a sentence for each left out; read only for `.imscc`.
    /// - Throws: ``ExportError`` (an item a platform cannot score, a text over the format's limits, a tool missing),
    ///   or what `pages` throws.
    package static func render(
        _ quizzes: [LMSQuiz], format: LMSFormat, lesson: String, tools: LMSTools,
        pages: () throws -> ([CommonCartridge.Page], [String])
    ) async throws -> (data: Data, notes: [String]) {
        guard let quiz = quizzes.first else { throw ExportError("There is no quiz to export; type /quiz to make one.") }
        var notes: [String] = []
        let data: Data
        switch format {
        case .gift:
            notes = [quiz.feedbackMissing("GIFT")].compactMap { $0 }
            data = Data(GIFTQuiz.render(quiz).utf8)
        case .moodle:
            notes = [quiz.feedbackMissing("Moodle XML")].compactMap { $0 }
            data = Data(MoodleXMLQuiz.render(quiz).utf8)
        case .aiken:
            notes = AikenQuiz.losses(quiz)
            data = Data(try AikenQuiz.render(quiz).utf8)
        case .blackboard:
            notes = BlackboardQuiz.losses(quiz)
            data = Data(BlackboardQuiz.render(quiz).utf8)
        case .kahoot:
            notes = KahootSheet.losses(quiz)
            data = try await KahootSheet.render(quiz, tools: tools)
        case .qti:
            notes = [quiz.feedbackMissing("The QTI zip")].compactMap { $0 }
            data = try await CanvasQTIPackage.render(quiz, tools: tools)
        case .imscc:
            let (pages, left) = try pages()
            notes = quizzes.compactMap { $0.feedbackMissing("The cartridge") } + left
            data = try await CommonCartridge.render(quizzes, lesson: lesson, pages: pages, tools: tools)
        }
        return (data, notes)
    }
}
