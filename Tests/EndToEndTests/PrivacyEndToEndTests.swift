import Foundation
import TestSupport
import Testing

/// Names never leave the machine (issue #42), through the built binary against the scripted server: a class of 25,
/// names typed in commands and flags, a source that names two students, /quiz, /review, /accommodate, a unit and
/// `replay --rerun`; the server's log is searched for every name in every form.
@Suite struct PrivacyEndToEndTests {
    static let students: [(name: String, needs: String)] = [
        ("Maria Lopez", "ELL;IEP: extended time"), ("Dev Patel", "504: preferential seating"), ("Jonah Reyes", "IEP: extended time"),
        ("Aaliyah Brooks", ""), ("Mateo Alvarez", "ELL"), ("Priya Raman", ""), ("Kwame Mensah", ""), ("Sofia Rossi", ""),
        ("Liam Murphy", ""), ("Aarav Shah", ""), ("Ximena Cruz", "ELL"), ("Noah Kim", ""), ("Fatima Haddad", ""),
        ("Elijah Carter", ""), ("Chloe Nguyen", ""), ("Mohammed Ali", ""), ("Zoe Fischer", ""), ("Diego Santos", ""),
        ("Amara Okafor", ""), ("Lucas Novak", ""), ("Yuki Tanaka", ""), ("Isabella Moreno", ""), ("Ethan Walsh", ""),
        ("Leila Karimi", ""), ("Omar Farouk", ""),
    ]

    /// Every form a request might carry: full name, first name, possessive, lower and upper case.
    static func forms(_ name: String) -> [String] {
        let first = String(name.split(separator: " ")[0])
        return [name, first, first + "'s", name.lowercased(), first.lowercased(), name.uppercased(), first.uppercased()]
    }

    /// The forms of listed names found in `text` as whole words.
    static func leaks(in text: String) -> [String] {
        students.flatMap { forms($0.name) }.filter { form in
            text.range(of: "(?<![\\p{L}\\p{N}])\(NSRegularExpression.escapedPattern(for: form))(?![\\p{L}\\p{N}])", options: .regularExpression)
                != nil
        }
    }

    @Test func aClassSessionSendsNoNameAndShowsEveryName() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try FileManager.default.createDirectory(at: binary.home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let csv = binary.home.appending(path: "class.csv")
        try ("name,needs\n" + Self.students.map { "\($0.name),\($0.needs)" }.joined(separator: "\n")).write(
            to: csv, atomically: true, encoding: .utf8)
        let added = try await binary.run(["class", "add", "4B", csv.path])
        #expect(added.status == 0 && added.stdout.contains("Class 4B: 25 students (25 added), 5 with needs"), "\(added)")
        let file = binary.home.appending(path: "classes/4B.json")
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)

        let notes = binary.home.appending(path: "notes.txt")
        try "Field notes. Maria Lopez and Dev Patel measured the tide table on page one; Dev's group drew the graph.\n"
            .write(to: notes, atomically: true, encoding: .utf8)
        let out = binary.home.appending(path: "plan.html")
        let session = try await binary.run(
            [
                "--grade", "4", "--topic", "Tides with Maria's group", "--minutes", "45", "--class", "4B", "--name", "tides", "--no-repair",
                "--constraints", "JONAH needs extended time",
            ],
            input: """
                /source \(notes.path)
                /revise pair maria lopez with Mateo, and give Dev's group sentence frames
                /quiz
                /review
                /accommodate
                /show
                /export html \(out.path)
                /quit

                """, timeout: .seconds(120))
        #expect(session.status == 0, "\(session.stderr)")
        let shown = session.stdout + session.stderr
        // What the teacher sees carries the names: the plan (its topic), the accommodations table, the check.
        #expect(shown.contains("Tides with Maria's group"), "\(shown)")
        #expect(!shown.contains("Student A"), "no pseudonym reaches the screen: \(shown)")
        // At the terminal the table is a student at a time (/accommodate and /show), in place in Differentiation.
        #expect(shown.contains("Maria (ELL; IEP: extended time)\n  - Warm-Up: Maria gets a picture card"), "\(shown)")
        #expect(!shown.contains("| Maria |"))
        #expect(shown.contains("✓ accommodations: a row for each of 5 students in each of 6 timed activities"), "\(shown)")
        let page = try String(contentsOf: out, encoding: .utf8)
        #expect(page.contains("Tides with Maria&#39;s group") || page.contains("Tides with Maria's group"), "the export has the names")
        #expect(page.contains("<table class=\"plan-table\">") && page.contains("<td>Jonah</td>"))

