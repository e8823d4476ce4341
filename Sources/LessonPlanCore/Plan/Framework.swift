import Foundation

/// A lesson structure (default, 5E, Madeline Hunter …): its headings and which of them the plan check counts.
///
/// A framework is data, read from `prompts/`: the default one from `headings.txt` and `checks.txt`, every
/// other one from `frameworks/<name>/headings.txt` and `frameworks/<name>/checks.txt`. Adding a framework
/// is adding those files; nothing in the code names one.
package struct Framework: Equatable, Sendable {
    /// The name of the framework `headings.txt` and `checks.txt` at the top of `prompts/` describe.
    package static let defaultName = "default"

    /// The folder name, typed after `/framework` and `--framework`.
    package var name: String
    /// How prompts and messages name it, e.g. `5E (Engage, Explore, Explain, Elaborate, Evaluate)`.
    package var title: String
    /// The headings a plan must have, in order.
    package var headings: [String]
    /// The section whose minutes are fixed; nil when the framework has no warm-up.
    package var warmUpHeading: String?
    /// The minutes the warm-up must take.
    package var warmUpMinutes: Int?
    /// The section whose questions are counted; nil when there is none.
    package var cfuHeading: String?
    /// The fewest questions the CFU section may ask.
    package var cfuQuestions: Int
    /// The section whose prompts are counted; nil when there is none.
    package var exitTicketHeading: String?
    /// The exact number of exit-ticket prompts.
    package var exitTicketPrompts: Int
    /// Sections whose time is spent outside the lesson, left out of pacing.
    package var unpacedHeadings: [String]
    /// The sections students read themselves, measured for reading level.
    package var studentFacingHeadings: [String]
    /// Sections that take no class time of their own (an objective, a materials list), so a plan
    /// whose structure the tool writes (``StructuredPlan``) gives them no minutes.
    package var untimedHeadings: [String] = []
    /// The section that states the learning objective, read by the content check; nil when there is none.
    package var objectiveHeading: String?
    /// The section that lists materials, against which activities' materials are checked; nil when there is none.
    package var materialsHeading: String?
    /// The instruction and practice sections, which must speak of the topic and whose materials must be listed.
    package var activityHeadings: [String] = []
    /// The words the content check reads by: `observable-verbs.txt`, `task-verbs.txt`, `material-nouns.txt`.
    package var checkWords: CheckWords = .builtIn

    package init(
        name: String, title: String? = nil, headings: [String], warmUpHeading: String? = nil,
        warmUpMinutes: Int? = nil, cfuHeading: String? = nil, cfuQuestions: Int = 3,
        exitTicketHeading: String? = nil, exitTicketPrompts: Int = 3, unpacedHeadings: [String] = [],
        studentFacingHeadings: [String] = []
    ) {
        self.name = name
        self.title = title ?? name
        self.headings = headings
        self.warmUpHeading = warmUpHeading
        self.warmUpMinutes = warmUpMinutes
        self.cfuHeading = cfuHeading
        self.cfuQuestions = cfuQuestions
        self.exitTicketHeading = exitTicketHeading
        self.exitTicketPrompts = exitTicketPrompts
        self.unpacedHeadings = unpacedHeadings
        self.studentFacingHeadings = studentFacingHeadings
    }

    /// The plan check for this framework's headings and roles.
    package var checker: PlanChecker {
        PlanChecker(
            headings: headings, cfuHeading: cfuHeading, exitTicketHeading: exitTicketHeading,
            warmUpHeading: warmUpHeading, warmUpMinutes: warmUpMinutes, minimumCFUQuestions: cfuQuestions,
            exitTicketPrompts: exitTicketPrompts, unpacedHeadings: Set(unpacedHeadings))
    }

    /// A plan of this framework read once, for the check, pacing, reading level and exports alike.
    package func document(of plan: String) -> PlanDocument {
        PlanDocument(parsing: plan, framework: self)
    }

    /// The content check for this framework's roles.
    package var contentChecker: ContentChecker {
        ContentChecker(
            objectiveHeading: objectiveHeading, materialsHeading: materialsHeading, activityHeadings: activityHeadings,
            cfuHeading: cfuHeading, exitTicketHeading: exitTicketHeading, warmUpHeading: warmUpHeading,
            verbs: checkWords)
    }

    /// Checks a plan written in this framework against a lesson of `minutes`, its structure and its content.
    /// - Parameter topic: the lesson's topic, whose words the activities must mention; nil leaves that check out.
    package func check(_ plan: String, lessonMinutes minutes: Int, topic: String? = nil) -> PlanCheckReport {
        check(document(of: plan), lessonMinutes: minutes, topic: topic)
    }

    /// Checks a plan already read: the structure (``PlanChecker``), then the content (``ContentChecker``).
    package func check(_ document: PlanDocument, lessonMinutes minutes: Int, topic: String? = nil) -> PlanCheckReport {
        var report = checker.check(document, lessonMinutes: minutes)
        report.notes = contentChecker.notes(document, topic: topic)
        return report
    }

    /// A content note in one sentence; notes already name the framework's own sections.
    package func describe(_ note: ContentNote) -> String {
        note.description
    }

    /// Every sentence the check would send to a repair: the structure's problems, then the content problems,
    /// then, when the teacher asked for the repair, the advice too.
    package func repairSentences(_ report: PlanCheckReport, includingAdvice: Bool = false) -> [String] {
        report.problems.map(describe) + report.contentProblems.map(describe)
            + (includingAdvice ? report.advice.map(describe) : [])
    }

    /// The timed sections of a plan on the lesson's clock, homework and other unpaced sections left out.
    package func pacing(of plan: String) -> [PacingSegment] {
        pacing(of: document(of: plan))
    }

    /// The timed sections of a plan already read.
    package func pacing(of document: PlanDocument) -> [PacingSegment] {
        Pacing.segments(of: document, excluding: Set(unpacedHeadings))
    }

    /// The sections of a plan already read that are timed but left out of pacing, or name no time.
    package func untimedSections(of document: PlanDocument) -> [String] {
        let timed = Set(pacing(of: document).map(\.heading))
        var seen: Set<String> = []
        return document.sections.map(\.heading).filter { !timed.contains($0) && seen.insert($0).inserted }
    }

    /// The text students read in a plan of this framework.
    package func studentFacingText(of plan: String) -> String {
        studentFacingText(of: document(of: plan))
    }

    /// The text students read in a plan already read.
    package func studentFacingText(of document: PlanDocument) -> String {
        ReadingLevel.studentFacingText(of: document, studentFacing: studentFacingHeadings)
    }

    /// A problem in one sentence that names this framework's sections, so a 5E repair is not asked for a "Check for Understanding".
    package func describe(_ problem: PlanProblem) -> String {
        switch problem {
        case .tooFewCFUQuestions(let found, let minimum) where cfuHeading != "Check for Understanding":
            "“\(cfuHeading ?? "The check for understanding")” asks \(Self.count(found, "question")); it needs at least \(minimum)."
        case .exitTicketPrompts(let found, let expected) where exitTicketHeading != "Exit Ticket":
            "“\(exitTicketHeading ?? "The exit ticket")” has \(Self.count(found, "exit-ticket prompt")); it needs exactly \(expected)."
        case .warmUpMinutes(let found, let expected) where warmUpHeading.map(PlanDocument.key) != PlanDocument.key("Warm-Up"):
            "“\(warmUpHeading ?? "The warm-up")” takes \(found) min; it should take \(expected)."
        default:
            problem.description
        }
    }

    /// Values for the rules template's role placeholders; a role the framework lacks renders empty, dropping its line.
    package var ruleValues: [String: String] {
        [
            "framework": title,
            "warm_up": warmUpHeading ?? "",
            "warm_up_minutes": warmUpMinutes.map(String.init) ?? "",
            "cfu": cfuHeading ?? "",
            "cfu_questions": cfuHeading == nil ? "" : String(cfuQuestions),
            "exit_ticket": exitTicketHeading ?? "",
            "exit_ticket_prompts": exitTicketHeading == nil ? "" : String(exitTicketPrompts),
        ]
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        number == 1 ? "1 \(noun)" : "\(number) \(noun)s"
    }
}
