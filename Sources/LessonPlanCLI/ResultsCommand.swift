import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanStore
import Terminal

/// `lessonplan results <session> [FILE|-] [--quiz N|starter|exit]`: how many students chose each option, read
/// from a file, stdin or typed at a prompt, saved with the session (counts only) and reported: each item's
/// right-answer rate and the misconceptions ranked by count. `/reteach` then writes tomorrow's plan from them.
struct ResultsCommand {
    let app: App
    var console: Console { app.console }

    func run(_ parsed: ParsedArguments) -> Int32 {
        let store = SessionStore(directory: DataDirectory.resolve(environment: app.environment))
        let url: URL
        let state: SessionState
        let quiz: QuizVersion
        do {
            guard (1...2).contains(parsed.positionals.count) else {
                throw UsageError(
                    message: "results needs a session and the counts: lessonplan results SESSION FILE (a CSV of item,option,count), or - for stdin.")
            }
            url = try store.locate(parsed.positionals[0])
            let loaded = try store.read(url, prompts: .skipped)
            guard let folded = TranscriptReader.state(of: loaded) else { throw StoreError.notATranscript(path: url.path) }
            state = folded
            quiz = try Self.quiz(state, choice: parsed.value("quiz"))
        } catch {
            console.error(error.message)
            return 2
        }
        let results: QuizResults
        do {
            results = try QuizResults.read(try text(parsed.positionals.dropFirst().first, quiz: quiz.quiz), quiz: quiz.quiz)
        } catch {
            console.error(error.message)
            return 1
        }
        do {
            let writer = try TranscriptWriter(url: url, opening: .existing)
            try writer.append(.results(ResultsRecord(at: Date(), quiz: quiz.number, counts: results.counts)))
        } catch {
            console.error(error.message)
            return 1
        }
        console.line(
            "Quiz \(quiz.number) (\(quiz.quiz.kind.rawValue), \(counted(quiz.quiz.items.count, "item"))): results saved with the session (counts only)."
        )
        for line in ResultsAnalysis(results, quiz: quiz.quiz).lines { console.line(line) }
        console.note(
            "`lessonplan resume \(state.name ?? String(state.header.id.prefix(8)))`, then /reteach, writes tomorrow's plan around the top misconceptions."
        )
        return 0
    }

    /// The quiz the results are for: the one `--quiz` names, else the newest of the current plan, else the newest.
    static func quiz(_ state: SessionState, choice text: String?) throws(UsageError) -> QuizVersion {
        if let text {
            guard let choice = QuizChoice(text: text) else {
                throw UsageError(message: "--quiz takes a quiz's number, starter or exit, e.g. --quiz 2.")
            }
            guard let found = state.quiz(choice) else {
                throw UsageError(message: "This session has no quiz \(text); `lessonplan replay` lists its quizzes.")
            }
            return found
        }
        guard let quiz = state.quizzes(for: state.currentVersion).max(by: { $0.number < $1.number }) ?? state.quizzes.last else {
            throw UsageError(message: "This session has no quiz yet; type /quiz in it first, then give its results.")
        }
        return quiz
    }

    /// The counts' text: the file, stdin (`-`), or typed at the terminal item by item.
    private func text(_ source: String?, quiz: Quiz) throws -> String {
        switch source {
        case "-"?:
            return String(decoding: FileHandle.standardInput.readData(ofLength: 4 << 20), as: UTF8.self)
        case let path?:
            return String(decoding: try PrivateFiles.read(URL(fileURLWithPath: path), followLinks: true, limit: 4 << 20), as: UTF8.self)
        case nil:
            guard console.stdinIsTTY else {
                throw UsageError(message: "results needs the counts: a FILE (a CSV of item,option,count), or - to read them from stdin.")
            }
            var lines: [String] = []
            console.line("Type how many students chose each option, in order, separated by spaces (Enter alone: none).")
            for (index, item) in quiz.items.enumerated() {
                let letters = item.options.map(\.letter).joined(separator: " ")
                console.out("Item \(index + 1) (\(letters)): ")
                let typed = (readLine() ?? "").split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
                for (letter, count) in zip(item.options.map(\.letter), typed) { lines.append("\(index + 1),\(letter),\(count)") }
            }
            return lines.joined(separator: "\n")
        }
    }
}
