import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanStore

/// `/export [materials] md|html|json|docx|odt|pptx [FILE] [--force]`: the current plan, or the latest handouts, as a
/// document; `/export quiz [N|starter|exit] FORMAT [FILE]`: a quiz for a learning platform; `/export unit FORMAT`: a
/// whole unit. What each is called, where it goes and how it is made is a row of ``ExportTable``.
package struct ExportCommand: Command, Equatable {
    package static let name = "export"
    package static let usage =
        "/export [materials] \(ExportTable.formats(.plan)) [FILE] [--force] [--show-model] [--with rubric|quiz|starter|exit]; /export quiz [N|starter|exit] FORMAT [FILE]; /export unit \(ExportTable.formats(.unit)) [FILE]"
    package static let summary = "write the plan (or the handouts) as Markdown, a printable page, JSON, or a Word, OpenDocument or PowerPoint file"
    package static let details = """
        Without FILE, Markdown and JSON are printed; docx, odt and pptx are written to <topic>-v<N>.<format> in the
        current folder, and so is html at a terminal (into a pipe it is printed), as lessonplan export does without -o.
        PDF is not offered: export html and print it from a browser. An existing file is kept: at a terminal you are asked whether to replace it; elsewhere add
        --force. --show-model names the model in the teacher's header. docx, odt and pptx need pandoc.
        A quiz or rubric that did not pass its check is left out of every export, with a sentence saying so;
        --with rubric (or quiz, starter, exit; several joined by commas) prints it anyway, marked “did not pass its
        check” on the teacher's copy.
        /export quiz [N|starter|exit] FORMAT [FILE] [--force] writes a quiz of the current plan for a learning
        platform (the newest, or the one named as /show quiz names it): qti (Canvas), imscc (Common Cartridge: plan,
        handouts and the quizzes, the starter and the exit quiz both unless one is named), gift, moodle, aiken,
        blackboard or kahoot;
        without FILE to <topic>-v<N>-quiz.gift, <topic>-v<N>-lesson.imscc and so on; see docs/lms.md.
        In a unit, /export unit md|html|docx|odt [FILE] writes the whole unit as one document, and /export unit imscc
        [FILE] as a Common Cartridge with the overview and each lesson a page (without FILE to <topic>-unit.imscc).
        """
    package static var argumentCompletions: [String] { ExportTable.entries(.plan).map(\.name) + ["materials", "quiz", "unit"] }

    /// What is exported, in which format: a row of ``ExportTable``.
    package let entry: ExportEntry
    /// The file as typed; nil to print (Markdown, JSON) or to write the default file (HTML).
    package let path: String?
    /// Replace the file if it exists.
    package let force: Bool
    /// Name the model in the teacher's header.
    package let showModel: Bool
    /// For a quiz: which quiz (a number, `starter`, `exit`); nil for the current plan's newest.
    package let quizChoice: QuizChoice?
    /// The failed quizzes and rubric to print anyway (`--with rubric`).
    package let asked: ExportAsked

    package init(
        _ entry: ExportEntry, path: String? = nil, force: Bool = false, showModel: Bool = false, quizChoice: QuizChoice? = nil,
        asked: ExportAsked = .none
    ) {
        self.entry = entry
        self.path = path
        self.force = force
        self.showModel = showModel
        self.quizChoice = quizChoice
        self.asked = asked
    }

    /// The plan, or with `materials` its latest handouts, in `format`.
    package init(
        format: ExportFormat, materials: Bool = false, path: String? = nil, force: Bool = false, showModel: Bool = false,
        asked: ExportAsked = .none
    ) {
        let subject: ExportSubject = materials ? .materials : .plan
        let entry = ExportTable.entries(subject).first { $0.format == format } ?? ExportTable.entries(subject)[0]
        self.init(entry, path: path, force: force, showModel: showModel, asked: asked)
    }

    package static func == (left: Self, right: Self) -> Bool {
        left.entry.subject == right.entry.subject && left.entry.name == right.entry.name && left.path == right.path
            && left.force == right.force && left.showModel == right.showModel && left.quizChoice == right.quizChoice && left.asked == right.asked
    }

    /// What to do instead of a PDF, which the tool does not write itself.
    /// - Parameter html: how to export the page where the teacher is, e.g. `/export html`.
    package static func noPDF(_ html: String) -> String {
        "PDF is not offered; export the printable page with \(html), open it in a browser and print it (“Save as PDF”)."
    }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        var words = arguments.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let force = words.contains("--force")
        let showModel = words.contains("--show-model")
        words.removeAll { $0 == "--force" || $0 == "--show-model" }
        let asked = try Self.parseWith(&words)
        if words.first?.lowercased() == "quiz" { return try parseQuiz(Array(words.dropFirst()), force: force) }
        if words.first?.lowercased() == "unit" {
            return try parseUnit(Array(words.dropFirst()), force: force, showModel: showModel, context: context)
        }
        let subject: ExportSubject = words.first?.lowercased() == "materials" ? .materials : .plan
        if subject == .materials { words.removeFirst() }
        if words.first?.lowercased() == "pdf" { throw CommandError(Self.noPDF("/export html")) }
        guard let first = words.first, let entry = ExportTable.entry(subject, first) else {
            let example = subject == .materials ? "/export materials md" : "/export md"
            throw CommandError("/export needs a format: \(example), html, json, docx, odt or pptx, then an optional file name.")
        }
        let rest = words.dropFirst().joined(separator: " ")
        if rest.hasPrefix("-") {
            throw CommandError("“\(rest)” is not an option of /export; use --force (replace the file) or --show-model.")
        }
        return Self(entry, path: rest.isEmpty ? nil : rest, force: force, showModel: showModel, asked: asked)
    }

    /// Takes `--with WHAT` out of the words: the failed quizzes and rubric to print anyway.
    static func parseWith(_ words: inout [String]) throws(CommandError) -> ExportAsked {
        guard let at = words.firstIndex(of: "--with") else { return .none }
        guard at + 1 < words.count, let asked = ExportAsked(text: words[at + 1]) else {
            throw CommandError(
                "--with takes what to print although it did not pass its check: \(ExportAsked.names), e.g. /export html plan.html --with rubric.")
        }
        words.removeSubrange(at...(at + 1))
        return asked
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        let job = ExportJob(state: await run.engine.state, prompts: run.engine.prompts, showModel: showModel, asked: asked, quiz: quizChoice)
        return await ExportWriter.run(entry, job, path: path, force: force, to: HostExport(host: run.host)) ? .done : .failed
    }

    /// A file-name-safe form of a topic: lower case letters and digits joined by hyphens, at most 40 characters.
    static func slug(_ topic: String) -> String {
        let words = topic.lowercased().split { !($0.isLetter || $0.isNumber) || !$0.isASCII }
        var slug = ""
        for word in words {
            let next = slug.isEmpty ? String(word) : slug + "-" + word
            if next.count > 40 { break }
            slug = next
        }
        return slug.isEmpty ? "lesson-plan" : slug
    }

    /// The bytes of the plan (or its latest handouts), read with its own framework's headings.
    /// - Parameter environment: where to look for pandoc (its `PATH`), for docx, odt and pptx.
    package static func document(
        _ state: SessionState, format: ExportFormat, materials: Bool, prompts: PromptLibrary, showModel: Bool = false,
        asked: ExportAsked = .none, environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> Data {
        let made = materials ? state.materials.last?.planVersion.flatMap(state.version) : nil
        let framework = try prompts.framework(made?.framework ?? state.currentFramework)
        if let document = format.document {
            return try await DocumentExport.render(
                state, format: document, framework: framework, materials: materials, showModel: showModel, asked: asked,
                prompts: prompts, pandoc: Pandoc.find(environment: environment))
        }
        if materials { return try SessionReview.exportMaterials(state, format: format, framework: framework, asked: asked) }
        return try SessionReview.export(state, format: format, framework: framework, showModel: showModel, asked: asked)
    }
}

/// The REPL's side of an export: sentences to the host, a printed export delivered, and the question about an existing
/// file asked at a terminal only.
struct HostExport: ExportOutput {
    let host: any CommandHost

    func note(_ sentence: String) { host.note(StyledText(sentence)) }
    func error(_ sentence: String) { host.error(sentence) }

    func print(_ data: Data, format: ExportFormat) -> Bool {
        host.deliver(.document(data, format))
        return true
    }

    var toTerminal: Bool { host.showsOnTerminal }
    var workingDirectory: URL { host.workingDirectory }

    func replaces(_ url: URL) -> Bool? {
        host.place.isTerminal ? host.confirm("\(url.path) already exists. Replace it? [y/N] ") : nil
    }
}
