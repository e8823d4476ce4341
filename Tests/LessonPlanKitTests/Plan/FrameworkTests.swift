import Foundation
import LessonPlanCore
import LessonPlanKit
import TestSupport
import Testing

@Suite struct FrameworkTests {
    /// A prompts folder in a temporary directory, written file by file.
    struct Folder {
        let url = FileManager.default.temporaryDirectory.appending(path: "frameworks-\(UUID().uuidString)")

        func write(_ path: String, _ text: String) throws {
            let file = url.appending(path: path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    @Test func builtInFrameworksAreTheFoldersPresent() throws {
        let prompts = PromptLibrary.builtIn
        #expect(prompts.frameworkNames == ["default", "5e", "gradual-release", "hunter", "ubd"])
        let fiveE = try prompts.framework("5e")
        #expect(fiveE.headings == PlanCorpus.fiveE)
        #expect(fiveE.cfuHeading == "Evaluate" && fiveE.exitTicketHeading == nil)
        #expect(fiveE.warmUpHeading == "Engage" && fiveE.warmUpMinutes == 5)
        let hunter = try prompts.framework("Hunter")
        #expect(hunter.headings.count == 8 && hunter.headings.first == "Anticipatory Set")
        #expect(hunter.exitTicketHeading == "Closure")
        #expect(try prompts.framework("ubd").headings == ["Desired Results", "Evidence", "Learning Plan"])
        #expect(try prompts.framework("gradual-release").headings == ["I Do", "We Do", "You Do Together", "You Do Alone"])
        #expect(throws: PromptError.unknownFramework(name: "montessori", known: prompts.frameworkNames)) {
            try prompts.framework("montessori")
        }
        try prompts.validate(templates: ["instructions", "rules"] + CommandTable.templates + StructuredPlan.templates)
    }

    @Test func theDefaultFrameworkChecksWhatThePlanCheckerAlwaysChecked() throws {
        let framework = try PromptLibrary.builtIn.framework("default")
        #expect(framework.headings == PlanCorpus.headings)
        #expect(framework.studentFacingHeadings == ReadingLevel.studentFacingHeadings)
        let original = PlanChecker(headings: PlanCorpus.headings)
        for example in PlanCorpus.good + PlanCorpus.broken {
            // The structure is what the plan checker always checked; the content notes come on top.
            var structure = framework.check(example.plan, lessonMinutes: example.lessonMinutes)
            #expect(structure.notes != nil)
            structure.notes = nil
            #expect(structure == original.check(example.plan, lessonMinutes: example.lessonMinutes))
        }
    }

    @Test func rulesFollowTheFrameworkRoles() throws {
        let prompts = PromptLibrary.builtIn
        let rules = try prompts.render("rules", values: ["minutes": "45"], framework: "5e")
        #expect(rules.contains("1) Engage\n2) Explore\n3) Explain\n4) Elaborate\n5) Evaluate"))
        #expect(rules.contains("The Engage section takes 5 minutes."))
        #expect(rules.contains("Under Evaluate, provide at least 3 CFU questions, numbered."))
        #expect(!rules.contains("exit ticket"))
        let release = try prompts.render("rules", values: ["minutes": "45"], framework: "gradual-release")
        #expect(!release.contains("warm") && !release.contains("CFU") && !release.contains("{{"))
        // ubd brings its own rules.txt.
        let ubd = try prompts.render("generate", values: ["minutes": "50", "topic": "Tides"], framework: "ubd")
        #expect(ubd.contains("Give times only in the Learning Plan."))
        #expect(ubd.contains("1) Desired Results"))
    }

    @Test func aFrameworkIsAFolderOfFiles() throws {
        let folder = Folder()
        defer { folder.remove() }
        try folder.write("headings.txt", "Objective\nActivity\n")
        try folder.write("rules.txt", "{{headings}}\nCFU: {{cfu}} ({{cfu_questions}})")
        try folder.write("generate.txt", "Plan {{topic}} as {{framework}}.\n{{rules}}\n")
        try folder.write("frameworks/tiny/headings.txt", "Hook\n\nTask\nQuiz\n")
        try folder.write(
            "frameworks/tiny/checks.txt",
            "# roles\ntitle: the tiny model\nwarm-up: hook\nwarm-up minutes: 3\ncfu: QUIZ\ncfu questions: 2\nunpaced: Task\nstudent-facing: Quiz\n")
        try folder.write("frameworks/tiny/generate.txt", "Tiny plan on {{topic}}.\n{{rules}}\n")
        try folder.write("frameworks/notes/readme.txt", "not a framework: no headings.txt\n")
        let prompts = try PromptLibrary.load(directory: folder.url)

        #expect(prompts.frameworkNames == ["default", "tiny"])
        let tiny = try prompts.framework("tiny")
        #expect(
            tiny
                == Framework(
                    name: "tiny", title: "the tiny model", headings: ["Hook", "Task", "Quiz"], warmUpHeading: "Hook",
                    warmUpMinutes: 3, cfuHeading: "Quiz", cfuQuestions: 2, unpacedHeadings: ["Task"],
                    studentFacingHeadings: ["Quiz"]))
        // No checks.txt: only headings and pacing are checked.
        let plain = try prompts.framework("default")
        #expect(plain.cfuHeading == nil && plain.warmUpHeading == nil && plain.title == "default")
        #expect(try prompts.headings() == ["Objective", "Activity"])

        #expect(
            try prompts.render("generate", values: ["topic": "Tides"], framework: "tiny")
                == "Tiny plan on Tides.\n1) Hook\n2) Task\n3) Quiz\nCFU: Quiz (2)\n")
        // The default framework has no CFU role, so that line of the shared rules drops out.
        #expect(try prompts.render("generate", values: ["topic": "Tides"]) == "Plan Tides as default.\n1) Objective\n2) Activity\n")

