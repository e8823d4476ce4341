import Foundation
import Synchronization

/// Options for walking a transcript with `lessonplan replay`.
public struct ReplayOptions: Sendable {
    /// Print whole plans instead of diffs.
    public var full = false
    /// Only this turn number.
    public var turn: Int?

    public init(full: Bool = false, turn: Int? = nil) {
        self.full = full
        self.turn = turn
    }
}

/// Turns a session into text for review: replay blocks, and the document for exports.
public enum SessionReview {
    /// One block of text per turn, undo and hand edit, in order; `--turn` keeps one turn.
    public static func replay(_ state: SessionState, options: ReplayOptions) -> [StyledText] {
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
                blocks.append(heading("undo", at: undo.at, detail: "v\(undo.from) → v\(undo.to)") + "\n")
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
        switch ended.status {
        case .completed where started.kind == .materials:
            facts.append("completed → handouts \(ended.materials.map(String.init) ?? "?")\(base)")
        case .completed where started.kind == .quiz || started.kind == .rubric:
            let noun = started.kind?.rawValue ?? ""
            let made = ended.kept == false ? "not kept" : "\(noun) \((ended.quiz ?? ended.rubric).map(String.init) ?? "?")"
            let repairing = started.follows.map { ", repairing \(noun) \($0)" } ?? ""
            facts.append("completed → \(made)\(repairing)\(base)")
            if let problems = started.assessment?.problems(in: ended.output) {
                facts.append(problems.isEmpty ? "✓ \(noun) check" : "✗ \(noun) check: \(counted(problems.count, "problem"))")
            }
        case .completed where started.kind == .review:
            let made = ended.review.map { "review \($0)" } ?? "not kept (no criterion in the layout asked for)"
            facts.append("completed → \(made)\(base)")
            if let number = ended.review, let review = state.reviews.first(where: { $0.number == number }) {
                let unfound = review.review.unfound.count
                facts.append(unfound == 0 ? "✓ quotations in the plan" : "✗ \(counted(unfound, "quotation")) not in the plan")
            }
        case .completed where started.kind == .overview:
            facts.append("completed → a unit overview")
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
        if ended.status == .completed, started.kind == .review, let number = ended.review,
            let review = state.reviews.first(where: { $0.number == number })
        {
            // Each row with its quotation marked when the plan it reviewed does not say it.
            block.append(StyledText(ReviewText.render(review.review, source: review.source, width: nil)))
        } else if ended.status == .completed, started.kind == .quiz || started.kind == .rubric || started.kind == .review
            || started.kind == .overview
        {
            // Not a plan: printed whole, as the model wrote it, rather than as a change to the plan it came from.
            block.append(StyledText(ended.output.hasSuffix("\n") ? ended.output : ended.output + "\n"))
        } else if ended.status == .completed {
            block.append(plan(
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
    public static func timestamp(_ date: Date, seconds: Bool = true) -> String {
        let text = timestampFormatter.withLock { $0.string(from: date) }
        return seconds ? text : String(text.dropLast(3))
    }

    /// The line `resume` opens with: which session, its topic, its versions, and when it started and
    /// last changed in local time; a session without a plan says how to get one.
    /// - Parameter canSend: whether a request can be sent (a key is set); without one, /generate is not offered.
    public static func resumeNote(_ state: SessionState, canSend: Bool = true) -> String {
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

    /// Everything an export needs from a session, read once with the plan's framework: sections, pacing, check.
    /// - Parameter showModel: Name the model in the teacher's header.
    public static func document(_ state: SessionState, framework: Framework, showModel: Bool = false) -> (
        export: ExportDocument, plan: PlanDocument
    )? {
        guard let current = state.current else { return nil }
        let plan = framework.document(of: current.text)
        let report = framework.check(plan, lessonMinutes: current.inputs.minutes, topic: current.inputs.topic)
        var check = ExportCheck(report, framework: framework)
        // Handouts made from another plan version: the teacher's copy says so, the students' sheets never do.
        let teacherNotes = staleHandouts(state).map { stale in
            ["The handouts were made from v\(stale.madeFrom), but this plan is v\(stale.current); type /materials to make new ones before printing them."]
        } ?? []
        check.quotations = QuoteChecker.check(current.text, against: state.sources).problems.map(\.sentence)
        var document = ExportDocument(
            topic: current.inputs.topic, grade: current.inputs.grade.rawValue, minutes: current.inputs.minutes,
            standards: current.inputs.standards, constraints: current.inputs.constraints, model: state.header.model,
            created: state.header.created,
            versions: state.versions.map {
                ExportVersion(number: $0.number, command: $0.command, createdAt: $0.createdAt, text: $0.text)
            },
            currentVersion: current.number, pacing: framework.pacing(of: plan),
            framework: framework.name == Framework.defaultName ? "" : framework.title,
            check: check, showModel: showModel,
            rubric: state.rubric(for: current.number)?.rubric, quizzes: state.quizzes(for: current.number).map(\.quiz))
        document.teacherNotes = teacherNotes
        if let review = state.review(of: current.number) {
            document.review = ExportReview(number: review.number, planVersion: current.number, rows: review.review.rows, summary: review.review.summary, source: review.source)
        }
        return (document, plan)
    }

    /// The bytes of an export in `format`, reading the plan under its framework's headings.
    /// - Throws: ``ExportError`` when there is no plan yet.
    public static func export(_ state: SessionState, format: ExportFormat, framework: Framework, showModel: Bool = false)
        throws -> Data
    {
        guard let (document, plan) = document(state, framework: framework, showModel: showModel) else {
            throw ExportError("There is no plan to export yet; generate one first.")
        }
        return try render(document, plan: plan, format: format)
    }

    /// What an export should tell the teacher before it is written: handouts made from an older plan, and a
    /// newer quiz or rubric left out because it was made from another plan version than the exported one.
    public static func exportNotes(_ state: SessionState, materials: Bool) -> [String] {
        var notes: [String] = []
        if materials, let stale = staleHandouts(state) {
            notes.append(
                "These handouts were made from v\(stale.madeFrom), but the plan is now v\(stale.current) (the students' sheets do not say so). Type /materials to make new ones.")
        }
        let exported = materials ? state.materials.last?.planVersion : state.currentVersion
        // A review goes on the teacher's copy only, so handouts never leave one out.
        let review = materials ? nil : state.reviewLeftOut(exporting: exported)
        return notes + state.assessmentsLeftOut(exporting: exported) + (review.map { [$0] } ?? [])
    }

    /// Whether the latest handouts were made from an older plan version than the current one.
    /// - Returns: the plan version they were made from and the current one, or nil when they match.
    public static func staleHandouts(_ state: SessionState) -> (madeFrom: Int, current: Int)? {
        guard let materials = state.materials.last, let made = materials.planVersion, let current = state.currentVersion,
            made != current
        else { return nil }
        return (made, current)
    }

    /// The bytes of the latest student handouts in `format`, read with the framework of the plan they came from.
    /// - Throws: ``ExportError`` when `/materials` has not made any yet.
    public static func exportMaterials(_ state: SessionState, format: ExportFormat, framework: Framework? = nil) throws
        -> Data
    {
        let (document, plan) = try materialsDocument(state, framework: framework)
        return try render(document, plan: plan, format: format)
    }

    /// Everything an export of the latest student handouts needs, read with the framework of the plan they came from.
    /// - Throws: ``CommandError`` when `/materials` has not made any yet.
    public static func materialsDocument(_ state: SessionState, framework: Framework? = nil) throws -> (
        export: ExportDocument, plan: PlanDocument
    ) {
        guard let materials = state.materials.last else {
            throw ExportError("There are no student handouts yet; type /materials to make them from the plan.")
        }
        let document = ExportDocument(
            topic: materials.inputs.topic, grade: materials.inputs.grade.rawValue, minutes: materials.inputs.minutes,
            model: state.header.model, created: materials.createdAt,
            versions: [
                ExportVersion(
                    number: materials.number, command: "/materials", createdAt: materials.createdAt, text: materials.text)
            ],
            currentVersion: materials.number, kind: .materials, planVersion: materials.planVersion,
            latestPlanVersion: state.currentVersion, rubric: state.rubric(for: materials.planVersion)?.rubric,
            quizzes: state.quizzes(for: materials.planVersion).map(\.quiz))
        return (document, PlanDocument(parsing: materials.text, headings: framework?.headings ?? []))
    }

    private static func render(_ document: ExportDocument, plan: PlanDocument, format: ExportFormat) throws -> Data {
        switch format {
        // Markdown is read in terminals and editors as it is, so it gets the terminal's sanitiser too.
        case .md: return Data(TerminalSanitizer.clean(PlanExport.renderMarkdown(document, plan: plan)).utf8)
        case .html: return Data(PlanExport.renderHTML(document, plan: plan).utf8)
        case .json: return try PlanExport.renderJSON(document)
        case .docx, .odt, .pptx:
            // Editable documents are made through pandoc (`ExportCommand.document`), not here.
            throw ExportError("A .\(format.rawValue) is made through pandoc; use /export \(format.rawValue) FILE or lessonplan export --format \(format.rawValue).")
        }
    }
}