        let unit = try await binary.run(
            ["unit", "--grade", "4", "--topic", "Tides for Priya and Kwame", "--lessons", "2", "--minutes", "30", "--class", "4B"],
            timeout: .seconds(120))
        #expect(unit.status == 0, "\(unit.stderr)")
        #expect(unit.stdout.contains("Tides for Priya and Kwame"), "\(unit.stdout)")
        let rerun = try await binary.run(["replay", "--rerun", "tides", "--yes"], timeout: .seconds(120))
        #expect(rerun.status == 0, "\(rerun.stderr)")

        // Every request: the body as sent and its text decoded, searched for every name in every form.
        let requests = try await server.requests()
        #expect(
            requests.count >= 13,
            "plan, revision, quiz, review, accommodations; the unit's overview and two lessons; the five again: \(requests.count)")
        for request in requests {
            let sent = (request.rawBody ?? "") + (request.instructions ?? "") + (request.inputText ?? "")
            #expect(Self.leaks(in: sent).isEmpty, "request \(request.number) carries \(Self.leaks(in: sent))")
        }
        let source = try #require(requests.first { ($0.inputText ?? "").contains("measured the tide table") }?.inputText)
        #expect(source.contains("Student A and Student B measured the tide table") && source.contains("Student B's group"))
        #expect(
            requests.contains { ($0.inputText ?? "").contains("- Student A: ELL; IEP: extended time") }, "/accommodate sends pseudonyms and needs")
        // Every transcript holds what was sent: pseudonyms, no names.
        let sessions = binary.home.appending(path: "sessions")
        for name in try FileManager.default.contentsOfDirectory(atPath: sessions.path) where name.hasSuffix(".jsonl") {
            let text = try String(contentsOf: sessions.appending(path: name), encoding: .utf8)
            #expect(Self.leaks(in: text).isEmpty, "\(name) holds \(Self.leaks(in: text))")
        }
        // Replayed on this machine, the names come back; the class gone, the pseudonyms stay.
        let replay = try await binary.run(["replay", "tides"])
        #expect(replay.stdout.contains("Tides with Maria's group") && replay.stdout.contains("pair Maria with Mateo"), "\(replay.stdout)")
        #expect(try await binary.run(["class", "rm", "4B", "--yes"]).status == 0)
        let without = try await binary.run(["replay", "tides"])
        #expect(without.stdout.contains("Tides with Student A's group"), "\(without.stdout)")
        #expect(without.stderr.contains("tied to the class “4B”, which is not on this machine"), "\(without.stderr)")
    }
}

/// A word that looks like a student's name and is not on the class list is asked about before anything is sent:
/// at a terminal (send as written, add to the class, cancel), and a script is told and sends nothing.
@Suite(.serialized) struct UnlistedNameEndToEndTests {
    static func classed() async throws -> (FakeOpenAIServer, LessonplanBinary) {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        let added = try await binary.runShell("printf 'Maria Lopez,ELL\\nDev Patel\\n' | '\(binary.url.path)' class add 4B -")
        #expect(added.contains("Class 4B: 2 students (2 added), 1 with needs"), "\(added)")
        return (server, binary)
    }

