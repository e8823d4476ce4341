import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanModel
import TestSupport
import Testing

/// A line of one or two words that is talk, not an instruction, is never sent unasked; instructions are.
@Suite struct SmallTalkTests {
    @Test(arguments: [
        "thanks", "Thanks!", "thank you", "ok", "OK thanks", "hello", "hi there", "ls", "ls -la", "git status",
        "pwd", "yes", "good morning", "hmm",
    ])
    func talkAndShellWordsAreSmallTalk(line: String) {
        #expect(SmallTalk.matches(line))
    }

    @Test(arguments: [
        "shorter", "more hands-on", "simpler", "add homework", "no homework", "thanks, now add a game",
        "make it more hands-on", "/revise thanks", "Spanish version", "think-pair-share", "30 minutes",
    ])
    func instructionsAreNot(line: String) {
        #expect(!SmallTalk.matches(line))
    }

    func session(_ place: CommandPlace, answers: [Bool] = []) async throws -> (TemporaryHome, ScriptedTransport, RecordingHost, CommandRunner) {
        let home = try TemporaryHome()
        let transport = ScriptedTransport.passingPlans()
        let settings = ModelSettings(
            baseURL: try #require(URL(string: "http://127.0.0.1:9/v1")), apiKey: "sk-test-runner", model: "gpt-5.2",
            retryPolicy: RetryPolicy(maxRetries: 0))
        let engine = try SessionEngine(
            newSessionWith: LessonInputs(grade: .sixTo8, topic: "Tides", minutes: 45), name: nil, store: home.store,
            prompts: .builtIn, client: ModelClient(transport: transport, settings: settings), toolVersion: "test")
        let host = RecordingHost(place: place, workingDirectory: home.url, answers: answers)
        let runner = CommandRunner(engine: engine, host: host, settings: SessionSettings())
        _ = await runner.run("/generate")
        return (home, transport, host, runner)
    }

    @Test func aTerminalIsAskedAndNoSendsNothingYesSendsARevision() async throws {
        let (home, transport, host, runner) = try await session(.terminal, answers: [false, true])
        defer { home.remove() }
        #expect(await runner.run("thanks").status == .done)
        #expect(host.questions == ["Send “thanks” to the model as a revision? [y/N] "])
        #expect(host.notes.last == "Not sent.")
        #expect(transport.requests.count == 1)
        #expect(await runner.run("ok").status == .done)
        #expect(transport.requests.count == 2)
        #expect(await runner.engine.state.turns.last?.started.command == "/revise ok")
        #expect(runner.exitStatus == 0)
    }

    @Test(arguments: [CommandPlace.script, .then])
    func aScriptIsRefusedWithASentence(place: CommandPlace) async throws {
        let (home, transport, host, runner) = try await session(place)
        defer { home.remove() }
        #expect(await runner.run("thanks").status == .failed)
        #expect(host.errors.last == "thanks: not sent: it does not read as a change to the plan; write /revise thanks to send it.")
        #expect(host.questions.isEmpty)
        #expect(transport.requests.count == 1)
        #expect(runner.exitStatus == 1)
        #expect(CommandRunner.precheck(["ls", "shorter"], place: place).count == 1)
        #expect(await runner.run("shorter").status == .done)
        #expect(transport.requests.count == 2)
    }

    @Test func clearAndClsClearTheScreenAndSendNothing() async throws {
        let (home, transport, host, runner) = try await session(.terminal)
        defer { home.remove() }
        #expect(await runner.run("clear").status == .done)
        #expect(await runner.run("CLS").status == .done)
        #expect(host.clears == 2)
        #expect(host.questions.isEmpty)
        #expect(transport.requests.count == 1)
    }
}
