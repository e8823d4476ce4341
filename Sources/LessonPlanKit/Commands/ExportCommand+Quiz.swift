import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanStore

/// `/export quiz [N|starter|exit] FORMAT [FILE] [--force]`: a quiz of the current plan, for a learning platform.
extension ExportCommand {
    static func parseQuiz(_ words: [String], force: Bool) throws(CommandError) -> Self {
        var words = words
        // A quiz named as /show quiz names it: its number, or starter or exit (a format's name is never one).
        let choice = words.first.flatMap { LMSFormat(text: $0) == nil ? QuizChoice(text: $0) : nil }
        if choice != nil { words.removeFirst() }
        guard let first = words.first, let format = LMSFormat(text: first) else {
            throw CommandError(
                "/export quiz needs a platform format: \(LMSFormat.names), e.g. /export quiz gift or /export quiz exit moodle, then an optional file name."
            )
        }
        let rest = words.dropFirst().joined(separator: " ")
        if rest.hasPrefix("-") {
            throw CommandError("“\(rest)” is not an option of /export quiz; use --force to replace the file.")
        }
        if !rest.isEmpty, let misnamed = format.misnamed(rest) { throw CommandError(misnamed) }
        return Self(format: .md, path: rest.isEmpty ? nil : rest, force: force, quiz: format, quizChoice: choice)
    }

    /// Where a quiz goes when no file is named: `<topic>-v<N>` and the format's suffix, in the current folder.
    package static func defaultQuizFile(_ state: SessionState, format: LMSFormat) -> String {
        "\(slug(state.currentInputs.topic))-v\(state.currentVersion ?? 0)\(format.defaultSuffix)"
    }

    /// Writes an LMS export to `url` the way every export is written (0600, never over a file unless `replace`); with
    /// parallel forms, one file per form beside it (`quiz-form-A.gift`, `quiz-form-B.gift`).
    package static func writeQuiz(_ result: LMSExport.Result, format: LMSFormat, to url: URL, replace: Bool) -> FileResult {
        let files = result.forms.isEmpty ? [(url, result.data)] : result.forms.map { (formFile(url, form: $0.form), $0.data) }
        for (file, data) in files {
            do {
                try PrivateFiles.write(data, to: file, replace: replace)
            } catch {
                if case .exists = error { return .exists(error.message) }
                return .failed("Cannot write \(file.path): check that the folder exists, is writable and has space.")
            }
        }
        if result.forms.isEmpty {
            return .wrote("Wrote \(format.label) of \(result.quizzesNamed) (from v\(result.planVersion)) to \(url.path).")
        }
        return .wrote(
            "Wrote \(format.label) of \(result.quizzesNamed) (from v\(result.planVersion)), one file per form, each with its own key: \(files.map(\.0.path).joined(separator: ", "))."
        )
    }

    /// The file of one form beside `url`: its name with `-form-B` before the suffix.
    static func formFile(_ url: URL, form: String) -> URL {
        let name = url.lastPathComponent
        let dot = name.firstIndex(of: ".") ?? name.endIndex
        return url.deletingLastPathComponent().appending(path: name[..<dot] + "-form-\(form)" + name[dot...])
    }

    func runQuiz(_ run: CommandRun, format: LMSFormat) async -> CommandOutcome {
        let state = await run.engine.state
        let result: LMSExport.Result
        do {
            result = try await LMSExport.render(state, format: format, choice: quizChoice, prompts: run.engine.prompts, tools: LMSTools())
        } catch {
            run.host.error(error.message)
            return .failed
        }
        // What the format leaves out is said before anything is written.
        for note in result.notes { run.host.note(StyledText(note)) }
        let target = ((path ?? Self.defaultQuizFile(state, format: format)) as NSString).expandingTildeInPath
        let url = (target.hasPrefix("/") ? URL(fileURLWithPath: target) : run.host.workingDirectory.appending(path: target)).standardizedFileURL
        var replace = force
        while true {
            switch Self.writeQuiz(result, format: format, to: url, replace: replace) {
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
}
