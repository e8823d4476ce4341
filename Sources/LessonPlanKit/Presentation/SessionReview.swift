import Foundation
import LessonPlanCore
import LessonPlanDocuments
import Synchronization

/// Options for walking a transcript with `lessonplan replay`.
package struct ReplayOptions: Sendable {
    /// Print whole plans instead of diffs.
    package var full = false
    /// Only this turn number.
    package var turn: Int?

    package init(full: Bool = false, turn: Int? = nil) {
        self.full = full
        self.turn = turn
    }
}

/// Turns a session into text to read back: replay blocks, and the document for exports.
package enum SessionReview {
    /// One block of text per turn, undo and hand edit, in order; `--turn` keeps one turn.
    package static func replay(_ state: SessionState, options: ReplayOptions) -> [StyledText] {
        var blocks: [StyledText] = []
        var plans = PlanLines()
        var shownLesson: Int?
        for event in state.events {
            switch event {
            case .turn(let index):
                let turn = state.turns[index]
                if let wanted = options.turn, wanted != turn.started.turn { continue }
                if let lesson = lessonHeading(turn.started, state: state, shown: &shownLesson) { blocks.append(lesson) }
                blocks.append(render(turn, state: state, options: options, plans: &plans))
            case .undo(let undo):
                guard options.turn == nil else { continue }
                // A /switch or /fork is shown as typed (the transcript's text, cleaned); an /undo as an undo.
                let what = undo.command.map { TerminalSanitizer.cleanLine($0, limit: 40) } ?? "undo"
                blocks.append(heading(what, at: undo.at, detail: "v\(undo.from) → v\(undo.to)") + "\n")
            case .handEdit(let edit):
                guard options.turn == nil else { continue }
                var block = heading("hand edit", at: edit.at, detail: "\(edit.command) → v\(edit.version) (from v\(edit.baseVersion))") + "\n"
                block.append(plan(edit.text, base: state.version(edit.baseVersion)?.text, options: options, plans: &plans))
                blocks.append(block)
            case .sourceAdded(let added):
                guard options.turn == nil else { continue }
                blocks.append(heading("source", at: added.at, detail: "added \(added.source.summary)") + "\n")
            case .sourceRemoved(let removed):
                guard options.turn == nil else { continue }
                blocks.append(heading("source", at: removed.at, detail: "removed \(removed.number): \(removed.name)") + "\n")
            case .unit(let unit):
                guard options.turn == nil else { continue }
                blocks.append(heading("unit", at: unit.at, detail: "\(unit.lessons) lessons, the overview of turn \(unit.turn)") + "\n")
            case .lesson(let lesson):
                guard options.turn == nil else { continue }
                blocks.append(heading("lesson", at: lesson.at, detail: "/lesson \(lesson.number)") + "\n")
            }
        }
        return blocks
    }

    private static func render(
        _ turn: TurnSummary, state: SessionState, options: ReplayOptions, plans: inout PlanLines
    ) -> StyledText {
        let started = turn.started
        var block = heading("turn \(started.turn)", at: started.at, detail: started.command) + "\n"
        var facts = ["model \(started.model)"]
        if let usage = turn.ended?.usage {
            facts.append("\(usage.inputTokens) in / \(usage.outputTokens) out tokens")
        }
        guard let ended = turn.ended else {
            facts.append("unfinished (the program stopped during this turn)")
            return block + StyledText("   " + facts.joined(separator: " · ") + "\n")
        }
        if ended.streamed == false { facts.append("not streamed") }
        let base =
            started.baseVersion.map { state.version($0) == nil ? " (from v\($0), whose line is damaged)" : " (from v\($0))" }
            ?? ""
        // What a kind kept beside the plan, or a unit's overview, says its own facts and prints its own text.
        let own = ended.status == .completed ? (started.kind ?? .plan).product.replay(turn, ended: ended, base: base, in: state) : nil
        switch ended.status {
        case .completed where own != nil:
            facts += own?.facts ?? []
        case .completed where ended.kept == false:
            facts.append("completed, not kept\(base)")
        case .completed:
            // An automatic turn's base is the draft it replaces; say that once.
            let origin = started.follows.map { ", replacing v\($0)" } ?? base
            facts.append("completed → v\(ended.version.map(String.init) ?? "?")\(origin)")
        default:
            facts.append(ended.status.rawValue)
        }
        if let check = ended.check {
            facts.append(check.summary)
        }
        facts.append(String(format: "%.1f s", Double(ended.durationMs) / 1000))
        block.append("   " + facts.joined(separator: " · ") + "\n")
        if let body = own?.body {
            // Not a plan: printed whole, rather than as a change to the plan it came from.
            block.append(StyledText(body.hasSuffix("\n") ? body : body + "\n"))
        } else if ended.status == .completed {
            block.append(
                plan(
                    ended.output, base: started.baseVersion.flatMap { state.version($0)?.text }, options: options,
                    plans: &plans))
        } else {
            if let error = ended.error { block.append("   \(error)\n") }
            if !ended.output.isEmpty { block.append("   (\(ended.output.count) characters of partial answer, not kept as a version)\n") }
        }
        return block
    }

    private static func plan(_ text: String, base: String?, options: ReplayOptions, plans: inout PlanLines) -> StyledText {
        guard !options.full, let base else { return StyledText(text.hasSuffix("\n") ? text : text + "\n") }
        // What `DiffRendering.render(old:new:)` shows, from lines numbered once per plan.
        let script = LineDiff.diff(plans.lines(of: base), plans.lines(of: text))
        var rendered = DiffRendering.render(LineDiff.hunks(script))
        if !rendered.plain.hasSuffix("\n") { rendered.append("\n") }
        return rendered
    }

    /// Each plan's lines split and numbered once, though each plan is diffed twice (as a turn's
    /// result, then as the next turn's base): 7% of `replay --plain` on 10,000 turns.
    private struct PlanLines {
        var numbering = LineNumbering()
        /// The last few plans seen; a turn's base is nearly always the plan just before it.
        var recent: [(text: String, lines: NumberedLines)] = []

        mutating func lines(of text: String) -> NumberedLines {
            if let seen = recent.first(where: { $0.text == text }) { return seen.lines }
            let lines = numbering.number(text)
            recent.append((text, lines))
            if recent.count > 4 { recent.removeFirst() }
            return lines
        }
    }

    private static func heading(_ label: String, at date: Date, detail: String) -> StyledText {
        StyledText("── \(label) · \(timestamp(date)) · \(TerminalSanitizer.cleanLine(detail))", style: .bold)
    }

    /// A local date and time (the `TZ` of the machine) to the second, e.g. `2026-11-29 12:31:18`,
    /// or to the minute without `seconds`. UTC stays in the transcript and JSON only.
    package static func timestamp(_ date: Date, seconds: Bool = true) -> String {
        let text = timestampFormatter.withLock { $0.string(from: date) }
        return seconds ? text : String(text.dropLast(3))
    }

    /// The line `resume` opens with: which session, its topic, its versions, and when it started and
    /// last changed in local time; a session without a plan says how to get one.
    /// - Parameter canSend: whether a request can be sent (a key is set); without one, /generate is not offered.
    package static func resumeNote(_ state: SessionState, canSend: Bool = true) -> String {
        let label = state.name.map { "“\(TerminalSanitizer.cleanLine($0))”" } ?? String(state.header.id.prefix(8))
        let times = [state.header.created] + state.versions.map(\.createdAt) + state.turns.map { $0.ended?.at ?? $0.started.at }
        let changed = times.max() ?? state.header.created
        let when = "started \(timestamp(state.header.created, seconds: false)), last changed \(timestamp(changed, seconds: false))"
        let versions =
            state.versions.isEmpty
            ? (canSend ? "no plan yet; /generate writes one" : "no plan yet") : counted(state.versions.count, "version")
        return "Resumed session \(label): \(state.currentInputs.topic), \(versions)\(unitNote(state)) (\(when))."
    }

    /// One formatter for every timestamp: building a `DateFormatter` opens an ICU formatter,
    /// which cost more than the rest of `sessions` over 1,000 sessions and a quarter of `replay`.
    private static let timestampFormatter: Mutex<DateFormatter> = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return Mutex(formatter)
    }()
}
