import CoreTestSupport
import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanStore
import Testing

/// The content check: what the sections say, beside the structure check.
@Suite struct ContentCheckTests {
    static let framework: Framework = (try? PromptLibrary.builtIn.framework("default")) ?? Framework(name: "default", headings: [])

    static func kinds(_ report: PlanCheckReport) -> Set<ContentNote.Kind> {
        Set((report.notes ?? []).map(\.kind))
    }

    @Test func theIssuesPlanPassesTheStructureButGetsTheContentNotesItDeserves() {
        let report = Self.framework.check(PlanFixtures.offlineFractions, lessonMinutes: 45, topic: "Fractions on a number line")
        #expect(report.passed, "\(report.problems)")
        #expect(!report.contentPassed)
        let kinds = Self.kinds(report)
        #expect(kinds.contains(.repeatedSection) || kinds.contains(.repeatedLine))
        #expect(kinds.contains(.cfuNotQuestion))
        #expect(kinds.contains(.objectiveVerb))
        #expect(kinds.contains(.exitRepeatsCFU))
        // Sections that only repeat another are problems, which start the repair; the rest is advice.
        #expect(report.contentProblems.map(\.kind) == Array(repeating: .repeatedSection, count: 5))
        #expect(report.summary == "✓ structure · ✗ content: 5 problems · \(report.advice.count) suggestions")
        #expect(report.needsRepair)
        let sentences = (report.notes ?? []).map(\.description)
        #expect(
            sentences.contains(
                "Check for Understanding: “Fraction Flipper.” is not a question or a task students answer; ask something they must answer."))
        #expect(
            sentences.contains(
                "Learning Objective: “Fractions on a number line for students in grades 3–5.” has no observable verb (such as explain, solve, compare); say what students will do to show it."
            ))
        // It names fractions throughout, so its topic is not absent; a plan that never names its topic is.
        #expect(!kinds.contains(.topicAbsent))
        let offTopic = Self.framework.check(PlanFixtures.offlineFractions, lessonMinutes: 45, topic: "Photosynthesis (plants)")
        #expect(offTopic.contentProblems.contains { $0.kind == .topicAbsent })
        #expect(
            offTopic.notes?.map(\.description).contains(
                "No section of the plan mentions “photosynthesis”, the lesson’s topic; teach the topic the lesson is for.") == true)
        #expect(
            sentences.contains(
                "Independent Practice only repeats Guided Practice (it opens with “Fraction Flipper.”); write what students do in this part."))
    }

    @Test func theFixturePlanGetsNoNotes() {
        let report = Self.framework.check(PlanFixtures.passing(minutes: 45), lessonMinutes: 45, topic: "Tides")
        #expect(report.passed && report.contentPassed, "\(report.notes ?? [])")
        #expect(report.summary == "✓ structure · ✓ content")
    }

    @Test func aRepeatedLineIsNamedWithEverySectionItIsIn() {
        var plan = PlanFixtures.passing(minutes: 45)
        plan = plan.replacingOccurrences(
            of: "Students complete three practice items on their own.",
            with: "In pairs, students work through two examples while the teacher circulates.")
        let notes = Self.framework.check(plan, lessonMinutes: 45, topic: "Tides").notes ?? []
        #expect(
            notes == [
                ContentNote(
                    .repeatedLine, section: "Guided Practice",
                    quote: "In pairs, students work through two examples while the teacher circulates.",
                    others: ["Independent Practice"])
            ])
        #expect(
            notes.first?.description
                == "Guided Practice and Independent Practice repeat the same line, “In pairs, students work through two examples while the teacher circulates.”; give each section its own."
        )
    }

    @Test func aNearlySameLineCountsAtTheThresholdAndADifferentOneDoesNot() {
        let a = ContentText.words("In pairs, students sort ten fraction cards from least to greatest.")
        let near = ContentText.words("In pairs students sort the ten fraction cards from least to greatest!")
        let other = ContentText.words("Students sort fraction cards alone and write why each goes where it does.")
        #expect(ContentChecker.similarity(a, near) >= ContentChecker.nearDuplicate)
        #expect(ContentChecker.same(a, near))
        #expect(!ContentChecker.same(a, other))
        // Short lines match only exactly.
        #expect(!ContentChecker.same(ContentText.words("Pair up and share."), ContentText.words("Pair up, share now.")))
    }

    @Test func vagueAndNonQuestionCFUItemsAreNotedButTasksAreNot() {
        let plan = PlanFixtures.passing(minutes: 45).replacingOccurrences(
            of: "1. What is the main idea of Tides?\n2. How does the worked example show it?\n3. Where could you see this outside school?",
            with: "1. Any questions?\n2. Tides are caused by the Moon.\n3. Draw the Moon and the two bulges.")
        let notes = Self.framework.check(plan, lessonMinutes: 45, topic: "Tides").notes ?? []
        #expect(notes.map(\.kind) == [.cfuVague, .cfuNotQuestion], "\(notes)")
        #expect(notes.map(\.quote) == ["Any questions?", "Tides are caused by the Moon."])
    }

    @Test func understandAndKnowAreNoObservableVerbsEvenBesideOne() {
        let checker = Self.framework.contentChecker
        #expect(!checker.hasObservableVerb(ContentText.words("Students will understand fractions.")))
        #expect(!checker.hasObservableVerb(ContentText.words("Students will understand how to compare fractions.")))
        #expect(!checker.hasObservableVerb(ContentText.words("Students will learn about the water cycle.")))
        #expect(!checker.hasObservableVerb(ContentText.words("Students will know the parts of a plant.")))
        #expect(checker.hasObservableVerb(ContentText.words("Students will compare fractions with unlike denominators.")))
        #expect(checker.hasObservableVerb(ContentText.words("I can explain what causes tides.")))
    }

    @Test func anObjectiveVerbListInAPromptsFolderReplacesTheBuiltInOne() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verbs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["headings.txt", "checks.txt"] {
            try PromptLibrary.builtIn.text(of: String(name.dropLast(4)))
                .write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        // Without "explain" on the list, the fixture's objective ("explain the key ideas") has no listed verb.
        try "solve\ncompare\nnot: understand\n".write(
            to: directory.appendingPathComponent("observable-verbs.txt"), atomically: true, encoding: .utf8)
        let framework = try PromptLibrary.load(directory: directory).framework("default")
        let notes = framework.check(PlanFixtures.passing(minutes: 45), lessonMinutes: 45, topic: "Tides").notes ?? []
        #expect(notes.map(\.kind).contains(.objectiveVerb))
        #expect(Self.framework.check(PlanFixtures.passing(minutes: 45), lessonMinutes: 45, topic: "Tides").contentPassed)
    }

    @Test func anExitTicketOffTheObjectiveAndAnUnlistedMaterialAreNoted() {
        // Off the lesson means sharing no word with the objective, the topic or what the activities teach.
        let plan = PlanFixtures.passing(minutes: 45)
            .replacingOccurrences(of: "1. One key idea I learned…", with: "1. What is your favourite colour?")
            .replacingOccurrences(of: "2. One question I still have…", with: "2. Which pet would you like?")
            .replacingOccurrences(of: "3. One way I could use this…", with: "3. Name a song you enjoy.")
            .replacingOccurrences(
                of: "Students complete three practice items on their own.",
                with: "Students use fraction strips to complete three practice items on their own.")
        let notes = Self.framework.check(plan, lessonMinutes: 45, topic: "Tides").notes ?? []
        #expect(notes.map(\.kind) == [.exitOffObjective, .unlistedMaterial], "\(notes)")
        #expect(
            notes.last?.description
                == "Independent Practice uses “fraction strips” (“Students use fraction strips to complete three practice items on their own.”), but Materials does not list it."
        )
        // Listed, it is no note; "use evidence" names nothing to hand out.
        let listed = plan.replacingOccurrences(of: "- Exit ticket slips", with: "- Exit ticket slips\n- Fraction strips")
            .replacingOccurrences(of: "Students use fraction strips", with: "Students use evidence and fraction strips")
        #expect(!(Self.framework.check(listed, lessonMinutes: 45, topic: "Tides").notes ?? []).contains { $0.kind == .unlistedMaterial })
        // What the offline model wrote and a teacher would not hand out: judged false, so no note.
        for phrase in [
            "Photosynthesis uses sunlight to convert carbon dioxide.", "Students use only 75 items.",
            "Students get lots of materials that they can use while studying.", "Use multiple lines if you need them.",
        ] {
            let line = plan.replacingOccurrences(of: "Students use fraction strips to complete three practice items on their own.", with: phrase)
            #expect(
                !(Self.framework.check(line, lessonMinutes: 45, topic: "Tides").notes ?? []).contains { $0.kind == .unlistedMaterial }, "\(phrase)")
        }
    }

    @Test func placeholdersAndEmptySectionsAreNoted() {
        let plan = PlanFixtures.passing(minutes: 45)
            .replacingOccurrences(of: "- Support: sentence frames and a labelled diagram.", with: "- TBD")
            .replacingOccurrences(of: "- Find one real-world example of Tides and describe it in two sentences.", with: "…")
        let notes = (Self.framework.check(plan, lessonMinutes: 45, topic: "Tides").notes ?? []).filter { $0.kind == .placeholder }
        #expect(notes.map(\.section) == ["Differentiation", "Homework / Extension (optional)"], "\(notes)")
        #expect(notes.first?.description == "Differentiation: “TBD” is a placeholder; write the real content.")
        // A sentence starter that ends in an ellipsis is content, not a placeholder.
        #expect(Self.framework.check(PlanFixtures.passing(minutes: 45), lessonMinutes: 45, topic: "Tides").contentPassed)
    }

    @Test func aRepairThatRemovesNotesChecksBetterAndStructureStillWeighsMore() {
        let weak = PlanCheckReport(
            problems: [], pacedMinutes: 45, lessonMinutes: 45,
            notes: [
                ContentNote(.objectiveVerb, section: "Learning Objective", quote: "Fractions.")
            ])
        let clean = PlanCheckReport(problems: [], pacedMinutes: 45, lessonMinutes: 45, notes: [])
        let broken = PlanCheckReport(problems: [.codeFence], pacedMinutes: 45, lessonMinutes: 45, notes: [])
        #expect(clean.isBetter(than: weak))
        #expect(!weak.isBetter(than: clean))
        #expect(weak.isBetter(than: broken))
        #expect(broken.summary == "✗ structure: 1 problem · ✓ content")
        #expect(PlanCheckReport(problems: [], pacedMinutes: 45, lessonMinutes: 45).summary == "✓ structure")
    }

    @Test func notesRoundTripThroughTheTranscriptAndAnOldRecordHasNone() throws {
        let report = Self.framework.check(PlanFixtures.offlineFractions, lessonMinutes: 45, topic: "Fractions on a number line")
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let data = try encoder.encode(report)
        #expect(try decoder.decode(PlanCheckReport.self, from: data) == report)
        let old = Data(#"{"problems":[],"paced_minutes":45,"lesson_minutes":45,"passed":true}"#.utf8)
        #expect(try decoder.decode(PlanCheckReport.self, from: old).notes == nil)
        let unknown = Data(#"{"problems":[],"lesson_minutes":45,"notes":[{"kind":"from_the_future","section":"X","quote":"","others":[]}]}"#.utf8)
        #expect(try decoder.decode(PlanCheckReport.self, from: unknown).notes == [])
    }

    @Test func theNotesGoOnTheTeachersCopyAndNeverOnAHandout() {
        let report = Self.framework.check(PlanFixtures.offlineFractions, lessonMinutes: 45, topic: "Fractions on a number line")
        let check = ExportCheck(report, framework: Self.framework)
        #expect(check.passed && check.notes.count == report.notes?.count)
        func document(_ kind: TurnKind) -> ExportDocument {
            ExportDocument(
                topic: "Fractions on a number line", grade: "3–5", minutes: 45, created: Date(timeIntervalSince1970: 0),
                versions: [
                    ExportVersion(number: 1, command: "/generate", createdAt: Date(timeIntervalSince1970: 0), text: PlanFixtures.offlineFractions)
                ],
                currentVersion: 1, kind: kind, check: check)
        }
        let teacher = PlanExport.renderMarkdown(document(.plan))
        #expect(teacher.contains("> **\(ExportCheck.notesTitle)**"))
        #expect(teacher.contains("> - Learning Objective: “Fractions on a number line for students in grades 3–5.” has no observable verb"))
        #expect(PlanExport.renderHTML(document(.plan)).contains("<div class=\"content-notes\">"))
        for handout in [PlanExport.renderMarkdown(document(.materials)), PlanExport.renderHTML(document(.materials))] {
            #expect(!handout.contains(ExportCheck.notesTitle) && !handout.contains("observable verb"))
        }
    }

    /// The measurement docs/plan-check.md reports for the corpus: its hand-written plans, each with the topic its
    /// objective teaches, raise no note.
    @Test func theCorpusRaisesTheNotesTheDocsReport() throws {
        let topics = [
            "Photosynthesis", "Fractions on a number line", "Writing a strong claim", "Area and perimeter", "Main idea",
            "Phases of the Moon", "Causes of the American Revolution", "Vertebrates and invertebrates",
            "Commas in a series", "Measuring angles", "The water cycle", "Haiku", "Retelling a story",
        ]
        let cases = PlanCorpus.good + PlanCorpus.broken
        try #require(cases.count == topics.count)
        var notes: [ContentNote] = []
        for (example, topic) in zip(cases, topics) {
            notes += Self.framework.check(example.plan, lessonMinutes: example.lessonMinutes, topic: topic).notes ?? []
        }
        let fiveE = try PromptLibrary.builtIn.framework("5e")
        notes += fiveE.check(PlanCorpus.goodFiveE, lessonMinutes: 50, topic: "Density").notes ?? []
        // The one note the first rules raised (an exit ticket of drawings for "retell a story in order", judged
        // false) is gone now that the exit ticket is compared with what the lesson teaches, not the objective alone.
        #expect(notes.isEmpty, "\(notes)")
    }
}

/// The findings issue #34 measured as false on good plans: each sentence here once raised a note.
@Suite struct FairJudgeTests {
    static let framework = ContentCheckTests.framework

    static func notes(_ plan: String, topic: String = "Tides") -> [ContentNote] {
        framework.check(plan, lessonMinutes: 45, topic: topic).notes ?? []
    }

    static func withCFU(_ items: [String]) -> String {
        PlanFixtures.passing(minutes: 45).replacingOccurrences(
            of: "1. What is the main idea of Tides?\n2. How does the worked example show it?\n3. Where could you see this outside school?",
            with: items.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n"))
    }

    @Test(arguments: [
        "Jamal says 2/3 + 1/4 = 3/7. Write one sentence telling him what went wrong.",
        "Your bulb won't light. Name two things you would check.",
        "Corrige el error: 'Yo se ducho a las siete.'",
        "Écris deux phrases au passé composé.",
        "Muestra con el gesto: \"Hace viento.\"",
        "Balance: Al + O₂ → Al₂O₃.",
        "Solve 3x + 4 = 19.",
        "Bestelle ein Getränk und eine Suppe.",
        "Sag auf Deutsch: „Ich habe Hunger.“",
        "Descrivi tua madre in una frase.",
    ])
    func aTaskIsATaskQuotedOrNot(item: String) {
        let plan = Self.withCFU([item, "What causes a spring tide?", "Draw the Moon and the two bulges."])
        #expect(!Self.notes(plan).contains { $0.kind == .cfuNotQuestion }, "\(item)")
    }

    @Test func aStatementIsStillAdviceAndACheckOfStatementsIsAProblem() {
        let one = Self.notes(Self.withCFU(["Tides are caused by the Moon.", "What causes a spring tide?", "Draw the Moon."]))
        #expect(one.map(\.kind) == [.cfuNotQuestion])
        #expect(one.allSatisfy { $0.isAdvice })
        let none = Self.framework.check(
            Self.withCFU(["Tides are caused by the Moon.", "The Moon pulls the sea.", "Spring tides are high."]),
            lessonMinutes: 45, topic: "Tides")
        #expect(none.contentProblems.map(\.kind) == [.cfuNoQuestion])
        #expect(none.needsRepair)
        #expect(
            none.contentProblems.first?.description
                == "Check for Understanding asks nothing students answer (it opens with “Tides are caused by the Moon.”); write questions or tasks that show what they learned."
        )
    }

    @Test(arguments: [
        "Students use a code word to log in to the practice site.",
        "Students use the rest of the excerpt to find two more examples.",
        "Students use a loop instead of repeating the line.",
        "Students use your own words to retell it.",
    ])
    func ordinaryWordsAreNotMaterials(line: String) {
        let plan = PlanFixtures.passing(minutes: 45).replacingOccurrences(
            of: "Students complete three practice items on their own.", with: line)
        #expect(!Self.notes(plan).contains { $0.kind == .unlistedMaterial }, "\(line)")
    }

    @Test func codeShownTwiceAndAListedStripAreNotRepeats() {
        let plan = PlanFixtures.passing(minutes: 45)
            .replacingOccurrences(of: "- Exit ticket slips", with: "- Exit ticket slips\n- Vocabulary strip: tide, bulge, gravity")
            .replacingOccurrences(
                of: "Pair-share two ideas.", with: "Pair-share two ideas.\n\n        for step in range(4): print(step)\n"
            )
            .replacingOccurrences(
                of: "pause for questions.",
                with: "pause for questions.\n- Vocabulary strip: tide, bulge, gravity\n\n        for step in range(4): print(step)\n")
        let notes = Self.notes(plan)
        #expect(!notes.contains { $0.kind == .repeatedLine || $0.kind == .repeatedSection }, "\(notes)")
    }

    /// A sentence frame shown in guided practice and used again on one's own is a display, not a copied line;
    /// a line that says what happens, copied, is still advice.
    @Test func aSentenceFrameUsedTwiceIsNotARepeat() {
        let frame = "Sentence frame: “The tide is high when ___ because ___.”"
        let plan = PlanFixtures.passing(minutes: 45)
            .replacingOccurrences(of: "pause for questions.", with: "pause for questions.\n- \(frame)")
            .replacingOccurrences(of: "the teacher circulates.", with: "the teacher circulates.\n- \(frame)")
        #expect(!Self.notes(plan).contains { $0.kind == .repeatedLine }, "\(Self.notes(plan))")
        // Single-underscore blanks and a longer label, as a held-out good plan wrote it.
        let board = "Frame on the board: \"I think _ because _. For example, _. That is why _.\""
        let boarded = PlanFixtures.passing(minutes: 45)
            .replacingOccurrences(of: "pause for questions.", with: "pause for questions.\n- \(board)")
            .replacingOccurrences(of: "the teacher circulates.", with: "the teacher circulates.\n- \(board)")
        #expect(!Self.notes(boarded).contains { $0.kind == .repeatedLine }, "\(Self.notes(boarded))")
        // An underscore inside a word is no blank: a copied line naming snake_case is still a repeat.
        let snake = "Students rename the variable snake_case_name in the starter code file."
        let named = PlanFixtures.passing(minutes: 45)
            .replacingOccurrences(of: "pause for questions.", with: "pause for questions.\n- \(snake)")
            .replacingOccurrences(of: "the teacher circulates.", with: "the teacher circulates.\n- \(snake)")
        #expect(Self.notes(named).contains { $0.kind == .repeatedLine })
        let copied = "Students label the high and low tides on a coastal map of the bay."
        let weak = PlanFixtures.passing(minutes: 45)
            .replacingOccurrences(of: "pause for questions.", with: "pause for questions.\n- \(copied)")
            .replacingOccurrences(of: "the teacher circulates.", with: "the teacher circulates.\n- \(copied)")
        #expect(Self.notes(weak).contains { $0.kind == .repeatedLine })
    }

    /// "Name one input. Name one output." asks about what the lesson taught, in its own words.
    @Test func anExitTicketInTheLessonsWordsIsNotOffTheObjective() {
        let plan = PlanFixtures.passing(minutes: 45, topic: "Photosynthesis")
            .replacingOccurrences(
                of: "Students will be able to explain the key ideas of Photosynthesis and apply them to a new example.",
                with: "Students will explain how plants turn light into chemical energy."
            )
            .replacingOccurrences(
                of: "Introduce the key vocabulary with one worked example",
                with: "Show the inputs and outputs of a leaf with one worked example"
            )
            .replacingOccurrences(of: "1. One key idea I learned…", with: "1. Name one input.")
            .replacingOccurrences(of: "2. One question I still have…", with: "2. Name one output.")
            .replacingOccurrences(of: "3. One way I could use this…", with: "3. Draw where it happens.")
        #expect(!Self.notes(plan, topic: "Photosynthesis").contains { $0.kind == .exitOffObjective })
    }

    @Test func adviceAloneStartsNoRepairButATypedRepairSendsIt() {
        let report = Self.framework.check(
            Self.withCFU(["Tides are caused by the Moon.", "What causes a spring tide?", "Draw the Moon."]),
            lessonMinutes: 45, topic: "Tides")
        #expect(report.passed && report.contentPassed && !report.needsRepair && report.hasFindings)
        #expect(report.summary == "✓ structure · ✓ content · 1 suggestion")
        #expect(Self.framework.repairSentences(report).isEmpty)
        #expect(Self.framework.repairSentences(report, includingAdvice: true).count == 1)
    }
}
