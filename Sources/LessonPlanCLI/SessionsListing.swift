import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanKit
import LessonPlanModel
import LessonPlanStore

/// What `lessonplan sessions` prints: a table that fits the width, or JSON for a program.
package enum SessionsListing {
    /// The sessions as JSON, newest first; files that cannot be read follow as `{"file": …, "unreadable": reason}`.
    package static func json(_ list: SessionList) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.keyEncodingStrategy = .convertToSnakeCase
        var items = (try? JSONSerialization.jsonObject(with: encoder.encode(list.summaries))) as? [Any] ?? []
        items += list.unreadable.map { ["file": $0.file, "unreadable": $0.reason] }
        var data =
            (try? JSONSerialization.data(withJSONObject: items, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
            ?? Data("[]".utf8)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// The list for a pipe, as git and gh print it: one whole row per session, tab-separated, nothing
    /// clipped, no heading (id, name, created, band, minutes, topic, versions, last command).
    package static func rows(_ list: SessionList) -> String {
        list.summaries.map { summary in
            [
                summary.id, summary.name ?? "", SessionReview.timestamp(summary.created, seconds: false),
                summary.grade.rawValue, String(summary.minutes), summary.listedTopic, String(summary.versions),
                summary.lastCommand ?? "",
            ].map(TextTable.wholeCell).joined(separator: "\t") + "\n"
        }.joined()
    }

    /// What goes beside the rows on stderr when the list is piped: the same notes as under the table.
    package static func notes(_ list: SessionList, folder: String) -> [String] {
        var notes: [String] = []
        if list.summaries.isEmpty, list.unreadable.isEmpty { notes.append("No saved sessions yet. Sessions are stored in \(folder).") }
        let empty = list.summaries.filter { $0.versions == 0 }.count
        if empty > 0 {
            notes.append(
                "\(counted(empty, "session")) with 0 versions never got a plan; `lessonplan resume <id>` goes on with one, `lessonplan sessions prune` removes them."
            )
        }
        let damaged = list.summaries.filter { $0.damaged == true }.map { String($0.id.prefix(8)) }
        if !damaged.isEmpty {
            notes.append(
                "Damaged (some lines could not be read and are skipped; `lessonplan replay <id>` names them): \(damaged.joined(separator: ", ")).")
        }
        for file in list.unreadable { notes.append("Cannot list \(TerminalSanitizer.cleanLine(file.file)) in \(folder): \(file.reason)") }
        return notes
    }

    /// The table, then a line for sessions without a plan, damaged ones and files that cannot be read.
    /// - Parameter folder: where sessions are stored, named when there are none.
    package static func text(_ list: SessionList, folder: String, width: Int) -> StyledText {
        let summaries = list.summaries
        guard !summaries.isEmpty || !list.unreadable.isEmpty else {
            return StyledText("No saved sessions yet. Sessions are stored in \(folder).\n")
        }
        var text = StyledText(summaries.isEmpty ? "" : SessionsTable.render(summaries, width: width))
        let empty = summaries.filter { $0.versions == 0 }.count
        if empty > 0 {
            text.append(
                "\(counted(empty, "session")) with 0 versions never got a plan; `lessonplan resume <id>` goes on with one, `lessonplan sessions prune` removes them.\n"
            )
        }
        if summaries.contains(where: { $0.damaged == true }) {
            text.append("* damaged: some lines could not be read and are skipped; `lessonplan replay <id>` names them.\n")
        }
        if !list.unreadable.isEmpty {
            text.append("Cannot list \(counted(list.unreadable.count, "file")) in \(folder):\n")
            for file in list.unreadable { text.append("  \(SessionsTable.clip(file.file, 40))  \(file.reason)\n") }
        }
        return text
    }
}

/// What `replay --rerun` prints: each turn, recorded against now, with the diff when both completed.
package struct RerunReport {
    package let text: StyledText
    /// Turns sent again that did not complete.
    package let failures: Int

    /// - Parameter whole: commands in full, for a pipe; else clipped to fit a terminal line.
    package init(_ steps: [RerunStep], whole: Bool = false) {
        var text = StyledText()
        var failures = 0
        for step in steps {
            let command = whole ? TextTable.wholeCell(step.command) : TerminalSanitizer.cleanLine(step.command, limit: 60)
            text.append("── turn \(step.turn) · \(command)\n", style: .bold)
            guard let outcome = step.outcome else {
                text.append("   skipped: \(step.note ?? "")\n")
                continue
            }
            let recordedStatus = step.recordedStatus?.rawValue ?? "unfinished"
            text.append("   recorded: \(recordedStatus) · now: \(outcome.status.rawValue)" + (outcome.message.map { " (\($0))" } ?? "") + "\n")
            if outcome.status != .completed { failures += 1 }
            if step.recordedStatus == .completed, outcome.status == .completed {
                text.append(DiffRendering.render(old: step.recordedOutput, new: outcome.text))
                text.append("\n")
            }
            for followUp in step.followUps {
                text.append("   then \(followUp.keepNote ?? "an automatic turn: \(followUp.status.rawValue)")\n")
            }
        }
        self.text = text
        self.failures = failures
    }
}

/// The `sessions` table: newest first, one line each, fitted to the terminal's width.
package enum SessionsTable {
    package static func render(_ summaries: [SessionSummary], width: Int) -> String {
        let columns = [
            TextTable.Column("ID"), TextTable.Column("NAME", maximum: 20, minimum: 10),
            TextTable.Column("CREATED"), TextTable.Column("BAND"), TextTable.Column("MIN"),
            TextTable.Column("TOPIC", maximum: 28, minimum: 12), TextTable.Column("VERS"),
            TextTable.Column("LAST COMMAND", maximum: 28, minimum: 12, droppable: true),
        ]
        let rows = summaries.map { summary -> [String] in
            [
                String(summary.id.prefix(8)) + (summary.damaged == true ? "*" : ""), summary.name ?? "–",
                SessionReview.timestamp(summary.created, seconds: false), summary.grade.rawValue,
                String(summary.minutes), summary.listedTopic, String(summary.versions), summary.lastCommand ?? "–",
            ]
        }
        return TextTable(columns: columns, rows: rows).render(width: width)
    }

    package static func clip(_ text: String, _ limit: Int) -> String {
        // Sanitised before measuring, so a control shown as `␛` or `<U+202E>` is counted as printed.
        TextTable.clip(TerminalSanitizer.cleanLine(text, limit: limit * 4), to: limit)
    }
}

extension SessionSummary {
    /// The topic as `sessions` lists it: a unit says so, with its lesson count, so it is not taken for one lesson;
    /// a unit whose overview failed (no unit, no plan) says that, so it is not taken for a lesson to go on with.
    var listedTopic: String {
        if let lessons { return "unit of \(lessons) lessons: \(topic)" }
        if versions == 0, lastCommand?.hasPrefix("/unit") == true { return "failed unit (no overview): \(topic)" }
        return topic
    }
}
