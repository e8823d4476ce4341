import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanStore

/// What an export is of: the word after `/export` (none for the plan) and `lessonplan export`'s flag.
package enum ExportSubject: String, CaseIterable, Sendable {
    case plan, materials, quiz, unit

    /// The start of a file's default name, before its entry's suffix: `<topic>-v<N>` (the version the export is of),
    /// or `<topic>` for a unit.
    func stem(_ state: SessionState) -> String {
        // Handouts are named after the newest's topic and the plan version they were made from.
        let handouts = self == .materials ? state.materials.last : nil
        switch self {
        case .plan, .quiz, .materials:
            return "\(ExportCommand.slug(handouts?.inputs.topic ?? state.currentInputs.topic))-v\(handouts?.planVersion ?? state.currentVersion ?? 0)"
        case .unit: return ExportCommand.slug(state.unit?.inputs.topic ?? state.currentInputs.topic)
        }
    }
}

/// What an entry's renderer reads: the session and how the teacher asked.
package struct ExportJob: Sendable {
    package var state: SessionState
    package var prompts: PromptLibrary
    package var showModel = false
    /// The failed quizzes and rubric to print anyway (`--with rubric`).
    package var asked = ExportAsked.none
    /// For a quiz: which one (a number, `starter`, `exit`); nil for the current plan's newest.
    package var quiz: QuizChoice?
    /// Where pandoc and zip are looked for (their `PATH`).
    package var environment: [String: String] = ProcessInfo.processInfo.environment

    package init(
        state: SessionState, prompts: PromptLibrary, showModel: Bool = false, asked: ExportAsked = .none, quiz: QuizChoice? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.state = state
        self.prompts = prompts
        self.showModel = showModel
        self.asked = asked
        self.quiz = quiz
        self.environment = environment
    }
}

/// What a renderer made: the bytes (or one file per parallel form), what to say before it is written, and what it is
/// of as the sentence after writing names it.
package struct ExportMade: Sendable {
    package var data: Data
    /// With parallel forms, one file each: the form's letter and its bytes.
    package var forms: [(form: String, data: Data)] = []
    /// What the teacher should know before it is written, one sentence each.
    package var notes: [String] = []
    /// "v3", "the handouts", "quiz 2 (from v1)", "the unit (3 lessons)".
    package var what: String
}

/// Whether an export without a file name is printed or written to its default file.
package enum ExportPrinting: Sendable {
    /// Printed: text (md) or data (json) for a terminal or a program.
    case printed
    /// Printed into a pipe or a file, written to its default file when it would reach a terminal (html).
    case printedOffTerminal
    /// Always a file (docx, a zip, a spreadsheet).
    case file
}

/// One row of the export table: a subject in one format, with its name, the other names it answers to, what it is
/// called in a sentence, the end of its default file name and its renderer.
package struct ExportEntry: Sendable {
    package let subject: ExportSubject
    package let name: String
    package let aliases: [String]
    /// What the file is, in a sentence: "Wrote <label> of v3 to …".
    package let label: String
    /// The end of the default file name, after the subject's stem (``ExportSubject/stem(_:)``).
    package let suffix: String
    /// The file name endings the platform it is for imports (the first is the one to use); empty for any.
    package let endings: [String]
    /// Where it is imported, for the sentence when a file is misnamed.
    package let platform: String
    package let printing: ExportPrinting
    /// The document format it is printed as, and whether a terminal may show it as text.
    package let format: ExportFormat
    let render: @Sendable (ExportJob) async throws -> ExportMade

    /// Whether `word` names it, any case.
    package func answers(to word: String) -> Bool {
        let word = word.lowercased()
        return word == name || aliases.contains(word)
    }

    /// Renders it.
    /// - Throws: ``ExportError`` or ``SessionError`` with the sentence of what is missing.
    package func make(_ job: ExportJob) async throws -> ExportMade { try await render(job) }

    /// One sentence when `path` does not end the way the platform's import needs (`quiz.qti` for Canvas), naming the
    /// file to write instead; nil when it does or when any name will do.
    package func misnamed(_ path: String) -> String? {
        let name = (path as NSString).lastPathComponent
        let ending = (name as NSString).pathExtension.lowercased()
        guard !endings.isEmpty, !endings.contains(ending), let wanted = endings.first else { return nil }
        let stem = ending.isEmpty ? name : (name as NSString).deletingPathExtension
        let others = endings.count > 1 ? " (or ." + endings.dropFirst().joined(separator: ", .") + ")" : ""
        return
            "\(label.capitalizedFirst) needs a name ending in .\(wanted)\(others), which is what \(platform) imports; “\(name)” would not be offered for upload, so nothing was written: name it \(stem).\(wanted), or leave the name out."
    }

    /// The file an export goes to when none is named, or nil to print it: the one rule for `/export` and `lessonplan
    /// export` alike.
    package func defaultFile(_ state: SessionState, toTerminal: Bool) -> String? {
        switch printing {
        case .printed: return nil
        case .printedOffTerminal where !toTerminal: return nil
        case .printedOffTerminal, .file: return subject.stem(state) + suffix
        }
    }
}

