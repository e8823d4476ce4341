import Foundation
import LessonPlanCore
import LessonPlanKit
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

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

    func setUp(_ extra: [String: String] = [:], columns: Int = 80) async throws -> Setup {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        let temporary = binary.home.appending(path: "tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        var environment = binary.environment
        environment["TERM"] = "screen"
        environment["TMPDIR"] = temporary.path
        environment.merge(extra) { $1 }
        return Setup(
            server: server, binary: binary, terminal: try TerminalSession(columns: columns, rows: 60, environment: environment),
            temporary: temporary)
    }

    /// A session on Tides started at the shell prompt, its first plan shown; cleaned up afterwards.
    func inSession(
        _ extra: [String: String] = [:], columns: Int = 80, _ body: (Setup, TerminalSession) async throws -> Void
    ) async throws {
        let setup = try await setUp(extra, columns: columns)
        defer {
            setup.terminal.close()
            setup.binary.removeHome()
        }
        try setup.terminal.type(setup.start)
        try await setup.terminal.waitFor("v1]>")
        try await body(setup, setup.terminal)
    }

    @Test func editWithTheDefaultViGetsTheTerminalSurvivesCtrlCAndCleansUp() async throws {
        try await inSession { setup, terminal in
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

            // vi has the terminal once it has drawn the file and its "52L, 1300B" line: keys sent before that
            // land while the terminal is still cooked and are flushed when vi makes it raw.
            try await terminal.waitFor(matching: #/\d+L, \d+B/#)
            // Ctrl-C belongs to the editor: the session must still be there afterwards. Keys arrive in order, so
            // once vi answers `:f` (the file's line count, which opening it did not print) it has had the Ctrl-C.
            try terminal.keys("C-c")
            try terminal.type(":f")
            try await terminal.waitFor(" lines --")
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

    /// SIGTERM (a logout, a `kill`) while the editor has the plan's copy: the copy is not left behind.
    @Test func sigtermDuringEditRemovesThePlansCopy() async throws {
        let scripts = FileManager.default.temporaryDirectory.appending(path: "lp-editor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scripts) }
        let editor = scripts.appending(path: "slow-editor")
        try Executable.write("#!/bin/sh\necho \"editing $1\"\nexec sleep 600\n", to: editor)
        try await inSession(["EDITOR": editor.path]) { setup, terminal in
            try terminal.type("/edit")
            try await terminal.waitFor("plan-v1.txt")
            let folder = try #require(try FileManager.default.contentsOfDirectory(at: setup.temporary, includingPropertiesForKeys: nil).first)
            #expect(FileManager.default.fileExists(atPath: folder.appending(path: "plan-v1.txt").path))
            let processes = try terminal.processes()
            let line = try #require(processes.split(separator: "\n").first { $0.hasSuffix(" lessonplan") }, "\(processes)")
            let pid = try #require(line.split(separator: " ").first.flatMap { Int32($0) })
            #expect(kill(pid, SIGTERM) == 0)
            // Wait until lessonplan and the editor it was told to end have gone (a loaded machine takes a moment).
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(30)
            func running() throws -> Bool {
                let shown = try terminal.processes()
                return shown.contains("lessonplan") || shown.contains("sleep")
            }
            while try running(), clock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
            let left = try terminal.processes()
            #expect(!left.contains("lessonplan") && !left.contains("sleep"), "\(left)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: setup.temporary.path).isEmpty)
        }
    }

    /// A sentence that names one section is offered as `/redo` of it alone (issue #38); no keeps it a revision.
    @Test func aSentenceNamingOneSectionIsOfferedAsARedo() async throws {
        try await inSession { setup, terminal in
            try terminal.type("make the warm-up more hands-on")
            try await terminal.waitFor("Write only the Warm-Up again, keeping the rest as it is? [y/N]")
            try terminal.type("y")
            try await terminal.waitFor("changed: Warm-Up; 9 sections unchanged")
            try await terminal.waitFor("v2]>")
            let requests = try await setup.server.requests()
            #expect(requests.count == 2)
            #expect(
                requests.last?.inputText?.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix(
                    "Reply with the Warm-Up (5 min) section only, under its heading.") == true)
            #expect(requests.last?.inputText?.contains("make the warm-up more hands-on") == true)
            // A command typed at the question is not an answer: nothing is sent, and the command is not run.
            try terminal.type("make the exit ticket harder")
            try await terminal.waitFor("Write only the Exit Ticket again, keeping the rest as it is? [y/N]")
            try terminal.type("/history")
            try await terminal.waitFor("Not sent: the question had no yes or no. Type the sentence again to send it.")
            try await terminal.waitFor("v2]>", count: 2)
            #expect(try await setup.server.requests().count == 2)
            try terminal.type("shorten the exit ticket and the warm-up")
            try await terminal.waitFor("v3]>")
            #expect(
                try await setup.server.requests().last?.inputText?.contains("Revise the plan to make that change") == true, "two sections: a revision"
            )
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
        try await inSession { setup, terminal in
            // A second standard on its own line stays part of /standards: one request, sent on Enter, each code with
            // its published text.
            try terminal.paste("/standards 4-ESS2-1 Weathering.\n4-ESS1-1 Rock layers.\n")
            try await terminal.waitFor("v1]> [2 lines pasted]")
            try terminal.keys("Enter")
            try await terminal.waitFor("v2]>")
            var requests = try await setup.server.requests()
            #expect(requests.count == 2)
            #expect(requests.last?.inputText?.contains("4-ESS1-1: Identify evidence from patterns in rock formations") == true)

            try terminal.paste("/shorten 25\n/regrade 6-8\n")
            try await terminal.waitFor("v2]> [2 lines pasted]")
            try terminal.keys("Enter")
            try await terminal.waitFor("Run them one after another? [y/N]")
            try terminal.type("n")
            try await terminal.waitFor("Nothing sent.")
            requests = try await setup.server.requests()
            #expect(requests.count == 2)
            try terminal.paste("/shorten 25\n/regrade 6-8\n")
            try await terminal.waitFor("v2]> [2 lines pasted]", count: 2)
            try terminal.keys("Enter")
            try await terminal.waitFor("Run them one after another? [y/N]", count: 2)
            try terminal.type("y")
            try await terminal.waitFor("v4]>")
            #expect(try await setup.server.requests().count == 4)
        }
    }

    @Test func aPasteOfTwoLinesWaitsForEnterAndCanBeEditedFirst() async throws {
        try await inSession { setup, terminal in
            // No newline at the end, as the issue pasted it: nothing is sent until Enter.
            try terminal.paste("Make the warm-up a song.\nUse the tide tables from Tuesday.")
            try await terminal.waitFor("v1]> [2 lines pasted]")
            // Typed text joins the paste in the same input.
            try terminal.type(" Keep it short.", enter: false)
            try await terminal.waitFor("[2 lines pasted] Keep it short.")
            #expect(try await setup.server.requests().count == 1, "the paste alone sent nothing")
            try terminal.keys("Enter")
            // It names the warm-up alone, so /redo of it is offered first; no keeps it a revision of the plan.
            try await terminal.waitFor("Write only the Warm-Up again, keeping the rest as it is? [y/N]")
            try terminal.type("n")
            try await terminal.waitFor("v2]>")
            let requests = try await setup.server.requests()
            #expect(requests.count == 2)
            let sent = try #require(requests.last?.inputText)
            #expect(sent.contains("Make the warm-up a song.\nUse the tide tables from Tuesday. Keep it short."), "\(sent)")
            #expect(!sent.contains("lines pasted"))

            // A paste whose placeholder is deleted before Enter is not sent.
            try terminal.paste("one\ntwo\nthree")
            try await terminal.waitFor("v2]> [3 lines pasted]")
            try terminal.keys("C-u")
            try terminal.type("/history")
            try await terminal.waitFor("→ v2")
            #expect(try await setup.server.requests().count == 2)
        }
    }

    @Test func aPasteOverTheCapIsDiscardedWholeAndNoneOfItRuns() async throws {
        try await inSession { setup, terminal in
            // Past the cap, the rest once ran as typed lines: a revision, then an export that replaced a file.
            let target = setup.binary.home.appending(path: "victim.txt")
            try "keep me".write(to: target, atomically: true, encoding: .utf8)
            let book = String(repeating: "tides ", count: 170_000) + "\nshorter\n/export md \(target.path) --force\n"
            try terminal.paste(book)
            try await terminal.waitFor("The paste is over 1,000,000 characters, so none of it was taken; nothing was sent.", timeout: .seconds(120))
            try terminal.type("/history")
            try await terminal.waitFor("→ v1")
            #expect(try String(contentsOf: target, encoding: .utf8) == "keep me")
            #expect(try await setup.server.requests().count == 1)
        }
    }

    @Test func clearClearsTheScreenAndSmallTalkIsAskedAboutNotSent() async throws {
        try await inSession { setup, terminal in
            #expect(try terminal.visibleScreen().contains("Learning Objective"))
            try terminal.type("clear")
            // The screen is cleared as Ctrl-L clears it: the plan is off the window, the prompt at its top.
            var shown = ""
            for _ in 0..<100 {
                shown = try terminal.visibleScreen()
                if !shown.contains("Learning Objective") { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(!shown.contains("Learning Objective"), "\(shown)")
            #expect(shown.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("lessonplan [3–5 · 30 min · v1]>"), "\(shown)")

            try terminal.type("thanks")
            try await terminal.waitFor("Send “thanks” to the model as a revision? [y/N]")
            try terminal.type("n")
            try await terminal.waitFor("Not sent.")
            try terminal.type("ls")
            try await terminal.waitFor("Send “ls” to the model as a revision? [y/N]")
            try terminal.type("")
            try await terminal.waitFor("Not sent.", count: 2)
            #expect(try await setup.server.requests().count == 1, "neither clear, thanks nor ls reached the server")

            // Real instructions of one or two words are sent as they are.
            try terminal.type("more hands-on")
            try await terminal.waitFor("v2]>")
            try terminal.type("shorter")
            try await terminal.waitFor("v3]>")
            // And small talk the teacher says yes to is sent as a revision.
            try terminal.type("ok")
            try await terminal.waitFor("Send “ok” to the model as a revision? [y/N]")
            try terminal.type("y")
            try await terminal.waitFor("v4]>")
            let requests = try await setup.server.requests()
            #expect(requests.count == 4)
            #expect(requests[1].inputText?.contains("more hands-on") == true)
        }
    }

    @Test func withoutAKeyTheFirstScreenOffersThreeWaysBeforeAnyQuestion() async throws {
        let binary = try LessonplanBinary(baseURL: nil, apiKey: nil)
        defer { binary.removeHome() }
        var environment = binary.environment
        environment["TERM"] = "screen"
        let terminal = try TerminalSession(columns: 80, rows: 40, environment: environment)
        defer { terminal.close() }
        try terminal.type("'\(binary.url.path)'")
        let screen = try await terminal.waitFor("Then run the same command again.")
        #expect(screen.contains("No API key is set, so lessonplan cannot write a plan yet"))
        #expect(screen.contains("OPENAI_API_KEY") && screen.contains("--local") && screen.contains("--endpoint"))
        #expect(!screen.contains("Grade band"), "no question is asked first:\n\(screen)")
        try await terminal.waitFor("$ ", count: 2)
        let sessions = (try? FileManager.default.contentsOfDirectory(atPath: binary.home.appending(path: "sessions").path)) ?? []
        #expect(sessions.isEmpty, "no session is written before a request can be sent")
    }

    @Test func ctrlCOnALineWithTextOnlyClearsIt() async throws {
        try await inSession { setup, terminal in
            try terminal.keys("C-c")
            try await terminal.waitFor("(Ctrl-C again or Ctrl-D to quit)")
            try terminal.type("make it shorter", enter: false)
            try terminal.keys("C-c")
            try await terminal.waitFor("make it shorter^C")
            try terminal.keys("C-c")
            try await terminal.waitFor("(Ctrl-C again or Ctrl-D to quit)", count: 2)
            // The session still reads commands: the next one runs, after anything the cleared line could have sent.
            try terminal.type("/history")
            let screen = try await terminal.waitFor("→ v1  3–5 · 30 min")
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

    /// The screen's lines as the terminal drew them (tmux joins a line the terminal wrapped itself).
    func drawnLines(_ screen: String) -> [Substring] {
        screen.split(separator: "\n").map { line in line[..<(line.lastIndex { $0 != " " }.map(line.index(after:)) ?? line.startIndex)] }
    }

    /// `/help COMMAND` at a real terminal fills the width and never passes it (issue #36: wrapped at about 108
    /// columns, ragged at 100): each wrapped line is as long as the next word lets it be.
    @Test(arguments: [80, 100])
    func slashCommandHelpWrapsGreedilyAtTheTerminalWidth(columns: Int) async throws {
        try await inSession(columns: columns) { _, terminal in
            try terminal.type("/help review")
            let screen = try await terminal.waitFor("v1]>", count: 2)
            let lines = Array(drawnLines(screen).drop { !$0.hasSuffix("]> /help review") }.dropFirst().dropLast())
            #expect(lines.count > 3, "\(screen)")
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= columns }, "\(screen)")
            // The usage and the summary are lines of their own; the details are one paragraph, wrapped.
            let details = Array(lines.drop { !$0.hasPrefix("The built-in criteria") })
            #expect(details.count > 3, "\(screen)")
            for (line, next) in zip(details, details.dropFirst()) where !line.isEmpty && !next.isEmpty {
                let word = next.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? ""
                #expect(DisplayWidth.of(line) + 1 + DisplayWidth.of(word) > columns, "“\(line)” could take “\(word)”:\n\(screen)")
            }
        }
    }

    @Test(arguments: [80, 120])
    func helpAndMessagesWrapBetweenWordsToTheTerminalWidth(columns: Int) async throws {
        try await inSession(columns: columns) { setup, terminal in
            try terminal.type("/help")
            try await terminal.waitFor("or /quit leaves.")
            try terminal.type("/regrade 3-7")
            var screen = try await terminal.waitFor("v1]>", count: 3)
            // The tool's own words from /help on; the plan above is the model's text, printed as it came.
            let lines = Array(drawnLines(screen).drop { !$0.hasSuffix("]> /help") }.dropFirst())
            #expect(lines.count > 20, "\(screen)")
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= columns }, "\(screen)")
            if columns > 80 {
                #expect(lines.contains { DisplayWidth.of($0) > 80 }, "the width is used, not a fixed 80:\n\(screen)")
            }
            // The /help table keeps its columns: a wrapped description continues under its own column.
            // (A usage wider than the column has a line of its own; its summary starts on the next.)
            let row = try #require(lines.firstIndex { $0.contains("strengthen supports") })
            let start = try #require(lines[row].range(of: "strengthen")).lowerBound
            let column = lines[row].distance(from: lines[row].startIndex, to: start)
            if DisplayWidth.of(lines[row]) + 10 > columns {
                #expect(lines[row + 1].prefix(column).allSatisfy { $0 == " " } && lines[row + 1].dropFirst(column).first != " ", "\(screen)")
            }
            // The error sentence is whole once its line breaks are read as spaces: no word was cut.
            let sentence = "“3-7” is not a grade band; use \(GradeBand.acceptedForms)."
            let flowing = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            #expect(flowing.contains(sentence), "\(screen)")

            // --help at the shell fits the terminal too.
            try terminal.type("/quit")
            try await terminal.waitFor("continues it.")
            try terminal.type("'\(setup.binary.url.path)' --help")
            screen = try await terminal.waitFor("turn colour off")
            let help = drawnLines(screen).drop { !$0.hasSuffix("' --help") }.dropFirst()
            #expect(help.count > 60 && help.allSatisfy { DisplayWidth.of($0) <= columns }, "\(screen)")
        }
    }

    @Test func ctrlCAtTheFirstQuestionExits130() async throws {
        let setup = try await setUp()
        defer {
            setup.terminal.close()
            setup.binary.removeHome()
        }
        try setup.terminal.type("'\(setup.binary.url.path)' --topic Tides --minutes 30; echo \"status=$?\"")
        try await setup.terminal.waitFor("Grade band (K–2, 3–5, 6–8, 9–12) [6–8]:")
        try setup.terminal.keys("C-c")
        try await setup.terminal.waitFor("status=130")
        #expect(try await setup.server.requests().isEmpty)
    }

    /// `--standards` with an invented code at a terminal: the sentence first, then the teacher chooses (issue #41).
    @Test func anInventedStandardAtTheStartIsAskedAbout() async throws {
        let setup = try await setUp()
        defer {
            setup.terminal.close()
            setup.binary.removeHome()
        }
        let start = "'\(setup.binary.url.path)' --grade 4 --topic Tides --minutes 30 --standards 4.NF.9"
        try setup.terminal.type(start + "; echo \"status=$?\"")
        try await setup.terminal.waitFor("Send these standards anyway? [y/N]")
        #expect(try setup.terminal.visibleScreen().contains("4.NF.9 is not a Common Core standard; 4.NF.A.1 (Explain why a fraction"))
        try setup.terminal.type("n")
        try await setup.terminal.waitFor("status=2")
        #expect(try await setup.server.requests().isEmpty)
        try setup.terminal.type(start)
        try await setup.terminal.waitFor("Send these standards anyway? [y/N]", count: 2)
        try setup.terminal.type("y")
        try await setup.terminal.waitFor("v1]>")
        #expect(try await setup.server.requests().first?.inputText?.contains("Standards (optional): 4.NF.9") == true)
    }

    @Test func aCommandTypedAtAYesNoQuestionIsSaidToBeNotTaken() async throws {
        try await inSession { setup, terminal in
            let file = setup.temporary.appending(path: "plan.md").path
            try terminal.type("/export md \(file)")
            try await terminal.waitFor("Wrote ")
            try terminal.type("/export md \(file)")
            try await terminal.waitFor("Replace it? [y/N]")
            try terminal.type("/history")
            let screen = try await terminal.waitFor("nothing written.")
            let flowing = drawnLines(screen).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            #expect(
                flowing.contains("“/history” is not a yes or no, so it was taken as no and not run; type it again at the prompt to run it."),
                "\(screen)")
            #expect(!flowing.contains("→ v1"), "/history did not run:\n\(screen)")
            try terminal.paste("/shorten 25\n/regrade 6-8\n")
            try await terminal.waitFor("[2 lines pasted]")
            try terminal.keys("Enter")
            try await terminal.waitFor("Run them one after another? [y/N]")
            try terminal.type("/undo")
            try await terminal.waitFor("Nothing sent.")
            #expect(try terminal.screen().contains("“/undo” is not a yes or no"))
            #expect(try await setup.server.requests().count == 1)
        }
    }

    @Test func aUnitSessionsPromptNamesTheCurrentLesson() async throws {
        let setup = try await setUp()
        defer {
            setup.terminal.close()
            setup.binary.removeHome()
        }
        let unit = try await setup.binary.run([
            "unit", "--grade", "4", "--topic", "Fractions", "--lessons", "3", "--minutes", "45", "--name", "fractions",
        ])
        #expect(unit.status == 0, "\(unit.stderr)")
        // The hint after `lessonplan unit` is one that works from the shell: resume first.
        #expect(unit.stderr.contains("3 lessons written in "), "\(unit.stderr)")
        let hint = try #require(unit.stderr.split(separator: "\n").first { $0.hasPrefix("3 lessons written in ") })
        #expect(hint.contains("; `lessonplan resume ") && hint.hasSuffix("`, then /unit shows each lesson's check, /lesson N opens one."), "\(hint)")
        try setup.terminal.type("'\(setup.binary.url.path)' resume fractions")
        try await setup.terminal.waitFor("lesson 3 of 3 · v3]>")
        try setup.terminal.type("/lesson 2")
        try await setup.terminal.waitFor("lesson 2 of 3 · v2]>")
    }
}
