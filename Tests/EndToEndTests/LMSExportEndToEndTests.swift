import Foundation
import TestSupport
import Testing

/// `/export quiz FORMAT` and `lessonplan export --quiz` through the built binary against the fake server: a quiz
/// whose text holds every format's special characters, exported in all seven formats, each file read back by
/// `Tests/Readers/lms_read.py` (a reader that is not the writers' code).
@Suite(.serialized) struct LMSExportEndToEndTests {
    /// A model's quiz answer with GIFT's `{ } = ~ # :`, XML's `< & >` and quotes, a backslash and a tab in it, in
    /// its questions, answers and student feedback; each misconception (the teacher's note) starts `Teacher note`.
    static let hostileQuiz = """
        Quiz: exit
        Misconceptions:
        - The Moon pulls only the water facing it.

        1. Which is right: {a} = ~b # c \\ d <i>e</i> & "f" 'g'?
        A) x = {1} :: y
        B) ~tilde #hash :colon
        C) <b>bold</b> & "quoted"
        Answer: A
        Misconception B: Teacher note: thinks braces are sets
        Feedback B: Think: do {braces} = sets & <tags> # "quotes" matter?
        Misconception C: Teacher note: reads escapes as they look
        Feedback C: Read \\n as a line: break ~ and \\\\ as one

        2. Where does the water go?\tAt high tide, that is
        A) [plain] looks like a format tag
        B) %50% of it stays
        C) // not a comment
        Answer: B
        Misconception A: Teacher note: believes tags are text
        Feedback A: [tags] are not text here; look again
        Misconception C: Teacher note: thinks comments hide lines
        Feedback C: Does // hide a line in a question?

        3. What pulls the ocean most?
        A) The wind
        B) The Sun alone
        C) The Moon's gravity
        Answer: C
        Misconception A: Teacher note: wind makes tides
        Feedback A: Wind makes waves; what pulls the water itself?
        Misconception B: Teacher note: the Sun is nearer, so it pulls harder
        Feedback B: The Sun is huge, but is it near? Compare the distances.

        """

