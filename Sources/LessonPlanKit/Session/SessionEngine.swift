import Foundation
import Synchronization

/// What the REPL hears while a turn runs.
public enum TurnProgress: Sendable, Equatable {
    /// The request is out; nothing has come back yet.
    case waiting
    /// More plan text to show.
    case text(String)
    /// Something worth one line on stderr that does not end the turn.
    case notice(String)
    /// The attempt failed before any text; the same request goes out again after this wait.
    case retrying(RetryWait)
}

/// How a turn ended, for the footer and the exit status of the one-shot form.
public struct TurnOutcome: Sendable, Equatable {
    public var status: TurnStatus
    /// The version the turn created, if it completed.
    public var version: Int?
    public var usage: Usage?
    public var seconds: Double
    /// The one-sentence reason for anything but `completed`.
    public var message: String?
    /// The answer text received (partial unless completed).
    public var text: String
}

/// One session: its transcript on disk, its state, and the turns that change it.
///
/// Every change is appended to the transcript and flushed before it is applied to the state,
/// so what the user sees is always what a resumed session will show.
public actor SessionEngine {
    public private(set) var state: SessionState
    public let prompts: PromptLibrary
    public let client: ModelClient
    let store: SessionStore
    let writer: TranscriptWriter
    let now: @Sendable () -> Date
    /// Time, waiting and jitter for retries; a test passes one that does not really sleep.
    let retryClock: any RetryClock

    /// Warnings from reading the transcript when it was resumed (a torn last line, say).
    public let openingWarnings: [String]

    /// Starts a new session and writes its header.
    /// - Throws: ``StoreError`` when the data directory or transcript cannot be written.
    public init(
        newSessionWith inputs: LessonInputs, name: String?, store: SessionStore, prompts: PromptLibrary,
        client: ModelClient, toolVersion: String, now: @escaping @Sendable () -> Date = Date.init,
        retryClock: any RetryClock = SystemRetryClock()
    ) throws(StoreError) {
        try store.directory.prepare()
        if let name { try store.ensureNameFree(name, except: "") }
        let header = SessionHeader(
            id: SessionStore.newID(), created: now(), inputs: inputs, model: client.settings.model,
            baseUrl: client.settings.redactedBaseURL, name: name, toolVersion: toolVersion)
        let writer = try TranscriptWriter(url: store.directory.transcript(id: header.id))
        try writer.append(.header(header))
        self.writer = writer
        self.state = SessionState(header: header)
        self.store = store
        self.prompts = prompts
        self.client = client
        self.now = now
        self.retryClock = retryClock
        self.openingWarnings = []
        store.writeSummary(SessionSummary(state: state, transcriptBytes: writer.size))
    }

    /// Reopens a saved session for more turns, locking it against other processes.
    /// - Throws: ``StoreError`` for a locked, missing, newer-format or non-transcript file.
    public init(
        resuming url: URL, store: SessionStore, prompts: PromptLibrary, client: ModelClient,
        now: @escaping @Sendable () -> Date = Date.init, retryClock: any RetryClock = SystemRetryClock()
    ) throws(StoreError) {
        let writer = try TranscriptWriter(url: url)
        let loaded = try TranscriptReader.read(url)
        guard let state = TranscriptReader.state(of: loaded) else { throw .notATranscript(path: url.path) }
        self.writer = writer
        self.state = state
        self.store = store
        self.prompts = prompts
        self.client = client
        self.now = now
        self.retryClock = retryClock
        self.openingWarnings = loaded.warnings
    }

    /// Runs one request to the model and records it, whatever happens.
    ///
    /// A failure before any text is shown is retried as ``ModelSettings/retryPolicy`` says, each
    /// wait reported as ``TurnProgress/retrying(_:)``; once text has been shown nothing is retried.
    /// The whole turn, waits included, is stopped at ``ModelSettings/deadline``. Cancelling the
    /// calling task cancels the request or the wait; the turn is then recorded as cancelled and
    /// the current version stays as it was.
    public func run(
        command: String, refinement: Refinement, progress: @escaping @Sendable (TurnProgress) -> Void
    ) async -> TurnOutcome {
        let current = refinement.isGeneration ? nil : state.current
        let instructions: String
        let input: String
        do {
            instructions = try prompts.render("instructions", values: [:])
            input = try prompts.render(
                refinement.template,
                values: refinement.promptValues(currentPlan: current?.text, currentInputs: current?.inputs))
        } catch {
            return TurnOutcome(
                status: .failed, version: nil, usage: nil, seconds: 0, message: error.localizedDescription, text: "")
        }
        return await perform(
            TurnRequest(
                command: command, template: refinement.template, inputs: refinement.inputs,
                baseVersion: current?.number, instructions: instructions, input: input),
            progress: progress)
    }

    /// `/retry`: sends the last request that did not complete again, built from the same plan
    /// version with the same prompt, and records it as a new turn with `retry_of`.
    public func retry(progress: @escaping @Sendable (TurnProgress) -> Void) async -> TurnOutcome {
        guard let target = state.retryTarget else {
            return TurnOutcome(
                status: .failed, version: nil, usage: nil, seconds: 0,
                message: "Nothing to retry: the last request completed (or none was sent yet).", text: "")
        }
        let prefix = target.continues.flatMap { state.output(ofTurn: $0) } ?? ""
        return await perform(
            TurnRequest(
                command: target.command, template: target.template, inputs: target.inputs,
                baseVersion: target.baseVersion, instructions: target.instructions, input: target.input,
                retryOf: target.turn, continues: target.continues, prefix: prefix),
            progress: progress)
    }

    /// `/continue`: asks the model to finish the draft the last turn left when it stopped early,
    /// and makes draft plus rest one new version.
    public func continueDraft(progress: @escaping @Sendable (TurnProgress) -> Void) async -> TurnOutcome {
        guard let draft = state.draft else {
            return TurnOutcome(
                status: .failed, version: nil, usage: nil, seconds: 0,
                message: "Nothing to continue: /continue finishes a plan that stopped early, and the last answer did not.",
                text: "")
        }
        let refinement = Refinement(template: "continue", inputs: draft.inputs, values: ["draft": draft.text])
        let instructions: String
        let input: String
        do {
            instructions = try prompts.render("instructions", values: [:])
            input = try prompts.render(
                "continue", values: refinement.promptValues(currentPlan: nil, currentInputs: draft.inputs))
        } catch {
            return TurnOutcome(
                status: .failed, version: nil, usage: nil, seconds: 0, message: error.localizedDescription, text: "")
        }
        return await perform(
            TurnRequest(
                command: "/continue", template: "continue", inputs: draft.inputs, baseVersion: draft.baseVersion,
                instructions: instructions, input: input, continues: draft.turn, prefix: draft.text),
            progress: progress)
    }

    /// Records the turn's start, streams it (retrying and timing it out as configured), and
    /// records its end.
    private func perform(_ request: TurnRequest, progress: @escaping @Sendable (TurnProgress) -> Void) async -> TurnOutcome {
        let clock = ContinuousClock()
        let started = clock.now
        let settings = client.settings
        let turn = state.nextTurnNumber
        let record = TurnStarted(
            turn: turn, at: now(), command: request.command, template: request.template, inputs: request.inputs,
            baseVersion: request.baseVersion, model: settings.model, instructions: request.instructions,
            input: request.input, maxOutputTokens: settings.maxOutputTokens, retryOf: request.retryOf,
            continues: request.continues)
        do { try append(.turnStarted(record)) } catch {
            return TurnOutcome(
                status: .failed, version: nil, usage: nil, seconds: 0, message: error.localizedDescription, text: "")
        }

        let machine: TurnStateMachine
        if settings.requiresKey, (settings.apiKey ?? "").isEmpty {
            // Nothing is sent; the turn is still recorded, so the transcript says why.
            var failed = TurnStateMachine(maxOutputTokens: settings.maxOutputTokens)
            _ = failed.fail(.noKey)
            machine = failed
        } else {
            machine = await streamWithDeadline(request, progress: progress)
        }

        let status: TurnStatus
        if case .finished(let finished) = machine.state { status = finished } else { status = .failed }
        let seconds = started.duration(to: clock.now).seconds
        let version = status == .completed ? state.versions.count + 1 : nil
        let message = status == .cancelled ? "Cancelled; the plan is unchanged." : machine.failure?.errorDescription
        let output = request.prefix + machine.text
        let ended = TurnEnded(
            turn: turn, at: now(), status: status, output: output, usage: machine.usage,
            responseId: machine.responseID, error: message, version: version, durationMs: Int(seconds * 1000))
        do { try append(.turnEnded(ended)) } catch {
            return TurnOutcome(
                status: .failed, version: nil, usage: machine.usage, seconds: seconds,
                message: error.localizedDescription, text: output)
        }
        return TurnOutcome(
            status: status, version: version, usage: machine.usage, seconds: seconds, message: message, text: output)
    }

    /// Streams the turn in a child task that a timer cancels at the total deadline; cancelling
    /// the caller (Ctrl-C) cancels the child too.
    private func streamWithDeadline(_ request: TurnRequest, progress: @escaping @Sendable (TurnProgress) -> Void) async
        -> TurnStateMachine
    {
        let deadline = client.settings.deadline
        let overrun = DeadlineFlag()
        let work = Task { await self.stream(request, overrun: overrun, progress: progress) }
        let timer = Task {
            try await Task.sleep(for: .milliseconds(Int(deadline * 1000)))
            overrun.set()
            work.cancel()
        }
        let machine = await withTaskCancellationHandler {
            await work.value
        } onCancel: {
            work.cancel()
        }
        timer.cancel()
        return machine
    }

    /// Sends the request and reads the answer into a turn state machine, retrying failures that
    /// come before any text as the policy allows.
    private func stream(_ request: TurnRequest, overrun: DeadlineFlag, progress: @escaping @Sendable (TurnProgress) -> Void)
        async -> TurnStateMachine
    {
        let settings = client.settings
        var machine = TurnStateMachine(maxOutputTokens: settings.maxOutputTokens)
        machine.send()
        func stopped() -> TurnStateMachine {
            _ = overrun.isSet ? machine.fail(.deadline(seconds: settings.deadline)) : machine.cancel()
            return machine
        }
        var retries = 0
        while true {
            progress(.waiting)
            let failure: RequestFailure
            do {
                var events = try await client.open(instructions: request.instructions, input: request.input)
                    .makeAsyncIterator()
                // Text is handed on once per network read, not once per delta, so a fast stream
                // costs one terminal write per chunk while the first token still shows at once.
                var batch = ""
                while let event = try await events.next() {
                    switch machine.receive(event) {
                    case .show(let text): batch += text
                    case .warn(let message): progress(.notice(message))
                    case .none, .finish: break
                    }
                    if !batch.isEmpty, !events.hasBufferedEvents || machine.isFinished {
                        progress(.text(batch))
                        batch = ""
                    }
                    if machine.isFinished { break }
                }
                if !batch.isEmpty { progress(.text(batch)) }
                if Task.isCancelled { return stopped() }
                if machine.isFinished { return machine }
                failure = RequestFailure(.cutOff)
            } catch let error as RequestFailure {
                failure = error
            } catch let error as ModelError {
                failure = RequestFailure(error)
            } catch {
                return stopped()
            }
            if Task.isCancelled { return stopped() }
            // Once text is on screen a retry would show it twice: the turn fails, /retry is the way.
            guard !machine.hasShownText else {
                _ = machine.fail(failure.error)
                return machine
            }
            let decision = settings.retryPolicy.decide(
                after: failure, retriesSoFar: retries, now: retryClock.now(),
                randomFraction: retryClock.randomFraction())
            guard case .retry(let wait) = decision else {
                _ = machine.fail(failure.error)
                return machine
            }
            progress(.retrying(wait))
            do { try await retryClock.sleep(seconds: wait.seconds) } catch { return stopped() }
            if Task.isCancelled { return stopped() }
            retries += 1
            machine.restart()
        }
    }

    /// Moves back to the version the current one was made from, and records it.
    /// - Throws: ``CommandError`` when there is nothing to undo, ``StoreError`` when it cannot be saved.
    @discardableResult
    public func undo() throws -> PlanVersion {
        guard let from = state.currentVersion else { throw CommandError("There is no plan yet, so nothing to undo.") }
        guard let to = state.undoTarget, let target = state.version(to) else {
            throw CommandError("Nothing to undo: v\(from) is the first version.")
        }
        try append(.undo(UndoRecord(at: now(), from: from, to: to)))
        return target
    }

    /// Names the session; names are unique across sessions.
    /// - Throws: ``StoreError`` for a bad or taken name.
    public func rename(_ text: String) throws(StoreError) {
        let name = try SessionStore.validName(text)
        try store.ensureNameFree(name, except: state.header.id)
        try append(.named(NameRecord(at: now(), name: name)))
    }

    /// Appends a record, applies it, and refreshes the session's summary.
    private func append(_ record: TranscriptRecord) throws(StoreError) {
        try writer.append(record)
        state.apply(record)
        store.writeSummary(SessionSummary(state: state, transcriptBytes: writer.size))
    }
}

extension Duration {
    /// The duration in seconds as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// Everything one turn sends, however it was asked for (a command, `/retry`, `/continue`).
struct TurnRequest: Sendable {
    var command: String
    var template: String
    var inputs: LessonInputs
    var baseVersion: Int?
    var instructions: String
    var input: String
    var retryOf: Int? = nil
    var continues: Int? = nil
    /// Text already written that this turn's answer continues; the turn's output starts with it.
    var prefix: String = ""
}

/// Set by the deadline timer before it cancels the turn, so the cancellation reads as a timeout.
final class DeadlineFlag: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
}
