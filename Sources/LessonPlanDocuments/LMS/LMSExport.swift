import Foundation

/// `/export quiz FORMAT` and `lessonplan export --quiz`: the newest quiz made from the current plan version, in
/// a learning platform's import format, with what the format leaves out said before anything is written.
public enum LMSExport {
    /// A file ready to write, and what to tell the teacher first.
    public struct Result: Sendable {
        public var data: Data
        /// What the format leaves out, by item number, one sentence each.
        public var notes: [String]
        /// The quiz exported, and the plan version it was made from.
        public var quizNumber: Int
        public var planVersion: Int

        package init(data: Data, notes: [String], quizNumber: Int, planVersion: Int) {
            self.data = data
            self.notes = notes
            self.quizNumber = quizNumber
            self.planVersion = planVersion
        }
    }

    /// A quiz's file in `format` and what the format leaves out, by item number, one sentence each.
    /// - Parameters:
    ///   - lesson: The lesson's title, for a cartridge.
    ///   - pages: A cartridge's pages besides the quiz, and a sentence for each left out; read only for `.imscc`.
    /// - Throws: ``ExportError`` (an item a platform cannot score, a text over the format's limits, a tool missing),
    ///   or what `pages` throws.
    public static func render(
        _ quiz: LMSQuiz, format: LMSFormat, lesson: String, tools: LMSTools,
        pages: () throws -> ([CommonCartridge.Page], [String])
    ) async throws -> (data: Data, notes: [String]) {
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
            notes = [quiz.feedbackMissing("The cartridge")].compactMap { $0 } + left
            data = try await CommonCartridge.render(quiz, lesson: lesson, pages: pages, tools: tools)
        }
        return (data, notes)
    }
}
