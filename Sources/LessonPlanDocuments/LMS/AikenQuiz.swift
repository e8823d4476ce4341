import Foundation

/// The Aiken format Moodle imports: a question on one line, its answers `A. …` one to a line, then `ANSWER: B`.
///
/// Aiken has no escapes and no feedback: a line break in a question or an answer becomes a space (said before
/// writing), and a question or answer that would read as another line's marker (`B. …`, `ANSWER: …`), a question
/// of punctuation alone (`?`) and an empty answer are refused.
package enum AikenQuiz {
    /// What the file leaves out, one sentence each, for the teacher before it is written.
    package static func losses(_ quiz: LMSQuiz) -> [String] {
        [quiz.feedbackLeftOut("Aiken"), quiz.lineBreaksFlattened("Aiken")].compactMap { $0 }
    }

    /// - Throws: ``ExportError`` when an item has more answers than letters or a line Aiken would misread.
    package static func render(_ quiz: LMSQuiz) throws(ExportError) -> String {
        let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".map(String.init)
        var misread: [Int] = []
        var unread: [Int] = []
        var out: [String] = []
        for item in quiz.items {
            guard item.options.count <= letters.count else {
                throw ExportError("Aiken takes at most 26 answers, and item \(item.number) has \(item.options.count); nothing written.")
            }
            let lines = [item.stem.oneLine] + item.options.map(\.text.oneLine)
            if lines.contains(where: looksLikeMarker) { misread.append(item.number) }
            if !hasWords(item.stem) || item.options.contains(where: { $0.text.oneLine.trimmingCharacters(in: .whitespaces).isEmpty }) {
                unread.append(item.number)
            }
            out.append(item.stem.oneLine.trimmingCharacters(in: .whitespaces))
            for (index, option) in item.options.enumerated() {
                out.append("\(letters[index]). \(option.text.oneLine.trimmingCharacters(in: .whitespaces))")
            }
            out.append("ANSWER: \(letters[item.keyIndex])")
            out.append("")
        }
        if !misread.isEmpty {
            throw ExportError(
                "Aiken would misread \(LMSQuiz.items(misread)): a question or answer there begins like an answer letter (“A. ”) or “ANSWER:”, and Aiken has no way to escape it; nothing written. Export GIFT or Moodle XML instead."
            )
        }
        if !unread.isEmpty {
            throw ExportError(
                "Aiken cannot carry \(LMSQuiz.items(unread)): a question with no letters or digits (“?”), or an empty answer, is a line Moodle's Aiken import skips or misreads; nothing written. Make a new quiz (/quiz) or export GIFT or Moodle XML instead."
            )
        }
        return out.joined(separator: "\n")
    }

    /// Whether a question holds a letter or a digit: one of punctuation alone is not read as a question.
    static func hasWords(_ text: String) -> Bool {
        text.unicodeScalars.contains { CharacterSet.alphanumerics.contains($0) }
    }

    /// Whether a line begins the way Moodle's Aiken reader marks an answer or the key.
    static func looksLikeMarker(_ line: String) -> Bool {
        let text = line.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("ANSWER:") { return true }
        let scalars = Array(text.unicodeScalars.prefix(3))
        guard scalars.count == 3 else { return false }
        return ("A"..."Z").contains(scalars[0]) && (scalars[1] == "." || scalars[1] == ")") && (scalars[2] == " " || scalars[2] == "\t")
    }
}
