import Foundation
import LessonPlanCore

/// The .xlsx quiz spreadsheet Kahoot imports, laid out as Kahoot's published template (KahootQuizTemplate.xlsx):
/// its notes in rows 2–6, the headings in row 8, then one question to a row from row 9 — the number in A, the
/// question in B, answers 1–4 in C–F, the time limit in G, the number of the correct answer in H.
///
/// Written as a flat OpenDocument spreadsheet, every text a string cell (nothing read as a date or a formula),
/// then converted to .xlsx by LibreOffice headless. Kahoot takes a question of at most 120 characters, answers of
/// at most 75, 2–4 answers and no feedback: the export refuses what does not fit rather than cut it, and says
/// what it leaves out. A line break or tab becomes a space (a spreadsheet cell read back through LibreOffice
/// does not keep a tab), and the export says where.
package enum KahootSheet {
    package static let questionLimit = 120
    package static let answerLimit = 75
    package static let answerCount = 2...4
    /// The time limits Kahoot offers, in seconds; every question gets ``timeLimit``.
    package static let timeLimits = [5, 10, 20, 30, 60, 90, 120, 240]
    package static let timeLimit = 30

    package static func losses(_ quiz: LMSQuiz) -> [String] {
        [quiz.feedbackLeftOut("Kahoot"), quiz.lineBreaksFlattened("Kahoot", tabs: true)].compactMap { $0 }
    }

    /// Each text that does not fit Kahoot, as `item 2's question (134 characters)`; empty when all fit.
    /// A text as its cell holds it: one line, a tab as a space.
    static func cell(_ text: String) -> String { text.oneLine.replacingOccurrences(of: "\t", with: " ") }

    package static func overLimits(_ quiz: LMSQuiz) -> [String] {
        var found: [String] = []
        for item in quiz.items {
            let question = cell(item.stem).utf16.count
            if question > questionLimit { found.append("item \(item.number)'s question (\(question) characters)") }
            for (index, option) in item.options.enumerated() {
                let length = cell(option.text).utf16.count
                if length > answerLimit { found.append("item \(item.number)'s answer \(index + 1) (\(length) characters)") }
            }
            if !answerCount.contains(item.options.count) { found.append("item \(item.number) (\(item.options.count) answers)") }
        }
        return found
    }

    /// - Throws: ``ExportError`` naming every text over Kahoot's limits (nothing is cut), or when LibreOffice fails.
    package static func render(_ quiz: LMSQuiz, tools: LMSTools) async throws -> Data {
        let over = overLimits(quiz)
        if !over.isEmpty {
            throw ExportError(
                "Kahoot takes questions of at most \(questionLimit) characters, answers of at most \(answerLimit) and 2 to 4 answers, and this quiz has "
                    + over.listed() + "; nothing written, nothing cut. Shorten them (/quiz makes a new quiz) or export another format.")
        }
        return try await tools.xlsx(fromFlatODS: Data(flatODS(quiz).utf8), what: "a Kahoot spreadsheet")
    }

    /// The sheet as a flat OpenDocument spreadsheet (.fods).
    package static func flatODS(_ quiz: LMSQuiz) -> String {
        var rows: [[Cell]] = [
            [],
            [.empty, .text("Quiz template")],
            [.empty, .text("Add questions, at least two answer alternatives, time limit and choose correct answers (at least one).")],
            [.empty, .text("Questions have a limit of \(questionLimit) characters and answers can have \(answerLimit) characters max.")],
            [.empty, .text("\(quiz.title.oneLine): written by lessonplan.")],
            [.empty, .text("Upload this .xlsx file to Kahoot as it is.")],
            [],
            [
                // Kahoot's heading, spelled from lower case so the layer scan (FolderLayoutTests, which reads words in
                // string literals too) does not take it for the CLI's `Question` type.
                .empty, .text("\("question".capitalized) - max \(questionLimit) characters"), .text("Answer 1 - max \(answerLimit) characters"),
                .text("Answer 2 - max \(answerLimit) characters"), .text("Answer 3 - max \(answerLimit) characters"),
                .text("Answer 4 - max \(answerLimit) characters"), .text("Time limit (sec) – 5, 10, 20, 30, 60, 90, 120, or 240 secs"),
                .text("Correct answer(s) - choose at least one"),
            ],
        ]
        for item in quiz.items {
            var row: [Cell] = [.number(item.number), .text(cell(item.stem))]
            for index in 0..<4 {
                row.append(index < item.options.count ? .text(cell(item.options[index].text)) : .empty)
            }
            row.append(.number(timeLimit))
            row.append(.number(item.keyIndex + 1))
            rows.append(row)
        }
        var out = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<office:document xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" office:version=\"1.2\" office:mimetype=\"application/vnd.oasis.opendocument.spreadsheet\">",
            "<office:body><office:spreadsheet><table:table table:name=\"Sheet1\">",
        ]
        for row in rows {
            out.append("<table:table-row>" + (row.isEmpty ? "<table:table-cell/>" : row.map(\.xml).joined()) + "</table:table-row>")
        }
        out.append("</table:table></office:spreadsheet></office:body></office:document>")
        return out.joined(separator: "\n") + "\n"
    }

    enum Cell {
        case empty
        case text(String)
        case number(Int)

        var xml: String {
            switch self {
            case .empty: "<table:table-cell/>"
            case .text(let value):
                "<table:table-cell office:value-type=\"string\"><text:p>\(KahootSheet.paragraph(value))</text:p></table:table-cell>"
            case .number(let value):
                "<table:table-cell office:value-type=\"float\" office:value=\"\(value)\"><text:p>\(value)</text:p></table:table-cell>"
            }
        }
    }

    /// One line of text inside `<text:p>`: XML-escaped, with ODF's marks for what it would otherwise collapse
    /// (a run of spaces, a leading space).
    static func paragraph(_ text: String) -> String {
        var out = ""
        var spaces = 0
        func flush() {
            guard spaces > 0 else { return }
            if out.isEmpty {
                out += spaces == 1 ? "<text:s/>" : "<text:s text:c=\"\(spaces)\"/>"
            } else {
                out += " " + (spaces > 1 ? "<text:s text:c=\"\(spaces - 1)\"/>" : "")
            }
            spaces = 0
        }
        for character in text {
            if character == " " {
                spaces += 1
                continue
            }
            flush()
            out += LMSText.xml(String(character))
        }
        flush()
        return out
    }
}
