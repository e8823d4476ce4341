import Foundation
import LessonPlanCore
import LessonPlanModel

// A turn on the wire: the answer streamed into the turn state machine, retried and timed out as the settings
// say on the engine's injected clocks, then read (a structured answer rendered) for the product to judge.
/// What a finished attempt's answer is, as ``SessionEngine/read(_:request:progress:)`` reads it.
struct ReadAnswer {
    var status: TurnStatus
    /// The one sentence for anything but a completed answer.
    var message: String?
    /// The text: the structure rendered around a structured answer's JSON, after the draft a `/continue` finishes.
    var output: String
    /// A structured answer that was not the JSON asked for (the turn failed; a follow-up may ask in free text).
    var unfitting = false
    /// The proxy at `--endpoint` dropped the structure and the answer came as free text: the session asks for
    /// free text from now on.
    var structureDropped = false
}

extension SessionEngine {
    /// What a finished attempt's answer is: its status, its one sentence, and its text. Changes nothing.
    func read(
        _ machine: TurnStateMachine, request: TurnRequest, progress: @escaping @Sendable (TurnProgress) -> Void
    ) -> ReadAnswer {
        let settings = client.settings
        var status: TurnStatus
        if case .finished(let finished) = machine.state { status = finished } else { status = .failed }
        // Through a proxy, an output limit may be the proxy's own, which the sentence then says.
        let failure = settings.endpoint == nil ? machine.failure : machine.failure?.throughProxy
        var message = status == .cancelled ? "Cancelled; the plan is unchanged." : failure?.errorDescription
        // Without a key, trying again changes nothing: the sentence names the session to resume once it is set.
        if failure == .noKey { message = SessionAdvice.noKey(in: state) }
        var output = request.prefix + machine.text
        var unfitting = false
        var dropped = false
        if let structure = request.structure, status == .completed || status == .incomplete {
            // The answer is the parts as JSON: the plan is what the tool renders from them. An answer
            // that is not such JSON fails the turn; its text stays in the transcript as it came.
            do throws(StructuredPlanError) {
                output = try structure.render(json: machine.text)
                status = .completed
                message = nil
                progress(.text(output))
            } catch {
                if status == .completed, settings.endpoint != nil, !Self.looksLikeJSON(machine.text) {
                    // A proxy that forwards only some fields (the seed's worker) dropped the schema: the
                    // answer is a free-text plan, read as one, and the session goes on in free text.
                    if !structureDropped {
                        progress(
                            .notice(
                                "The proxy at --endpoint did not pass the plan's structure (the request's text field) on to the model, so the answer came as free text; it is read as free text, and the rest of the session asks for free text."
                            ))
                    }
                    dropped = true
                    progress(.text(output))
                } else {
                    message = (status == .incomplete ? StructuredPlanError.cutShort : error).errorDescription
                    status = .failed
                    unfitting = true
                }
            }
        }
        if let splice = request.splice, status == .completed {
            // The answer is one part (a section, a quiz item, a rubric row): the whole is the one sent with that
            // part replaced, the rest byte for byte.
            switch splice.whole(with: machine.text) {
            case .success(let whole): output = whole
            case .failure(let refusal):
                status = .failed
                message = refusal.sentence
            }
        }
        if let overview = request.overview, status == .completed {
            // An overview's JSON written back into its layout; an answer that is no JSON object stays as it came,
            // for the overview's check to name what is missing and its one repair to ask again.
            if let rendered = try? overview.render(json: machine.text) { output = rendered }
        }
        return ReadAnswer(status: status, message: message, output: output, unfitting: unfitting, structureDropped: dropped)
    }

    /// Streams the turn in a child task that a timer cancels at the total deadline; cancelling
    /// the caller (Ctrl-C) cancels the child too.
    func streamWithDeadline(_ request: TurnRequest, progress: @escaping @Sendable (TurnProgress) -> Void) async
        -> TurnStateMachine
    {
        let deadline = client.settings.deadline
        let overrun = DeadlineFlag()
        let work = Task { await self.stream(request, overrun: overrun, progress: progress) }
        let clock = timerClock
        let timer = Task {
            try await clock.sleep(seconds: deadline)
            overrun.set()
            work.cancel()
        }
        // The offline model on a busy machine can take minutes: say why, and what the teacher can do, once.
        let slow = client.settings.slowNotice.map { after in
            Task {
                try await clock.sleep(seconds: after)
                progress(.notice(SlowTurn.notice(after: after, load: SlowTurn.loadAverage(), cores: SlowTurn.cores())))
            }
        }
        let machine = await withTaskCancellationHandler {
            await work.value
        } onCancel: {
            work.cancel()
        }
        timer.cancel()
        slow?.cancel()
        return machine
    }

    /// Sends the request and reads the answer into a turn state machine, retrying failures that
    /// come before any text as the policy allows.
    func stream(_ request: TurnRequest, overrun: DeadlineFlag, progress: @escaping @Sendable (TurnProgress) -> Void)
        async -> TurnStateMachine
    {
        let settings = client.settings
        var machine = TurnStateMachine(maxOutputTokens: settings.maxOutputTokens)
        machine.send()
        // A structured answer is JSON: the plan rendered from it is shown once it is complete; until then
        // the waiting line counts what has come.
        var received = 0
        func show(_ text: String) {
            if request.structure == nil, request.overview == nil {
                progress(.text(text))
            } else {
                received += text.count
                progress(.received(characters: received))
            }
        }
        func stopped() -> TurnStateMachine {
            _ = overrun.isSet ? machine.fail(.deadline(seconds: settings.deadline)) : machine.cancel()
            return machine
        }
        while true {
            progress(.waiting)
            let failure: RequestFailure
            do {
                let answer = try await client.open(
                    instructions: request.instructions, input: request.input,
                    schema: TurnPrompt.schema(structure: request.structure, overview: request.overview, api: settings.api))
                machine.isStreamed = answer.isStreamed
                var events = answer.makeAsyncIterator()
                // Text is handed on once per network read, not once per delta, so a fast stream
                // costs one terminal write per chunk while the first token still shows at once.
                var batch = ""
                while let event = try await events.next() {
                    switch machine.receive(event) {
                    case .show(let text): batch += text
                    case .warn(let message): progress(.notice(message))
                    case .none, .finish, .retry: break
                    }
                    if !batch.isEmpty, !events.hasBufferedEvents || machine.isFinished {
                        show(batch)
                        batch = ""
                    }
                    if machine.isFinished { break }
                }
                if !batch.isEmpty { show(batch) }
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
            let action = machine.attemptFailed(
                failure, policy: settings.retryPolicy, now: retryClock.now(), randomFraction: retryClock.randomFraction())
            guard case .retry(let wait) = action else { return machine }
            progress(.retrying(wait))
            do { try await retryClock.sleep(seconds: wait.seconds) } catch { return stopped() }
            if Task.isCancelled { return stopped() }
            machine.restart()
        }
    }
}
