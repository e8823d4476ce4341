import Foundation
import Testing
import TestSupport

/// The REPL in a real terminal (tmux, an interactive bash with job control): the editor, pastes,
/// Ctrl-C and a piped stdout, as a teacher meets them.
@Suite(.serialized) struct TerminalEndToEndTests {
    struct Setup {
        let server: FakeOpenAIServer
        let binary: LessonplanBinary
        let terminal: TerminalSession
        let temporary: URL
        /// The command that starts a session on Tides at the shell prompt.
        var start: String { "'\(binary.url.path)' --grade 4 --topic Tides --minutes 30" }
    }

    func setUp(_ extra: [String: String] = [:]) async throws -> Setup {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        let temporary = binary.home.appending(path: "tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        var environment = binary.environment
        environment["TERM"] = "screen"
        environment["TMPDIR"] = temporary.path
        environment.merge(extra) { $1 }
        return Setup(server: server, binary: binary, terminal: try TerminalSession(environment: environment), temporary: temporary)
    }

    /// A session on Tides started at the shell prompt, its first plan shown; cleaned up afterwards.
    func inSession(_ extra: [String: String] = [:], _ body: (Setup, TerminalSession) async throws -> Void) async throws {
        let setup = try await setUp(extra)
        defer {
            setup.terminal.close()
            setup.binary.removeHome()
        }
        try setup.terminal.type(setup.start)
        try await setup.terminal.waitFor("v1]>")
        try await body(setup, setup.terminal)
    }

    @Test func editWithTheDefaultViGetsTheTerminalSurvivesCtrlCAndCleansUp() async throws {
        try await inSession() { setup, terminal in
            try terminal.type("/edit")
            try await terminal.waitFor("plan-v1.txt")
            // The editor is in the foreground, not stopped (T), and its copy of the plan is private.
            let processes = try terminal.processes()
            let editor = try #require(processes.split(separator: "\n").first { $0.hasSuffix(" vi") || $0.contains("vim") })
            #expect(!editor.contains(" T"), "\(processes)")
            let folder = try #require(try FileManager.default.contentsOfDirectory(at: setup.temporary, includingPropertiesForKeys: nil).first)
            #expect(try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int == 0o700)
            let copy = folder.appending(path: "plan-v1.txt")
            #expect(try FileManager.default.attributesOfItem(atPath: copy.path)[.posixPermissions] as? Int == 0o600)

            // Ctrl-C belongs to the editor: the session must still be there afterwards.
            try terminal.keys("C-c")
            try await Task.sleep(for: .milliseconds(300))
            try terminal.keys("G", "o")
            try terminal.type("A line the teacher added.", enter: false)
            try terminal.keys("Escape")
            try terminal.type(":wq")
            let screen = try await terminal.waitFor("v2]>")
            #expect(screen.contains("Saved your edit as v2 (from v1)"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: setup.temporary.path).isEmpty)
            try terminal.type("/show")
            try await terminal.waitFor("A line the teacher added.")
            try terminal.type("/quit")
            let end = try await terminal.waitFor("continues it.")
            #expect(!end.contains("command not found"), "no terminal replies leak into the shell")
        }
    }

    @Test func aMissingEditorGetsASentence() async throws {
        try await inSession(["EDITOR": "nanoo"]) { setup, terminal in
            try terminal.type("/edit")
            let screen = try await terminal.waitFor("v1]>", count: 2)
            #expect(screen.contains("The editor “nanoo” ($EDITOR) is not installed; set VISUAL or EDITOR"))
            #expect(!screen.contains("status 127"))
        }
    }

    @Test func aPasteOfSeveralLinesIsOneInputAndSeveralCommandsAsk() async throws {
        try await inSession() { setup, terminal in
            // A second standard on its own line stays part of /standards: one request.
            try terminal.paste("/standards CCSS.A.1 Explain why tides happen.\nCCSS.A.2 Model the moon's pull.\n")
            try await terminal.waitFor("v2]>")
            var requests = try await setup.server.requests()
            #expect(requests.count == 2)
            #expect(requests.last?.inputText?.contains("CCSS.A.2 Model the moon's pull.") == true)

            try terminal.paste("/shorten 25\n/regrade 6-8\n")
            try await terminal.waitFor("Run them one after another? [y/N]")
            try terminal.type("n")
            try await terminal.waitFor("Nothing sent.")
            requests = try await setup.server.requests()
            #expect(requests.count == 2)
            try terminal.paste("/shorten 25\n/regrade 6-8\n")
            try await terminal.waitFor("Run them one after another? [y/N]", count: 2)
            try terminal.type("y")
            try await terminal.waitFor("v4]>")
            #expect(try await setup.server.requests().count == 4)
        }
    }

    @Test func ctrlCOnALineWithTextOnlyClearsIt() async throws {
        try await inSession() { setup, terminal in
            try terminal.keys("C-c")
            try await terminal.waitFor("(Ctrl-C again or Ctrl-D to quit)")
            try terminal.type("make it shorter", enter: false)
            try terminal.keys("C-c")
            try await terminal.waitFor("make it shorter^C")
            try terminal.keys("C-c")
            try await terminal.waitFor("(Ctrl-C again or Ctrl-D to quit)", count: 2)
            try await Task.sleep(for: .milliseconds(300))
            let screen = try terminal.screen()
            #expect(!screen.contains("continues it."), "the session is still running:\n\(screen)")
            #expect(try await setup.server.requests().count == 1, "the cleared line was not sent")
        }
    }

    @Test func withStdoutPipedThePromptStillShowsOnTheTerminal() async throws {
        let setup = try await setUp()
        defer {
            setup.terminal.close()
            setup.binary.removeHome()
        }
        let file = setup.binary.home.appending(path: "plan.txt")
        try setup.terminal.type(setup.start + " | tee '\(file.path)' > /dev/null")
        try await setup.terminal.waitFor("v1]>")
        try setup.terminal.type("/quit")
        try await setup.terminal.waitFor("$ ", count: 2)
        let saved = try String(contentsOf: file, encoding: .utf8)
        #expect(saved.contains("Learning Objective"))
        #expect(!saved.contains("]>"), "the prompt went to the terminal, not into the file")
    }
}
