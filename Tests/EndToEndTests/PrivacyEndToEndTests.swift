import Foundation
import Testing
import TestSupport

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
            text.range(of: "(?<![\\p{L}\\p{N}])\(NSRegularExpression.escapedPattern(for: form))(?![\\p{L}\\p{N}])", options: .regularExpression) != nil
        }
    }

    @Test func aClassSessionSendsNoNameAndShowsEveryName() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try FileManager.default.createDirectory(at: binary.home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let csv = binary.home.appending(path: "class.csv")
        try ("name,needs\n" + Self.students.map { "\($0.name),\($0.needs)" }.joined(separator: "\n")).write(to: csv, atomically: true, encoding: .utf8)
        let added = try await binary.run(["class", "add", "4B", csv.path])
        #expect(added.status == 0 && added.stdout.contains("Class 4B: 25 students (25 added), 5 with needs"), "\(added)")
        let file = binary.home.appending(path: "classes/4B.json")
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)

        let notes = binary.home.appending(path: "notes.txt")
        try "Field notes. Maria Lopez and Dev Patel measured the tide table on page one; Dev's group drew the graph.\n"
            .write(to: notes, atomically: true, encoding: .utf8)
        let out = binary.home.appending(path: "plan.html")
        let session = try await binary.run(
            ["--grade", "4", "--topic", "Tides with Maria's group", "--minutes", "45", "--class", "4B", "--name", "tides", "--no-repair",
             "--constraints", "JONAH needs extended time"],
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
        #expect(shown.contains("| Maria | ELL; IEP: extended time | Warm-Up |"), "\(shown)")
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
        #expect(requests.count >= 13, "plan, revision, quiz, review, accommodations; the unit's overview and two lessons; the five again: \(requests.count)")
        for request in requests {
            let sent = (request.rawBody ?? "") + (request.instructions ?? "") + (request.inputText ?? "")
            #expect(Self.leaks(in: sent).isEmpty, "request \(request.number) carries \(Self.leaks(in: sent))")
        }
        let source = try #require(requests.first { ($0.inputText ?? "").contains("measured the tide table") }?.inputText)
        #expect(source.contains("Student A and Student B measured the tide table") && source.contains("Student B's group"))
        #expect(requests.contains { ($0.inputText ?? "").contains("- Student A: ELL; IEP: extended time") }, "/accommodate sends pseudonyms and needs")
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
