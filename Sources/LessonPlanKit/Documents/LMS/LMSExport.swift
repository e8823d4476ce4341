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
    }

    /// The quiz exported: the newest made from the current plan version, as every other export chooses it.
    /// - Throws: ``ExportError`` in one sentence when there is no plan or no quiz made from it.
    public static func quiz(_ state: SessionState) throws(ExportError) -> QuizVersion {
        guard let current = state.currentVersion else {
            throw ExportError("There is no plan yet, so there is no quiz to export; generate a plan, then type /quiz to make one.")
        }
        guard let made = state.quiz(madeFrom: current) else {
            if let other = state.quizzes.last {
                throw ExportError(
                    "Quiz \(other.number) was made from v\(other.planVersion ?? 0), not from the current v\(current), so there is no quiz to export; type /quiz to make one from v\(current).")
            }
            throw ExportError("There is no quiz to export yet; type /quiz to make one from the plan.")
        }
        return made
    }

    /// The file's bytes in `format` and the notes to show before writing it.
    /// - Throws: ``ExportError`` (no quiz, an item a platform cannot score, a text over the format's limits, a tool
    ///   missing) or ``PromptError`` when the plan's framework cannot be read.
    public static func render(_ state: SessionState, format: LMSFormat, prompts: PromptLibrary, tools: LMSTools) throws -> Result {
        let made = try quiz(state)
        let planVersion = made.planVersion ?? 0
        let quiz = try LMSQuiz(made.quiz, topic: made.inputs.topic, identifier: identifier(state, quiz: made.number))
        var notes: [String] = []
        let data: Data
        switch format {
        case .gift: data = Data(GIFTQuiz.render(quiz).utf8)
        case .moodle: data = Data(MoodleXMLQuiz.render(quiz).utf8)
        case .aiken:
            notes = AikenQuiz.losses(quiz)
            data = Data(try AikenQuiz.render(quiz).utf8)
        case .blackboard:
            notes = BlackboardQuiz.losses(quiz)
            data = Data(BlackboardQuiz.render(quiz).utf8)
        case .kahoot:
            notes = KahootSheet.losses(quiz)
            data = try KahootSheet.render(quiz, tools: tools)
        case .qti: data = try CanvasQTIPackage.render(quiz, tools: tools)
        case .imscc:
            let (pages, left) = try cartridgePages(state, prompts: prompts)
            notes = left
            data = try CommonCartridge.render(quiz, lesson: made.inputs.topic, pages: pages, tools: tools)
        }
        return Result(data: data, notes: notes, quizNumber: made.number, planVersion: planVersion)
    }

    /// The cartridge's pages: the plan (the teacher's page, without the quiz) and, when made from the same plan
    /// version, the handouts; and a sentence when the latest handouts are left out.
    static func cartridgePages(_ state: SessionState, prompts: PromptLibrary) throws -> ([CommonCartridge.Page], [String]) {
        let framework = try prompts.framework(state.currentFramework)
        guard let found = SessionReview.document(state, framework: framework) else {
            throw ExportError("There is no plan to put in the cartridge yet; generate one first.")
        }
        var plan = found.export
        plan.quiz = nil
        var pages = [
            CommonCartridge.Page(
                identifier: "plan", title: "Lesson plan (v\(plan.currentVersion))", html: PlanExport.renderHTML(plan, plan: found.plan), teacherOnly: true)
        ]
        var notes: [String] = []
        if let materials = state.materials.last {
            if materials.planVersion == state.currentVersion {
                let made = try SessionReview.materialsDocument(state, framework: framework)
                var handouts = made.export
                handouts.quiz = nil
                pages.append(
                    CommonCartridge.Page(identifier: "handouts", title: "Student handouts", html: PlanExport.renderHTML(handouts, plan: made.plan), teacherOnly: false))
            } else {
                let current = state.currentVersion ?? 0
                notes.append(
                    "The handouts were made from v\(materials.planVersion ?? 0), not v\(current), so the cartridge leaves them out; type /materials to make them from v\(current).")
            }
        }
        return (pages, notes)
    }

    /// `lp` and the session id's first letters and digits, then the quiz number: the same quiz exported again keeps
    /// its identifier (a platform that keys imports by it updates rather than duplicates), another quiz gets a new one.
    static func identifier(_ state: SessionState, quiz number: Int) -> String {
        let letters = state.header.id.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        return "lp" + String(String.UnicodeScalarView(letters.prefix(12))) + "q\(number)"
    }
}
