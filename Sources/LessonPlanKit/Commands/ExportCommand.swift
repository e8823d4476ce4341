import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanStore

/// `/export [materials] md|html|json|docx|odt|pptx [FILE] [--force]`: the current plan, or the latest handouts, as a
/// document; `/export quiz [N|starter|exit] FORMAT [FILE]`: a quiz for a learning platform (`ExportCommand+Quiz.swift`).
package struct ExportCommand: Command, Equatable {
    package static let name = "export"
    package static let usage =
        "/export [materials] md|html|json|docx|odt|pptx [FILE] [--force] [--show-model] [--with rubric|quiz|starter|exit]; /export quiz [N|starter|exit] FORMAT [FILE]; /export unit md|html|docx|odt|imscc [FILE]"
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
    package static var argumentCompletions: [String] { ExportFormat.allCases.map { $0.rawValue } + ["materials", "quiz", "unit"] }

    package let format: ExportFormat
    /// The handouts instead of the plan.
    package let materials: Bool
    /// The file as typed; nil to print (Markdown, JSON) or to write the default file (HTML).
    package let path: String?
    /// Replace the file if it exists.
    package let force: Bool
    /// Name the model in the teacher's header.
    package let showModel: Bool
    /// The quiz in this platform format instead of a document (`format` and `materials` then unused).
    package let quiz: LMSFormat?
    /// With `quiz`: which quiz (a number, `starter`, `exit`); nil for the current plan's newest.
    package let quizChoice: QuizChoice?
    /// The whole unit as one document instead of the current lesson.
    package let unit: Bool
    /// With `unit`: the unit as a Common Cartridge instead of a document (`format` then unused).
    package let cartridge: Bool
    /// The failed quizzes and rubric to print anyway (`--with rubric`).
    package let asked: ExportAsked

    package init(
        format: ExportFormat, materials: Bool = false, path: String? = nil, force: Bool = false, showModel: Bool = false,
        quiz: LMSFormat? = nil, quizChoice: QuizChoice? = nil, unit: Bool = false, cartridge: Bool = false,
        asked: ExportAsked = .none
    ) {
        self.asked = asked
        self.quiz = quiz
        self.quizChoice = quizChoice
        self.unit = unit
        self.cartridge = cartridge
        self.format = format
        self.materials = materials
        self.path = path
        self.force = force
        self.showModel = showModel
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
        let materials = words.first?.lowercased() == "materials"
        if materials { words.removeFirst() }
        if words.first?.lowercased() == "pdf" { throw CommandError(Self.noPDF("/export html")) }
        guard let first = words.first, let format = ExportFormat(text: first) else {
            let example = materials ? "/export materials md" : "/export md"
            throw CommandError("/export needs a format: \(example), html, json, docx, odt or pptx, then an optional file name.")
        }
        let rest = words.dropFirst().joined(separator: " ")
        if rest.hasPrefix("-") {
            throw CommandError("“\(rest)” is not an option of /export; use --force (replace the file) or --show-model.")
        }
        return Self(
            format: format, materials: materials, path: rest.isEmpty ? nil : rest, force: force, showModel: showModel, asked: asked)
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
        if let quiz { return await runQuiz(run, format: quiz) }
        if unit { return await runUnit(run) }
        let state = await run.engine.state
        let data: Data
        do {
            try SessionReview.checkAsked(state, materials: materials, asked: asked)
            data = try await Self.document(
                state, format: format, materials: materials, prompts: run.engine.prompts, showModel: showModel, asked: asked)
        } catch {
            run.host.error(error.message)
            return .failed
        }
        for note in SessionReview.exportNotes(state, materials: materials, asked: asked) { run.host.note(StyledText(note)) }
        let fallback = Self.defaultFile(state, format: format, materials: materials, toTerminal: run.host.showsOnTerminal)
        guard let target = path ?? fallback else {
            run.host.deliver(.document(data, format))
            return .done
        }
        let expanded = (target as NSString).expandingTildeInPath
        let url = (expanded.hasPrefix("/") ? URL(fileURLWithPath: expanded) : run.host.workingDirectory.appending(path: expanded))
            .standardizedFileURL
        var replace = force
        while true {
            switch Self.write(data, format: format, materials: materials, state: state, to: url, replace: replace) {
            case .wrote(let sentence):
                run.host.note(StyledText(sentence))
                return .done
            case .exists where run.host.place.isTerminal:
                if !replace, run.host.confirm("\(url.path) already exists. Replace it? [y/N] ") {
                    replace = true
                    continue
                }
                run.host.show(StyledText("Kept \(url.path) as it was; nothing written."))
                return .done
            case .exists(let sentence), .failed(let sentence):
                run.host.error(sentence)
                return .failed
            }
        }
    }

    /// How writing an export to a file went, each with its sentence.
    package enum FileResult: Equatable, Sendable {
        case wrote(String)
        /// The file is there and replacing it was not asked for.
        case exists(String)
        case failed(String)
    }

    /// Writes an export to `url`, 0600 whatever the umask (a plan may describe real students), never over an
    /// existing file unless `replace`; `lessonplan export` and `/export` both write through this.
    package static func write(
        _ data: Data, format: ExportFormat, materials: Bool, state: SessionState, to url: URL, replace: Bool
    ) -> FileResult {
        do {
            try PrivateFiles.write(data, to: url, replace: replace)
        } catch {
            if case .exists = error { return .exists(error.message) }
            return .failed("Cannot write \(url.path): check that the folder exists, is writable and has space.")
        }
        let what = materials ? "the handouts" : "v\(state.currentVersion ?? 0)"
        return .wrote("Wrote \(format.label) of \(what) to \(url.path).")
    }

    /// Where a page or document goes when no file is named: one poured onto a terminal helps nobody.
    /// The one rule for an export without a file name, for `/export` and `lessonplan export` alike: md and
    /// json are printed; docx, odt and pptx go to `<topic>-v<N>.<format>`; html is printed into a pipe or
    /// file and goes to `<topic>-v<N>.html` when it would reach a terminal.
    /// - Returns: the file name, or nil to print the export.
    package static func defaultFile(
        _ state: SessionState, format: ExportFormat, materials: Bool, toTerminal: Bool
    ) -> String? {
        guard format.document != nil || (format == .html && toTerminal) else { return nil }
        let topic = (materials ? state.materials.last?.inputs.topic : nil) ?? state.currentInputs.topic
        let number = materials ? state.materials.last?.planVersion ?? state.currentVersion ?? 0 : state.currentVersion ?? 0
        return "\(Self.slug(topic))-v\(number)\(materials ? "-handouts" : "").\(format.rawValue)"
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
