import Foundation

/// What the REPL hears while a turn runs.
public enum TurnProgress: Sendable, Equatable {
    /// The request is out; nothing has come back yet.
    case waiting
    /// More plan text to show.
    case text(String)
    /// Something worth one line on stderr that does not end the turn.
    case notice(String)
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

    /// Warnings from reading the transcript when it was resumed (a torn last line, say).
    public nonisolated let openingWarnings: [String]

    /// Starts a new session and writes its header.
    /// - Throws: ``StoreError`` when the data directory or transcript cannot be written.
    public init(
        newSessionWith inputs: LessonInputs, name: String?, store: SessionStore, prompts: PromptLibrary,
        client: ModelClient, toolVersion: String, now: @escaping @Sendable () -> Date = Date.init
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
        self.openingWarnings = []
        store.writeSummary(SessionSummary(state: state, transcriptBytes: writer.size))
    }

    /// Reopens a saved session for more turns, locking it against other processes.
    ///
    /// Earlier turns' prompts are not kept (``TranscriptReader/Prompts/skipped``): a session
    /// goes on from its versions, and they are most of a long transcript's bytes.
    /// - Throws: ``StoreError`` for a locked, missing, newer-format or non-transcript file.
    public init(
        resuming url: URL, store: SessionStore, prompts: PromptLibrary, client: ModelClient,
        now: @escaping @Sendable () -> Date = Date.init
    ) throws(StoreError) {
        let writer = try TranscriptWriter(url: url)
        let loaded = try TranscriptReader.read(url, prompts: .skipped)
        guard let state = TranscriptReader.state(of: loaded) else { throw .notATranscript(path: url.path) }
        self.writer = writer
        self.state = state
        self.store = store
        self.prompts = prompts
        self.client = client
        self.now = now
        self.openingWarnings = loaded.warnings
    }

    /// Runs one request to the model and records it, whatever happens.
    ///
    /// Cancelling the calling task cancels the request; the turn is then recorded as cancelled
    /// and the current version stays as it was.
    public func run(
        command: String, refinement: Refinement, progress: @Sendable (TurnProgress) -> Void
    ) async -> TurnOutcome {
        let clock = ContinuousClock()
        let started = clock.now
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
        if client.settings.endpoint == nil, (client.settings.apiKey ?? "").isEmpty {
            return TurnOutcome(
                status: .failed, version: nil, usage: nil, seconds: 0, message: ModelError.noKey.errorDescription,
                text: "")
        }
        let turn = state.nextTurnNumber
        let record = TurnStarted(
            turn: turn, at: now(), command: command, template: refinement.template, inputs: refinement.inputs,
            baseVersion: current?.number, model: client.settings.model, instructions: instructions, input: input,
            maxOutputTokens: client.settings.maxOutputTokens)
        do { try append(.turnStarted(record)) } catch {
            return TurnOutcome(
                status: .failed, version: nil, usage: nil, seconds: 0, message: error.localizedDescription, text: "")
        }

        var machine = TurnStateMachine(maxOutputTokens: client.settings.maxOutputTokens)
        machine.send()
        progress(.waiting)
        do {
            var events = try await client.open(instructions: instructions, input: input).makeAsyncIterator()
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
            if Task.isCancelled {
                _ = machine.cancel()
            } else {
                _ = machine.endOfStream()
            }
        } catch let error as ModelError {
            _ = Task.isCancelled ? machine.cancel() : machine.fail(error)
        } catch {
            _ = machine.cancel()
        }

        let status: TurnStatus
        if case .finished(let finished) = machine.state { status = finished } else { status = .failed }
        let seconds = started.duration(to: clock.now).seconds
        let version = status == .completed ? state.versions.count + 1 : nil
        let message = status == .cancelled ? "Cancelled; the plan is unchanged." : machine.failure?.errorDescription
        let ended = TurnEnded(
            turn: turn, at: now(), status: status, output: machine.text, usage: machine.usage,
            responseId: machine.responseID, error: message, version: version, durationMs: Int(seconds * 1000))
        do { try append(.turnEnded(ended)) } catch {
            return TurnOutcome(
                status: .failed, version: nil, usage: machine.usage, seconds: seconds,
                message: error.localizedDescription, text: machine.text)
        }
        return TurnOutcome(
            status: status, version: version, usage: machine.usage, seconds: seconds, message: message,
            text: machine.text)
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

    /// Records a plan the teacher edited by hand as a new version; unchanged text makes none.
    /// - Returns: the new version, or nil when the text did not change.
    /// - Throws: ``CommandError`` without a plan, ``StoreError`` when it cannot be saved.
    @discardableResult
    public func handEdit(_ text: String, command: String = "/edit") throws -> PlanVersion? {
        guard let current = state.current else { throw CommandError("There is no plan to edit yet; type /generate first.") }
        guard text != current.text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        let number = state.versions.count + 1
        try append(
            .handEdit(HandEditRecord(at: now(), command: command, baseVersion: current.number, version: number, text: text)))
        return state.current
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