        let report = tiny.check("Hook (3 min)\nGo.\nTask (20 min)\nWork.\nQuiz (7 min)\n1. Why?\n2. How?\n", lessonMinutes: 10)
        #expect(report == PlanCheckReport(problems: [], pacedMinutes: 10, lessonMinutes: 10, notes: []))
    }

    @Test(arguments: [
        ("warm-up: Hook\n", "line 1: a warm-up needs “warm-up minutes: N” too."),
        ("cfu: Exit Ticket\n", "line 1: “Exit Ticket” is not one of the headings in"),
        ("# fine\n\ncolour: blue\n", "line 3: “colour” is not a check; use title, warm-up"),
        ("cfu questions: many\n", "line 1: “many” is not a whole number from 1 to 50."),
        ("just words\n", "line 1: write “key: value”"),
    ])
    func brokenChecksAreNamedByFileAndLine(checks: String, message: String) throws {
        let folder = Folder()
        defer { folder.remove() }
        try folder.write("headings.txt", "A\n")
        try folder.write("frameworks/tiny/headings.txt", "Hook\nQuiz\n")
        try folder.write("frameworks/tiny/checks.txt", checks)
        let prompts = try PromptLibrary.load(directory: folder.url)
        do {
            _ = try prompts.framework("tiny")
            Issue.record("accepted \(checks)")
        } catch {
            let text = error.localizedDescription
            #expect(text.contains("frameworks/tiny/checks.txt, \(message)"), "\(text)")
        }
        #expect(throws: PromptError.self) { try prompts.validate(templates: []) }
    }

    @Test func problemsNameTheFrameworksOwnSections() throws {
        let fiveE = try PromptLibrary.builtIn.framework("5e")
        #expect(fiveE.describe(.tooFewCFUQuestions(found: 2, minimum: 3)) == "“Evaluate” asks 2 questions; it needs at least 3.")
        #expect(fiveE.describe(.warmUpMinutes(found: 8, expected: 5)) == "“Engage” takes 8 min; it should take 5.")
        #expect(fiveE.describe(.missingHeading("Explain")) == "The plan has no “Explain” section.")
        let standard = try PromptLibrary.builtIn.framework("default")
        for problem in [
            PlanProblem.tooFewCFUQuestions(found: 1, minimum: 3), .warmUpMinutes(found: 10, expected: 5), .exitTicketPrompts(found: 2, expected: 3),
        ] {
            #expect(standard.describe(problem) == problem.description)
        }
    }
}
