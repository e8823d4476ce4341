import Foundation
import LessonPlanCore
import LessonPlanModel
import LessonPlanStore
import Synchronization

/// One session: its transcript on disk, its state, and the turns that change it.
///
/// Every change is appended to the transcript and flushed before it is applied to the state,
/// so what the user sees is always what a resumed session will show.
package actor SessionEngine {
    package private(set) var state: SessionState
    package nonisolated let prompts: PromptLibrary
    package let client: ModelClient
    let store: SessionStore
    let writer: TranscriptWriter
    let now: @Sendable () -> Date
    /// Time and randomness for retry waits, injected so tests never sleep.
    let retryClock: any RetryClock
    /// The clock of a turn's own timers (its total deadline, the slow-turn notice), injected so tests pick which
    /// fires without waiting.
    let timerClock: any RetryClock

    /// The teacher's sources the session's plans are grounded in, in the order added (kept in the transcript).
    package var sources: [SourceDocument] { state.sources }

    /// Warnings from reading the transcript when it was resumed (a torn last line, say).
    package nonisolated let openingWarnings: [String]
    /// Whether the transcript had damaged lines when it was resumed, for the summary.
    private let damaged: Bool
    /// The transcript being written.
    package nonisolated let transcriptURL: URL

    /// Starts a new session and writes its header.
    /// - Throws: ``StoreError`` when the data directory or transcript cannot be written.
    package init(
        newSessionWith inputs: LessonInputs, name: String?, store: SessionStore, prompts: PromptLibrary,
        client: ModelClient, toolVersion: String, framework: String = Framework.defaultName,
        now: @escaping @Sendable () -> Date = Date.init, retryClock: any RetryClock = SystemRetryClock(),
        timerClock: any RetryClock = SystemRetryClock()
    ) throws(StoreError) {
        try store.directory.prepare()
        let header = SessionHeader(
            id: SessionStore.newID(), created: now(), inputs: inputs, model: client.settings.model,
            baseUrl: client.settings.redactedBaseURL, name: name, toolVersion: toolVersion,
            framework: framework == Framework.defaultName ? nil : framework, className: client.names.value?.name)
        // A name is checked and taken under the store's name lock, so of several processes
        // started with the same name at once exactly one gets it.
        let writer = try store.withNameLock { () throws(StoreError) -> TranscriptWriter in
            if let name { try store.ensureNameFree(name, except: "") }
            let url = store.directory.transcript(id: header.id)
            let writer = try TranscriptWriter(url: url, opening: .createNew)
            writer.names = client.names
            do throws(StoreError) { try writer.append(.header(header)) } catch {
                try? FileManager.default.removeItem(at: url)
                throw error
            }
            store.writeSummary(SessionSummary(state: SessionState(header: header), transcriptBytes: writer.size))
            return writer
        }
        self.writer = writer
        self.transcriptURL = writer.url
        self.state = SessionState(header: header)
        self.state.reviewing(with: ReviewRubric(parsing: prompts.reviewRubricText))
        self.store = store
        self.prompts = prompts
        self.client = client
        self.now = now
        self.retryClock = retryClock
        self.timerClock = timerClock
        self.openingWarnings = []
        self.damaged = false
    }

    /// Reopens a saved session for more turns, locking it against other processes.
    ///
    /// Earlier turns' prompts are not kept (``TranscriptReader/Prompts/skipped``): a session
    /// goes on from its versions, and they are most of a long transcript's bytes.
    /// - Throws: ``StoreError`` for a locked, missing, newer-format or non-transcript file.
    package init(
        resuming url: URL, store: SessionStore, prompts: PromptLibrary, client: ModelClient,
        now: @escaping @Sendable () -> Date = Date.init, retryClock: any RetryClock = SystemRetryClock(),
        timerClock: any RetryClock = SystemRetryClock()
    ) throws(StoreError) {
        // Opened and locked first, then read through the same descriptor and checked before
        // anything is written to it.
        let writer = try TranscriptWriter(url: url, opening: .existing)
        var loaded = try TranscriptReader.parse(writer.contents(), path: url.path, prompts: .skipped)
        // A session tied to a class reads its pseudonyms back as names, and goes on writing pseudonyms.
        loaded = ClassStore(directory: store.directory).restoring(loaded, into: client.names, ordinaryWords: prompts.ordinaryNameWords)
        writer.names = client.names
        guard let state = TranscriptReader.state(of: loaded) else { throw .notATranscript(path: url.path) }
        self.writer = writer
        self.transcriptURL = writer.url
        self.state = state
        self.state.reviewing(with: ReviewRubric(parsing: prompts.reviewRubricText))
        self.store = store
        self.prompts = prompts
        self.client = client
        self.now = now
        self.retryClock = retryClock
        self.timerClock = timerClock
        self.openingWarnings = loaded.warnings
        self.damaged = loaded.isDamaged
    }

    /// The framework a version is written in (the session's before the first plan).
    /// - Throws: ``PromptError`` when the prompt templates lack it or its `checks.txt` is broken.
    package func framework(of version: PlanVersion?) throws(PromptError) -> Framework {
        try prompts.framework(version?.framework ?? state.currentFramework)
    }

    /// The plan check of a version, by its framework's rules.
    /// - Throws: ``PromptError`` when the framework cannot be read.
    package func check(_ version: PlanVersion) throws(PromptError) -> PlanCheckReport {
        try framework(of: version).check(
            version.text, lessonMinutes: version.inputs.minutes, topic: version.inputs.topic, grade: version.inputs.grade)
    }

    /// Every quotation of a text checked against the session's sources (empty without sources).
    package func quotes(in text: String) -> QuoteReport {
        QuoteChecker.check(text, against: sources)
    }

    /// Adds a source for the turns that follow, kept whole in the transcript.
    package func addSource(_ source: SourceDocument) {
        append(.sourceAdded(SourceRecord(at: now(), source: source)))
    }

    /// Removes source `number` (1 = the first added).
    /// - Throws: ``SessionError`` when there is no such source.
    @discardableResult
    package func removeSource(_ number: Int) throws -> SourceDocument {
        guard number >= 1, number <= sources.count else {
            throw SessionError(
                sources.isEmpty
                    ? "There are no sources to remove; /source FILE adds one."
                    : "There is no source \(number); /source lists the \(sources.count) there are.")
        }
        let removed = sources[number - 1]
        append(.sourceRemoved(SourceRemovedRecord(at: now(), number: number, name: removed.name)))
        return removed
    }

    /// The reading level of a version's student-facing text against its band.
    /// - Throws: ``PromptError`` when the framework cannot be read.
    package func readingLevel(_ version: PlanVersion) throws(PromptError) -> ReadingMeasure {
        ReadingMeasure(studentText: try framework(of: version).studentFacingText(of: version.text), band: version.inputs.grade)
    }

    /// Runs one request to the model and records it, whatever happens; its plan always becomes current.
    ///
    /// Cancelling the calling task cancels the request; the turn is then recorded as cancelled
    /// and the current version stays as it was.
    package func run(
        command: String, refinement: Refinement, progress: @escaping @Sendable (TurnProgress) -> Void
    ) async -> TurnOutcome {
        let base = refinement.isGeneration ? nil : state.current
        return await runTurn(
            command: command, refinement: refinement, base: base, follows: nil, keep: .always, progress: progress)
    }

    /// A teacher's request, then the automatic turns it calls for (``FollowUpMachine``): a re-ask of a structured
    /// answer that did not fit, one repair when the plan fails the check, and after `/regrade` one retry when the
    /// reading level misses the band.
    ///
    /// Every turn is recorded on its own; a follow-up's plan replaces the draft only when its ``KeepRule`` says so.
    package func request(
        command: String, refinement: Refinement, options: FollowUpOptions = FollowUpOptions(),
        progress: @escaping @Sendable (RequestProgress) -> Void
    ) async -> RequestResult {
        var result = RequestResult(outcomes: [])
        if refinement.measuresReadingLevel, let current = state.current {
            result.levelBefore = try? readingLevel(current)
        }
        let first = await run(command: command, refinement: refinement) { progress(.turn($0)) }
        progress(.ended(first))
        result.outcomes = await followUps(after: first, refinement: refinement, options: options, base: nil, progress: progress)
        guard refinement.measuresReadingLevel, result.first.status == .completed, let current = state.current else { return result }
        result.levelAfter = try? readingLevel(current)
        return result
    }

    /// The request's own turn and the automatic turns ``FollowUpMachine`` calls for after it, sent one by one; a
    /// re-ask stands in for the turn it asks again (which stays in the transcript).
    private func followUps(
        after first: TurnOutcome, refinement: Refinement, options: FollowUpOptions, base: PlanVersion?,
        assessment: AssessmentRequest? = nil, progress: @escaping @Sendable (RequestProgress) -> Void
    ) async -> [TurnOutcome] {
        var machine = FollowUpMachine(refinement.purpose, options: options)
        var outcomes = [first]
        var last = first
        while case .send(let turn) = machine.next(after: last, facts: { self.planFacts() }) {
            let sent: TurnOutcome?
            switch turn {
            case .reask(let problem):
                // A small model's JSON that does not fit the parts is asked for once more, as /retry would.
                progress(.followUp(.reask(problem: problem)))
                sent = await retry { progress(.turn($0)) }
                outcomes.removeLast()
            case .repairPlan:
                sent = await repair(command: "(auto repair)", automatic: true, progress: progress)
            case .readingLevel(let draft, let measured, let check):
                progress(.followUp(.readingLevel(draft: draft.number, measure: measured)))
                sent = await runTurn(
                    command: "(reading level retry)", refinement: levelRefinement(draft, measured: measured), base: draft,
                    follows: draft.number, keep: .closerReadingLevel(than: measured, check: check), progress: { progress(.turn($0)) })
            case .repairMade(let why, let purpose, let follows, let keep):
                progress(.followUp(why))
                sent = await runTurn(
                    command: "(auto repair)", refinement: Refinement(purpose, inputs: refinement.inputs, framework: refinement.framework),
                    base: base, follows: follows, keep: keep, assessment: assessment, progress: { progress(.turn($0)) })
            }
            guard let sent else { continue }
            // A plan's repair says when it ended itself: /repair typed by the teacher sends it the same way.
            if case .repairPlan = turn {} else { progress(.ended(sent)) }
            outcomes.append(sent)
            last = sent
        }
        return outcomes
    }

    /// What a plan's follow-ups read of the session: the current plan, its check and its reading level.
    private func planFacts() -> FollowUpFacts {
        guard let current = state.current else { return FollowUpFacts() }
        return FollowUpFacts(current: current, check: current.check ?? (try? check(current)), level: try? readingLevel(current))
    }

    /// Asks once for a plan that fixes the current plan's problems; it replaces the plan only if it checks better.
    ///
    /// An automatic repair stands in for its draft (``TurnStarted/follows``); a `/repair` the teacher typed
    /// is an ordinary step that `/undo` takes back to the plan it repaired.
    /// - Returns: nil when there is no plan or it passes the check (nothing to repair).
    package func repair(
        command: String = "/repair", automatic: Bool = false, progress: @escaping @Sendable (RequestProgress) -> Void
    ) async -> TurnOutcome? {
        guard let current = state.current, let chosen = try? framework(of: current) else { return nil }
        let report =
            current.check
            ?? chosen.check(current.text, lessonMinutes: current.inputs.minutes, topic: current.inputs.topic, grade: current.inputs.grade)
        let quoteReport = quotes(in: current.text)
        // An automatic repair goes out for problems alone; one the teacher typed sends the advice too.
        guard (automatic ? report.needsRepair : report.hasFindings) || !quoteReport.problems.isEmpty else { return nil }
        let problems = chosen.repairSentences(report, includingAdvice: !automatic) + quoteReport.problems.map(\.sentence)
        progress(.followUp(.repair(draft: current.number, problems: problems)))
        let refinement = Refinement(.repair(problems: problems), inputs: current.inputs, framework: current.framework)
        let outcome = await runTurn(
            command: command, refinement: refinement, base: current, follows: automatic ? current.number : nil,
            keep: quoteReport.problems.isEmpty
                ? .checksBetter(than: report) : .groundedBetter(than: report, quoteProblems: quoteReport.problems.count),
            progress: { progress(.turn($0)) })
        progress(.ended(outcome))
        return outcome
    }

    /// `/quiz item N` and `/rubric row N`: asks for one part of a quiz or rubric again (`purpose`) and keeps it with
    /// that part replaced as a new quiz or rubric, checked as `assessment` says; not repaired unasked (that would
    /// write the other parts again).
    package func redoPart(
        command: String, purpose: TurnPurpose, assessment: AssessmentRequest,
        progress: @escaping @Sendable (RequestProgress) -> Void
    ) async -> RequestResult {
        guard let current = state.current else {
            return RequestResult(outcomes: [failedBeforeSending("There is no plan yet; type /generate to write one.")])
        }
        let outcome = await runTurn(
            command: command, refinement: Refinement(purpose, inputs: current.inputs), base: current, follows: nil,
            keep: .always, assessment: assessment, progress: { progress(.turn($0)) })
        progress(.ended(outcome))
        return RequestResult(outcomes: [outcome])
    }

    /// `/quiz` or `/rubric`: asks for it from the current plan, checks it, and when it fails and `repair` is on,
    /// asks once more with the problems listed (``FollowUpMachine``); the repair is kept only when it has fewer
    /// problems.
    ///
    /// Both are turns of their own; what they make is kept beside the plan version, numbered on its own.
    package func assess(
        command: String, _ assessment: AssessmentRequest, repair: Bool,
        progress: @escaping @Sendable (RequestProgress) -> Void
    ) async -> RequestResult {
        guard let current = state.current else {
            return RequestResult(outcomes: [failedBeforeSending("There is no plan yet; type /generate to write one.")])
        }
        let refinement = Refinement(.assessment(assessment), inputs: current.inputs)
        let first = await runTurn(
            command: command, refinement: refinement, base: current, follows: nil, keep: .always,
            assessment: assessment, progress: { progress(.turn($0)) })
        progress(.ended(first))
        let outcomes = await followUps(
            after: first, refinement: refinement, options: FollowUpOptions(repair: repair), base: current, assessment: assessment,
            progress: progress)
        return RequestResult(outcomes: outcomes)
    }

    /// The retry after `/regrade` that names the measured level and the band's range.
    private func levelRefinement(_ current: PlanVersion, measured: ReadingMeasure) -> Refinement {
        Refinement(
            .readingLevel(measured: measured.gradeText, expected: measured.expectedText), inputs: current.inputs,
            framework: current.framework)
    }

    /// One turn: write the request for its purpose, then send, stream, check and record it.
    /// - Parameter draft: for `/continue`, the draft the answer finishes (its text starts the turn's output).
    func runTurn(
        command: String, refinement: Refinement, base current: PlanVersion?, follows: Int?, keep: KeepRule,
        assessment: AssessmentRequest? = nil, finishing draft: Draft? = nil,
        progress: @escaping @Sendable (TurnProgress) -> Void
    ) async -> TurnOutcome {
        let written: TurnPrompt.Written
        let lesson = lesson(of: refinement.purpose, finishing: draft)
        // In a unit, for a turn that keeps the lesson's objective: the one its plan states, or for its first plan the
        // one the overview gave it. Other turns read no plan for it.
        let objective = lesson.flatMap { number -> String? in
            guard refinement.purpose.keepsUnitObjective else { return nil }
            let stated = refinement.purpose.lessonNumber == nil ? current.flatMap(objective(of:)) : nil
            return stated ?? state.unit?.objective(ofLesson: number)
        }
        do {
            written = try promptWriter.write(
                refinement, base: current, sessionFramework: state.currentFramework, command: command, unitObjective: objective)
        } catch {
            return failedBeforeSending(error.localizedDescription)
        }
        let started = TurnStarted(
            turn: 0, at: .distantPast, command: command, template: refinement.template, inputs: refinement.inputs,
            baseVersion: draft.map(\.baseVersion) ?? current?.number, model: "", instructions: written.instructions,
            input: written.input, maxOutputTokens: 0, follows: follows, kind: refinement.kind, continues: draft?.turn, lesson: lesson)
        var request = TurnRequest(started, framework: written.framework, prefix: draft?.text ?? "", assessment: assessment)
        request.structure = written.structure
        request.overview = written.overview
        request.sourceCuts = written.sourceCuts
        request.splice = AnswerSplice(refinement.purpose, base: current, framework: written.framework, values: refinement.values)
        return await perform(request, base: current, keep: keep, progress: progress)
    }

    /// Writes every turn's request (``TurnPrompt``) from the session's prompts, sources and settings.
    private var promptWriter: TurnPrompt {
        TurnPrompt(
            prompts: prompts, sources: sources, structured: client.settings.structured && !structureDropped,
            // llama-server (Chat Completions) enforces string lengths; OpenAI's strict mode takes a subset of JSON Schema.
            size: client.settings.api == .chat ? .local(model: client.settings.model) : .counted)
    }

    /// `/retry`: sends the last request that did not complete again, built from the same plan
    /// version with the same prompt, and records it as a new turn with `retry_of`.
    package func retry(progress: @escaping @Sendable (TurnProgress) -> Void) async -> TurnOutcome {
        guard var target = state.retryTarget else {
            return failedBeforeSending("Nothing to retry: the last request completed (or none was sent yet).")
        }
        // One part written again is put into the plan, quiz or rubric it was asked from; typed again, the command
        // asks from what is current now.
        if TurnPurpose.partTemplates.contains(target.template) {
            return failedBeforeSending(
                "/retry sends whole requests again; type “\(TerminalSanitizer.cleanLine(target.command, limit: 60))” again to ask for that part once more."
            )
        }
        // A resumed session reads earlier prompts lazily: fetch this one from the transcript.
        if target.input.isEmpty, let stored = storedPrompt(ofTurn: target.turn) { target = stored }
        let framework: Framework
        do { framework = try prompts.framework(target.framework ?? state.currentFramework) } catch {
            return failedBeforeSending(error.localizedDescription)
        }
        let prefix = target.continues.flatMap { state.output(ofTurn: $0) } ?? ""
        var again = target
        again.follows = nil
        again.retryOf = target.turn
        var request = TurnRequest(again, framework: framework, prefix: prefix, assessment: target.assessment)
        // The same purpose as the attempt it repeats: a plan may be structured, the rest of a draft may not.
        request.structure = promptWriter.structure(
            allowed: request.kind == .plan && target.continues == nil, framework: framework, inputs: request.inputs)
        return await perform(request, base: target.baseVersion.flatMap(state.version), keep: .always, progress: progress)
    }

    /// `/continue`: asks the model to finish the draft the last turn left when it stopped early,
    /// and makes draft plus rest one new version.
    package func continueDraft(progress: @escaping @Sendable (TurnProgress) -> Void) async -> TurnOutcome {
        guard let draft = state.draft else {
            return failedBeforeSending(
                "Nothing to continue: /continue finishes a plan that stopped early, and the last answer did not.")
        }
        return await runTurn(
            command: "/continue", refinement: Refinement(.finish(draft: draft.text), inputs: draft.inputs),
            base: draft.baseVersion.flatMap(state.version), follows: nil, keep: .always, finishing: draft,
            progress: progress)
    }

    /// Whether the proxy at `--endpoint` was seen to drop the structure (``ModelSettings/structured``):
    /// the session then asks for free text.
    var structureDropped = false

    /// Whether an answer starts as a JSON object would, so a free-text plan is not mistaken for broken JSON.
    static func looksLikeJSON(_ text: String) -> Bool {
        text.drop { $0.isWhitespace }.first == "{"
    }

    /// A turn's recorded prompt, read again from the transcript (resume leaves prompts unread).
    private func storedPrompt(ofTurn number: Int) -> TurnStarted? {
        guard let data = try? writer.contents(), let loaded = try? TranscriptReader.parse(data, path: writer.url.path)
        else { return nil }
        for record in loaded.records.reversed() {
            if case .turnStarted(let started) = record, started.turn == number { return started }
        }
        return nil
    }

    /// Records the turn's start, streams it (retrying and timing it out as configured), checks the
    /// answer, and records its end; the plan becomes a version when `keep` allows it.
    private func perform(
        _ request: TurnRequest, base current: PlanVersion?, keep: KeepRule,
        progress: @escaping @Sendable (TurnProgress) -> Void
    ) async -> TurnOutcome {
        let clock = ContinuousClock()
        let started = clock.now
        let settings = client.settings
        let framework = request.framework
        let turn = state.nextTurnNumber
        let record = request.record(turn: turn, at: now(), model: settings.model, maxOutputTokens: settings.maxOutputTokens)
        // A start that cannot be written is kept in memory and the turn goes on: the plan is
        // still shown, and the footer says it is not saved yet.
        var unsaved = append(.turnStarted(record))

        let machine: TurnStateMachine
        if settings.lacksKey {
            // Nothing is sent; the turn is still recorded, so the transcript says why.
            var failed = TurnStateMachine(maxOutputTokens: settings.maxOutputTokens)
            _ = failed.fail(.noKey)
            machine = failed
        } else {
            machine = await streamWithDeadline(request, progress: progress)
        }

        let seconds = started.duration(to: clock.now).seconds
        let answer = read(machine, request: request, progress: progress)
        if answer.structureDropped { structureDropped = true }
        let (status, message, output) = (answer.status, answer.message, answer.output)
        var ended = TurnEnded(
            turn: turn, at: now(), status: status, output: output, usage: machine.usage,
            responseId: machine.responseID, error: message, version: nil, durationMs: Int(seconds * 1000),
            streamed: machine.isStreamed ? nil : false)
        // What the answer is decides how it is judged, kept and numbered: one product per kind.
        var verdict = ProductVerdict()
        if status == .completed {
            verdict = request.kind.product.judge(
                ProductContext(output: output, request: request, keep: keep, base: current, state: state), into: &ended)
            if let notice = verdict.notice { progress(.notice(notice)) }
        }
        unsaved = append(.turnEnded(ended)) ?? unsaved
        var outcome = TurnOutcome(ended: ended)
        outcome.kind = request.kind
        outcome.unfittingStructure = answer.unfitting
        outcome.assessmentProblems = ended.kept == false ? [] : verdict.problems
        outcome.framework = framework.name
        outcome.problems = ended.check?.problems.map(framework.describe) ?? []
        outcome.quotes = verdict.quotes
        outcome.sourceCuts = request.sourceCuts
        outcome.notes = ended.check?.contentProblems.map(framework.describe) ?? []
        outcome.advice = ended.check?.advice.map(framework.describe) ?? []
        outcome.current = state.currentVersion
        outcome.keepNote = verdict.keepNote
        // Written later with the next change is not written now: the turn is not saved until then.
        outcome.notSaved =
            writer.pendingCount > 0
            ? (unsaved ?? StoreError.notSaved(path: writer.url.path, reason: "an earlier change is still unwritten")).errorDescription : nil
        return outcome
    }

    /// A turn that never went out (a broken template, no key, a disk that cannot be written).
    private func failedBeforeSending(_ message: String?) -> TurnOutcome {
        var outcome = TurnOutcome(notSent: message)
        outcome.current = state.currentVersion
        return outcome
    }

    /// Moves back to the version the current one was made from, and records it (in memory until
    /// it can be written, when the disk is full; ``unsavedRecords`` says so).
    /// - Throws: ``SessionError`` when there is nothing to undo.
    @discardableResult
    package func undo() throws -> PlanVersion {
        guard let from = state.currentVersion else { throw SessionError("There is no plan yet, so nothing to undo.") }
        guard let to = state.undoTarget, let target = state.version(to) else {
            if let draft = state.current?.draft {
                throw SessionError("Nothing to undo: v\(from) is the first plan (it replaced its draft v\(draft), which /show \(draft) prints).")
            }
            throw SessionError("Nothing to undo: v\(from) is the first version.")
        }
        append(.undo(UndoRecord(at: now(), from: from, to: to, lesson: state.current?.lesson)))
        return target
    }

    /// `/switch N` and `/fork N`: makes version N current, so the next command revises it and its plan starts (or
    /// goes on along) N's branch; recorded as a move of the current version with the command as typed.
    /// - Throws: ``SessionError`` for a version that does not exist, is current already, or is another lesson's.
    package func switchTo(_ number: Int, command: String) throws -> PlanVersion {
        guard let from = state.currentVersion else { throw SessionError("There is no plan yet; type /generate first.") }
        guard let target = state.version(number) else {
            throw SessionError("There is no v\(number); /history lists the versions (v1 to v\(state.versions.count)).")
        }
        guard number != from else { throw SessionError("v\(number) is the current version already.") }
        if state.unit != nil, target.lesson != state.current?.lesson {
            throw SessionError("v\(number) is a version of lesson \(target.lesson ?? 0); /lesson \(target.lesson ?? 0) opens that lesson first.")
        }
        append(.undo(UndoRecord(at: now(), from: from, to: number, lesson: target.lesson, command: command)))
        return target
    }

    /// Records a plan the teacher edited by hand as a new version; unchanged text makes none.
    /// - Returns: the new version, or nil when the text did not change.
    /// - Throws: ``SessionError`` without a plan. A record that cannot be written is kept in memory.
    @discardableResult
    package func handEdit(_ text: String, command: String = "/edit") throws -> PlanVersion? {
        guard let current = state.current else { throw SessionError("There is no plan to edit yet; type /generate first.") }
        guard text != current.text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        let number = state.nextNumber(of: .plan)
        let report = try? framework(of: current).check(
            text, lessonMinutes: current.inputs.minutes, topic: current.inputs.topic, grade: current.inputs.grade)
        append(
            .handEdit(
                HandEditRecord(
                    at: now(), command: command, baseVersion: current.number, version: number, text: text, check: report,
                    lesson: current.lesson)))
        return state.current
    }

    /// Saves whether a plan with problems is repaired once automatically, so `resume` and `replay --rerun` honour it.
    /// Saves parallel forms of a quiz: only their number and seed, from which they are made again.
    package func addForms(_ forms: Int, of quiz: Int, seed: UInt64) {
        append(.forms(FormsRecord(at: now(), quiz: quiz, forms: forms, seed: seed)))
    }

    /// Ties the session to a class from here on: its names go out as pseudonyms, and the transcript says which class.
    package func tie(to roster: ClassRoster, map: NameMap) {
        client.names.set(roster: roster, map: map)
        append(.setting(SettingRecord(at: now(), repair: nil, className: roster.name)))
    }

    package func setAutomaticRepair(_ on: Bool) {
        guard state.automaticRepair != on else { return }
        append(.setting(SettingRecord(at: now(), repair: on)))
    }

    /// Names the session; names are unique across sessions.
    ///
    /// The name is taken under the store's name lock and only once it is on disk, after
    /// anything still unwritten: a name kept only in memory could be taken by another session.
    /// - Throws: ``StoreError`` for a bad or taken name, or one that cannot be written.
    package func rename(_ text: String) throws(StoreError) {
        let name = try SessionStore.validName(text)
        let record = TranscriptRecord.named(NameRecord(at: now(), name: name))
        let id = state.header.id
        try store.withNameLock { [writer, store] () throws(StoreError) in
            try store.ensureNameFree(name, except: id)
            try writer.append(record)
        }
        state.apply(record)
        store.writeSummary(SessionSummary(state: state, transcriptBytes: writer.size, damaged: damaged), beside: writer.url)
    }

    /// How many changes are kept in memory because they could not be written (a full disk).
    package var unsavedRecords: Int { writer.pendingCount }

    /// Why the changes kept in memory could not be written; nil when everything is on disk.
    package private(set) var saveProblem: StoreError?

    /// `/save`: writes the changes kept in memory.
    /// - Returns: how many were written.
    /// - Throws: ``StoreError/notSaved(path:reason:)`` when they still cannot be written.
    @discardableResult
    package func save() throws(StoreError) -> Int {
        let written: Int
        do { written = try writer.flushPending() } catch {
            saveProblem = error
            throw error
        }
        saveProblem = nil
        if written > 0 { store.writeSummary(SessionSummary(state: state, transcriptBytes: writer.size, damaged: damaged), beside: writer.url) }
        return written
    }

    /// Appends a record (or keeps it in memory when it cannot be written), applies it, and
    /// refreshes the session's summary once everything is on disk.
    /// - Returns: why the record is not on disk yet, or nil.
    @discardableResult
    func append(_ record: TranscriptRecord) -> StoreError? {
        let problem = writer.appendOrKeep(record)
        saveProblem = writer.pendingCount == 0 ? nil : problem ?? saveProblem
        state.apply(record)
        // The summary describes the file; while records wait in memory it would claim too much.
        if writer.pendingCount == 0 {
            store.writeSummary(SessionSummary(state: state, transcriptBytes: writer.size, damaged: damaged), beside: writer.url)
        }
        return problem
    }
}