    static let stems = [
        #"Which is right: {a} = ~b # c \ d <i>e</i> & "f" 'g'?"#, "Where does the water go?\tAt high tide, that is",
        "What pulls the ocean most?",
    ]
    static let options = [
        ["x = {1} :: y", "~tilde #hash :colon", #"<b>bold</b> & "quoted""#],
        ["[plain] looks like a format tag", "%50% of it stays", "// not a comment"],
        ["The wind", "The Sun alone", "The Moon's gravity"],
    ]
    static let keys = [0, 1, 2]
    static let feedback = [
        ["", #"Think: do {braces} = sets & <tags> # "quotes" matter?"#, #"Read \n as a line: break ~ and \\ as one"#],
        ["[tags] are not text here; look again", "", "Does // hide a line in a question?"],
        ["Wind makes waves; what pulls the water itself?", "The Sun is huge, but is it near? Compare the distances.", ""],
    ]

    static func check(_ file: LMSReader.File, format: String, feedback: Bool = true, tabs: Bool = true) {
        #expect(file.items.count == 3, "\(format)")
        for (index, item) in file.items.enumerated() where index < 3 {
            #expect(item.stem == (tabs ? stems[index] : stems[index].replacingOccurrences(of: "\t", with: " ")), "\(format)")
            #expect(item.options == options[index], "\(format)")
            #expect(item.key == keys[index], "\(format)")
            #expect(item.feedback == (feedback ? Self.feedback[index] : ["", "", ""]), "\(format)")
        }
    }

    @Test func aSessionsQuizGoesIntoEverySevenFormatsAndReadsBackItemForItem() async throws {
        let server = try await FakeOpenAIServer()
        try await server.script([.plan, .text(Self.hostileQuiz)])
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let work = binary.home.appending(path: "work")
        let formats = [
            "qti": "quiz.zip", "imscc": "lesson.imscc", "gift": "quiz.gift", "moodle": "quiz.xml", "aiken": "aiken.txt", "blackboard": "bb.txt",
            "kahoot": "kahoot.xlsx",
        ]
        let exports = formats.sorted { $0.key < $1.key }.map { "/export quiz \($0.key) \($0.value)" }.joined(separator: "\n")
        let result = try await binary.run(
            ["--grade", "6-8", "--topic", "Tides", "--minutes", "45", "--name", "tides"],
            input: """
                /export quiz gift early.gift
                /quiz 3
                /materials
                \(exports)
                /export quiz gift
                /quit

                """, timeout: .seconds(240))
        let err = result.stderr
        // Before a quiz exists: one sentence naming /quiz, and nothing written.
        #expect(err.contains("There is no quiz to export yet; type /quiz to make one from the plan."), "\(err)")
        #expect(!FileManager.default.fileExists(atPath: work.appending(path: "early.gift").path))
        // What a format leaves out is said by item number, before the file is written.
        let aikenLoss = try #require(
            err.range(of: "Aiken has no feedback for an answer: the student feedback on the wrong answers of items 1, 2 and 3 is left out."))
        let aikenWrote = try #require(err.range(of: "Wrote an Aiken file of quiz 1 (from v1) to \(work.path)/aiken.txt."))
        #expect(aikenLoss.upperBound <= aikenWrote.lowerBound)
        #expect(err.contains("Kahoot keeps a question and each answer on one line: the line breaks and tabs in item 2 become spaces."))
        #expect(err.contains("Blackboard's upload has no feedback for an answer"))
        #expect(!err.contains("GIFT has no feedback") && !err.contains("Moodle XML has no"))
        #expect(!err.contains("a wrong answer with none"), "every wrong answer has its feedback")
        // Without FILE, the default name beside the other exports'.
        #expect(err.contains("Wrote a GIFT file of quiz 1 (from v1) to \(work.path)/tides-v1-quiz.gift."), "\(err)")

        Self.check(try await LMSReader.read("gift", work.appending(path: "quiz.gift")), format: "gift")
        Self.check(try await LMSReader.read("gift", work.appending(path: "tides-v1-quiz.gift")), format: "gift (default name)")
        Self.check(try await LMSReader.read("moodle", work.appending(path: "quiz.xml")), format: "moodle")
        Self.check(try await LMSReader.read("aiken", work.appending(path: "aiken.txt")), format: "aiken", feedback: false)
        Self.check(try await LMSReader.read("blackboard", work.appending(path: "bb.txt")), format: "blackboard", feedback: false)
        // The teacher's misconceptions reach no student: not in any text file written (the zips are read back above).
        for name in ["quiz.gift", "quiz.xml", "aiken.txt", "bb.txt"] {
            let text = try String(contentsOf: work.appending(path: name), encoding: .utf8)
            #expect(!text.contains("Teacher note"), "\(name)")
        }
        let qti = try await LMSReader.read("qti", work.appending(path: "quiz.zip"))
        Self.check(qti, format: "qti")
        #expect(qti.extra.title == "Exit quiz: Tides")
        #expect(qti.extra.files?.first == "imsmanifest.xml")
        #expect(qti.items.first?.title == "Exit quiz 1")
        if LMSReader.hasLibreOffice {
            let kahoot = try await LMSReader.read("kahoot", work.appending(path: "kahoot.xlsx"))
            Self.check(kahoot, format: "kahoot", feedback: false, tabs: false)
            #expect(kahoot.items.map(\.key) == [0, 1, 2])
        } else {
            Issue.record("LibreOffice is not installed; run scripts/setup (it installs libreoffice-calc-nogui).")
        }

        // The cartridge: the plan as the teacher's page (without the quiz's key), the handouts, the quiz.
        let cartridge = try await LMSReader.read("imscc", work.appending(path: "lesson.imscc"))
        Self.check(cartridge, format: "imscc")
        #expect(cartridge.items.first?.title == "Exit quiz 1")
        #expect(cartridge.extra.metadata?["cc_profile"] == "cc.exam.v0p1")
        let pages = cartridge.extra.pages ?? []
        #expect(pages.count == 2)
        let plan = try #require(pages.first { $0.title == "Lesson plan (v1)" })
        #expect(plan.instructor && plan.text.contains("Lesson plan: Tides") && !plan.text.contains("Answer key"), "\(plan.text.prefix(300))")
        let handouts = try #require(pages.first { $0.title == "Student handouts" })
        #expect(!handouts.instructor && handouts.text.contains("Student materials: Tides"))

        // From the shell: the same quiz, to -o FILE.
        let cli = try await binary.run(["export", "tides", "--quiz", "--format", "moodle", "-o", "cli.xml"])
        #expect(cli.status == 0, "\(cli.stderr)")
        Self.check(try await LMSReader.read("moodle", work.appending(path: "cli.xml")), format: "moodle (lessonplan export)")
        // An existing file is kept without --force.
        let again = try await binary.run(["export", "tides", "--quiz", "--format", "moodle", "-o", "cli.xml"])
        #expect(again.status == 1 && again.stderr.contains("cli.xml"), "\(again.stderr)")

        // A shorter plan is the same lesson by the check (topic, band, objective, the items' terms): the quiz goes with it.
        let resumed = try await binary.run(["resume", "tides"], input: "/shorten 30\n/export quiz 1 gift kept.gift\n/quit\n")
        #expect(resumed.stderr.contains("Quiz 1 (exit) was written for v1 and checked against v2 by code"), "\(resumed.stderr)")
        #expect(resumed.stderr.contains("Wrote a GIFT file of quiz 1 (from v1)"), "\(resumed.stderr)")
        // Another grade band is not: it is named, nothing is written, and /quiz again is what to type.
        let regraded = try await binary.run(["resume", "tides"], input: "/regrade 3-5\n/export quiz gift stale.gift\n/quit\n")
        #expect(
            regraded.stderr.contains(
                "Quiz 1 (exit) was written for v1 and does not fit v3: it was written for grades 6–8, and v3 is for grades 3–5; type /quiz again to rewrite it."
            ), "\(regraded.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appending(path: "stale.gift").path))
        let shell = try await binary.run(["export", "tides", "--quiz", "1", "--format", "qti", "-o", "stale.zip"])
        #expect(shell.status == 1 && shell.stderr.contains("does not fit the current v3 (it was written for grades 6–8"), "\(shell.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appending(path: "stale.zip").path))
    }

    @Test func aFileNameThePlatformWouldNotOfferIsRefusedInOneSentence() async throws {
        let server = try await FakeOpenAIServer()
        try await server.script([.plan, .text(Self.hostileQuiz)])
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let work = binary.home.appending(path: "work")
        let result = try await binary.run(
            ["--grade", "6-8", "--topic", "Tides", "--minutes", "45", "--name", "named"],
            input: "/quiz 3\n/export quiz qti quiz2.qti\n/export quiz kahoot quiz.kahoot\n/export quiz qti quiz2.zip\n/quit\n", timeout: .seconds(120)
        )
        #expect(
            result.stderr.contains(
                "A QTI 1.2 zip needs a name ending in .zip, which is what Canvas imports; “quiz2.qti” would not be offered for upload, so nothing was written: name it quiz2.zip, or leave the name out."
            ), "\(result.stderr)")
        #expect(
            result.stderr.contains("A Kahoot spreadsheet needs a name ending in .xlsx, which is what Kahoot imports; “quiz.kahoot”"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appending(path: "quiz2.qti").path))
        #expect(!FileManager.default.fileExists(atPath: work.appending(path: "quiz.kahoot").path))
        #expect(FileManager.default.fileExists(atPath: work.appending(path: "quiz2.zip").path), "\(result.stderr)")
        let shell = try await binary.run(["export", "named", "--quiz", "--format", "qti", "-o", "shell.qti"])
        #expect(shell.status == 2 && shell.stderr.contains("name it shell.zip"), "\(shell.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work.appending(path: "shell.qti").path))
    }

    /// A quiz that failed its check (here: about fractions, on a tides plan) is still written when asked for by name,
    /// and the teacher is told first that it did not pass (issues #34 and #35).
    @Test func aQuizThatFailedItsCheckIsWrittenOnlyWithASentenceSayingSo() async throws {
        let server = try await FakeOpenAIServer()
        let offLesson = AssessmentFixtures.fractionsQuiz
        try await server.script([.plan, .text(offLesson), .text(offLesson)])
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let work = binary.home.appending(path: "work")
        let result = try await binary.run(
            ["--grade", "6-8", "--topic", "Tides", "--minutes", "45"],
            input: "/quiz 3\n/export quiz gift off.gift\n/quit\n", timeout: .seconds(120))
        #expect(result.stdout.contains("✗ quiz check: 1 problem") || result.stderr.contains("✗ quiz check: 1 problem"), "\(result.stdout)")
        let said = try #require(
            result.stderr.range(of: "Quiz 1 did not pass its check (Items 1, 2 and 3 share no word with the lesson's topic and plan"),
            "\(result.stderr)")
        let wrote = try #require(result.stderr.range(of: "Wrote a GIFT file of quiz 1"))
        #expect(said.upperBound <= wrote.lowerBound)
        #expect(FileManager.default.fileExists(atPath: work.appending(path: "off.gift").path))
    }

    /// A SIGTERM while LibreOffice makes the Kahoot sheet: the tool running is ended and the scratch folder, with
    /// `quiz.fods` and its answer key, removed. The `soffice` on PATH notes its folder, signals its parent, then
    /// waits as a slow LibreOffice would.
    @Test func aSigtermMidExportRemovesTheScratchFolderAndEndsTheTool() async throws {
        let server = try await FakeOpenAIServer()
        try await server.script([.plan, .text(Self.hostileQuiz)])
        var binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let made = try await binary.run(["--grade", "6-8", "--topic", "Tides", "--minutes", "45", "--name", "term"], input: "/quiz 3\n/quit\n")
        #expect(made.status == 0, "\(made.stderr)")
        let bin = binary.home.appending(path: "bin")
        let temporary = binary.home.appending(path: "tmp")
        for folder in [bin, temporary] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let log = binary.home.appending(path: "soffice")
        try Executable.write(
            """
            #!/bin/sh
            pwd > '\(log.path).folder'; ls > '\(log.path).files'; echo $$ > '\(log.path).pid'
            kill -TERM $PPID
            exec sleep 30

            """, to: bin.appending(path: "soffice"), mode: 0o700)
        binary.environment["PATH"] = bin.path + ":/usr/bin:/bin"
        binary.environment["TMPDIR"] = temporary.path
        let ended = try await binary.run(["export", "term", "--quiz", "--format", "kahoot", "-o", "k.xlsx"])
        #expect(ended.status != 0 && !ended.stderr.contains("Wrote"), "\(ended.status): \(ended.stderr)")
        let folder = try String(contentsOf: URL(fileURLWithPath: log.path + ".folder"), encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(folder.hasPrefix(temporary.path + "/lessonplan-lms-"), "\(folder)")
        #expect(try String(contentsOf: URL(fileURLWithPath: log.path + ".files"), encoding: .utf8).contains("quiz.fods"))
        #expect(!FileManager.default.fileExists(atPath: folder), "the scratch folder is removed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
        let pid = try String(contentsOf: URL(fileURLWithPath: log.path + ".pid"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        // The tool was told to end: its process is gone (or only waits to be reaped) within a few seconds.
        func running() -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
                return false
            }
            return stat[close...].dropFirst(2).first != "Z"
        }
        for _ in 0..<300 where running() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!running(), "soffice (pid \(pid)) was left running")
        #expect(!FileManager.default.fileExists(atPath: binary.home.appending(path: "work/k.xlsx").path))
    }

    @Test func aQuizOverKahootsLimitsIsRefusedAndNothingIsWritten() async throws {
        let long = String(repeating: "Why do tides rise and fall twice a day here? ", count: 3)
        let quiz = Self.hostileQuiz.replacingOccurrences(of: "3. What pulls the ocean most?", with: "3. " + long)
        let server = try await FakeOpenAIServer()
        try await server.script([.plan, .text(quiz)])
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run(
            ["--grade", "6-8", "--topic", "Tides", "--minutes", "45", "--name", "long"], input: "/quiz 3\n/export quiz kahoot k.xlsx\n/quit\n",
            timeout: .seconds(120))
        #expect(result.stderr.contains("Kahoot takes questions of at most 120 characters"), "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "item 3's question (\(long.trimmingCharacters(in: .whitespaces).utf16.count) characters); nothing written, nothing cut."))
        #expect(!FileManager.default.fileExists(atPath: binary.home.appending(path: "work/k.xlsx").path))
    }
}