/// Every export there is: subject × format. Parsing, help, completion, the default file name and the sentence after
/// writing all read it; ``ExportWriter`` writes what any entry made.
package enum ExportTable {
    package static let entries: [ExportEntry] = plans + documents(.materials) + quizzes + units

    /// The plan's entries, which a unit's documents take their names and printing from.
    private static let plans = documents(.plan)

    /// The entry of `subject` that `word` names, any case.
    package static func entry(_ subject: ExportSubject, _ word: String) -> ExportEntry? {
        entries.first { $0.subject == subject && $0.answers(to: word) }
    }

    /// The entries of `subject`.
    package static func entries(_ subject: ExportSubject) -> [ExportEntry] { entries.filter { $0.subject == subject } }

    /// The names of `subject`'s formats as a usage line lists them: `md|html|json|docx|odt|pptx`.
    package static func formats(_ subject: ExportSubject) -> String { entries(subject).map(\.name).joined(separator: "|") }

    /// The names of `subject`'s formats as a sentence lists them: "md, html, json, docx, odt or pptx".
    package static func names(_ subject: ExportSubject) -> String {
        entries(subject).map(\.name).listed("or")
    }

    /// The plan or its latest handouts as a page, data or a document a teacher can edit.
    private static func documents(_ subject: ExportSubject) -> [ExportEntry] {
        let handouts = subject == .materials
        let kinds: [(ExportFormat, [String], String, ExportPrinting)] = [
            (.md, ["markdown"], "MD", .printed), (.html, ["htm"], "HTML", .printedOffTerminal), (.json, [], "JSON", .printed),
            (.docx, ["word"], "Word document", .file), (.odt, ["opendocument"], "OpenDocument text", .file),
            (.pptx, ["slides", "powerpoint"], "PowerPoint slides", .file),
        ]
        return kinds.map { format, aliases, label, printing in
            ExportEntry(
                subject: subject, name: format.rawValue, aliases: aliases, label: label,
                suffix: (handouts ? "-handouts." : ".") + format.rawValue, endings: [], platform: "", printing: printing,
                format: format
            ) { job in
                let state = job.state
                try SessionReview.checkAsked(state, materials: handouts, asked: job.asked)
                let data = try await ExportCommand.document(
                    state, format: format, materials: handouts, prompts: job.prompts, showModel: job.showModel, asked: job.asked,
                    environment: job.environment)
                return ExportMade(
                    data: data, notes: SessionReview.exportNotes(state, materials: handouts, asked: job.asked),
                    what: handouts ? "the handouts" : "v\(state.currentVersion ?? 0)")
            }
        }
    }

    /// A quiz of the current plan in a learning platform's import format.
    private static let quizzes: [ExportEntry] = {
        let kinds: [(LMSFormat, [String], String, String, [String], String)] = [
            (.qti, ["qti12", "canvas"], "a QTI 1.2 zip", "-quiz-qti.zip", ["zip"], "Canvas"),
            (.imscc, ["cc", "cartridge", "commoncartridge"], "a Common Cartridge", "-lesson.imscc", ["imscc", "zip"], "a learning platform"),
            (.gift, [], "a GIFT file", "-quiz.gift", ["gift", "txt"], "Moodle"),
            (.moodle, ["moodlexml", "moodle-xml", "xml"], "a Moodle XML file", "-quiz-moodle.xml", ["xml"], "Moodle"),
            (.aiken, [], "an Aiken file", "-quiz-aiken.txt", ["txt"], "Moodle"),
            (.blackboard, ["bb"], "a Blackboard upload", "-quiz-blackboard.txt", ["txt"], "Blackboard"),
            (.kahoot, ["xlsx"], "a Kahoot spreadsheet", "-quiz-kahoot.xlsx", ["xlsx"], "Kahoot"),
        ]
        return kinds.map { format, aliases, label, suffix, endings, platform in
            ExportEntry(
                subject: .quiz, name: format.rawValue, aliases: aliases, label: label, suffix: suffix, endings: endings,
                platform: platform, printing: .file, format: .md
            ) { job in
                let result = try await LMSExport.render(
                    job.state, format: format, choice: job.quiz, prompts: job.prompts, tools: LMSTools(environment: job.environment))
                return ExportMade(
                    data: result.data, forms: result.forms, notes: result.notes, what: "\(result.quizzesNamed) (from v\(result.planVersion))")
            }
        }
    }()

    /// A whole unit as one document, or as a Common Cartridge with each lesson a page.
    private static let units: [ExportEntry] = {
        @Sendable func what(_ state: SessionState) -> String {
            "the unit (\(counted(state.unit.map { $0.lessons - state.lessonsMissing.count } ?? 0, "lesson")))"
        }
        let unitDocuments: [ExportEntry] = UnitExport.formats.compactMap { format in
            guard let plan = plans.first(where: { $0.format == format }) else { return nil }
            return ExportEntry(
                subject: .unit, name: plan.name, aliases: plan.aliases, label: plan.label, suffix: "-unit." + format.rawValue, endings: [],
                platform: "", printing: plan.printing, format: format
            ) { job in
                let data = try await UnitExport.render(
                    job.state, format: format, prompts: job.prompts, showModel: job.showModel,
                    pandoc: format.document == nil ? nil : Pandoc.find(environment: job.environment))
                return ExportMade(data: data, notes: UnitExport.leftOutNotes(job.state), what: what(job.state))
            }
        }
        let cartridge = ExportEntry(
            subject: .unit, name: "imscc", aliases: ["cc", "cartridge", "commoncartridge"], label: "Common Cartridge",
            suffix: "-unit.imscc", endings: [], platform: "", printing: .file, format: .html
        ) { job in
            let data = try await UnitExport.cartridge(
                job.state, prompts: job.prompts, showModel: job.showModel, tools: LMSTools(environment: job.environment))
            return ExportMade(data: data, notes: UnitExport.leftOutNotes(job.state), what: what(job.state))
        }
        return unitDocuments + [cartridge]
    }()
}