    @Test func atATerminalANewNameIsAddedToTheClassAndGoesOutAsAPseudonym() async throws {
        let (server, binary) = try await Self.classed()
        defer { binary.removeHome() }
        var environment = binary.environment
        environment["TERM"] = "screen"
        let terminal = try TerminalSession(columns: 80, rows: 50, environment: environment)
        defer { terminal.close() }
        try terminal.type("'\(binary.url.path)' --grade 4 --topic Tides --minutes 30 --class 4B --no-repair")
        try await terminal.waitFor("v1]>")
        try terminal.type("/revise give Priya and Dev extra time")
        try await terminal.waitFor("Send as written, add to class 4B (sent as a pseudonym), or cancel? [s/a/C]")
        #expect(try terminal.screen().contains("“Priya” looks like a student's name and is not on class 4B's list."))
        try terminal.type("a")
        try await terminal.waitFor("v2]>")
        // Cancelled, nothing goes; sent as written, the name goes as typed (the teacher's choice).
        try terminal.type("/revise pair Noor with Maria")
        try await terminal.waitFor("[s/a/C]", count: 2)
        try terminal.type("")
        try await terminal.waitFor("Not sent.")
        try terminal.type("/quit")
        try await terminal.waitFor("continues it.")

        let requests = try await server.requests()
        #expect(requests.count == 2, "the plan and the revision; the cancelled one sent nothing")
        let revision = try #require(requests.last?.inputText)
        #expect(revision.contains("give Student C and Student B extra time"), "\(revision.suffix(300))")
        #expect(!revision.contains("Priya") && !revision.contains("Noor"))
        let shown = try await binary.run(["class", "show", "4B"])
        #expect(shown.stdout.contains("Student C\tPriya"), "\(shown.stdout)")
    }

    @Test func aScriptIsToldAndSendsNothingUnlessYes() async throws {
        let (server, binary) = try await Self.classed()
        defer { binary.removeHome() }
        let flagged = try await binary.run(["generate", "--class", "4B", "--topic", "Tides for Jamal", "--grade", "4"])
        #expect(flagged.status == 2)
        #expect(flagged.stderr.contains("“Jamal” looks like a student's name and is not on class 4B's list. Nothing was sent;"), "\(flagged.stderr)")
        let refused = try await binary.run(
            ["generate", "--class", "4B", "--topic", "Lincoln's Gettysburg Address", "--grade", "8", "--then", "/revise give Jamal extra time"])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("add it to the class (`lessonplan class add 4B -`, one name a line), or add --yes to send it as written."))
        #expect(try await server.requests().count == 1, "the topic's famous name is not asked about; the revision sent nothing")
        let sent = try await binary.run(
            ["generate", "--class", "4B", "--topic", "Tides", "--grade", "4", "--yes", "--then", "/revise give Jamal extra time"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try await server.requests().last?.inputText?.contains("give Jamal extra time") == true, "--yes sends it as written")
    }
}

extension UnlistedNameEndToEndTests {
    /// `/class` in the middle of a session: turns before it went as typed (and say so), turns after it carry
    /// pseudonyms, and the transcript records the tie by the class's name only.
    @Test func classMidSessionTiesFromThereOn() async throws {
        let (server, binary) = try await Self.classed()
        defer { binary.removeHome() }
        let result = try await binary.run(
            ["--grade", "4", "--topic", "Tides", "--minutes", "30", "--no-repair", "--yes"],
            input: "/class\n/revise pair Maria with Dev\n/class 4b\n/class\n/revise pair Maria with Dev\n/accommodate\n/quit\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("This session has no class, so what you type goes out as typed. Tie it to one with /class NAME (4B)."),
            "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "Tied to class 4B (2 students): from here on their names go out as pseudonyms (Student A …) and come back as names. Turns before this one went out as they were typed."
            ))
        #expect(result.stdout.contains("This session is tied to class 4B (2 students)"))
        let inputs = try await server.requests().map { $0.inputText ?? "" }
        #expect(inputs.count == 4)
        #expect(inputs[1].contains("pair Maria with Dev"), "before /class, as typed")
        #expect(inputs[2].contains("pair Student A with Student B") && !inputs[2].contains("Maria"))
        #expect(inputs[3].contains("- Student A: ELL") && !inputs[3].contains("Dev"))
        let settings = try binary.transcriptLines().filter { $0["type"] as? String == "setting" }
        #expect(settings.count == 1 && settings[0]["class_name"] as? String == "4B" && settings[0]["repair"] == nil, "\(settings)")
    }
}