/// Where an export's sentences, its printed text and its question about an existing file go: the REPL's host or the
/// command line's console.
package protocol ExportOutput {
    func note(_ sentence: String)
    func error(_ sentence: String)
    /// Prints an export that is printed rather than written; false when it could not be.
    func print(_ data: Data, format: ExportFormat) -> Bool
    /// Whether what is printed would reach a terminal.
    var toTerminal: Bool { get }
    /// What a relative file name is relative to.
    var workingDirectory: URL { get }
    /// Asks whether to replace `url`; nil where no one can be asked (the sentence of the refusal is then said).
    func replaces(_ url: URL) -> Bool?
}

/// The one write path of every export, for `/export` and `lessonplan export` alike.
package enum ExportWriter {
    /// Renders `entry`, says its notes, then prints it or writes it to `path` (or its default file): 0600 whatever
    /// the umask (a plan may describe real students), never over an existing file unless `force` or the teacher says so.
    /// - Returns: whether it was written or printed.
    package static func run(_ entry: ExportEntry, _ job: ExportJob, path: String?, force: Bool, to output: some ExportOutput) async -> Bool {
        let made: ExportMade
        do {
            made = try await entry.make(job)
        } catch {
            output.error(error.message)
            return false
        }
        for note in made.notes { output.note(note) }
        guard let target = path ?? entry.defaultFile(job.state, toTerminal: output.toTerminal) else {
            return output.print(made.data, format: entry.format)
        }
        let expanded = (target as NSString).expandingTildeInPath
        let url = (expanded.hasPrefix("/") ? URL(fileURLWithPath: expanded) : output.workingDirectory.appending(path: expanded)).standardizedFileURL
        var replace = force
        while true {
            switch write(made, label: entry.label, to: url, replace: replace) {
            case .wrote(let sentence):
                output.note(sentence)
                return true
            case .exists(let sentence):
                guard !replace, let answer = output.replaces(url) else {
                    output.error(sentence)
                    return false
                }
                guard answer else {
                    output.note("Kept \(url.path) as it was; nothing written.")
                    return true
                }
                replace = true
            case .failed(let sentence):
                output.error(sentence)
                return false
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

    /// Writes what an entry made to `url`, with parallel forms one file per form beside it (`quiz-form-A.gift`).
    package static func write(_ made: ExportMade, label: String, to url: URL, replace: Bool) -> FileResult {
        let files = made.forms.isEmpty ? [(url, made.data)] : made.forms.map { (formFile(url, form: $0.form), $0.data) }
        for (file, data) in files {
            do {
                try PrivateFiles.write(data, to: file, replace: replace)
            } catch {
                if case .exists = error { return .exists(error.message) }
                return .failed("Cannot write \(file.path): check that the folder exists, is writable and has space.")
            }
        }
        if made.forms.isEmpty { return .wrote("Wrote \(label) of \(made.what) to \(url.path).") }
        return .wrote(
            "Wrote \(label) of \(made.what), one file per form, each with its own key: \(files.map(\.0.path).joined(separator: ", ")).")
    }

    /// The file of one form beside `url`: its name with `-form-B` before the suffix.
    static func formFile(_ url: URL, form: String) -> URL {
        let name = url.lastPathComponent
        let dot = name.firstIndex(of: ".") ?? name.endIndex
        return url.deletingLastPathComponent().appending(path: name[..<dot] + "-form-\(form)" + name[dot...])
    }
}
