import Foundation
import LessonPlanCore
import LessonPlanModel

/// `/standards <text>`: align the plan to standards, quoted word for word, each tied to an activity.
package struct StandardsCommand: RequestCommand, Equatable {
    package static let name = "standards"
    package static let templates = ["standards"]
    package static let usage = "/standards <text>"
    package static let summary = "align the plan to these standards, quoted word for word, each with its activity"
    package static let details = """
        Separate several standards with “;” or put each on its own line. A Common Core or NGSS code (4.NF.1,
        RL.5.2, MS-LS1-6) is looked up first and sent with its real text; a code that is no standard, or is for
        another grade band, is named before anything is sent, and you choose whether to send it anyway (a script
        sends nothing). They become the lesson's standards for later refinements too, and the footer says
        whether each is quoted word for word.
        """

    package let refinement: Refinement
    /// What the lookup found wrong with the codes typed, one sentence each, asked about before sending.
    package let concerns: [String]
    /// The standards' texts the plan must quote word for word.
    package let quotable: [String]

    package init(refinement: Refinement, concerns: [String] = [], quotable: [String]? = nil) {
        self.refinement = refinement
        self.concerns = concerns
        self.quotable = quotable ?? StandardsAlignment.items(refinement.inputs.standards)
    }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        guard !arguments.isEmpty else {
            throw CommandError(
                "/standards needs the standards' text, e.g. /standards CCSS.MATH.4.NF.A.1 Explain why a fraction a/b is equivalent to (n × a)/(n × b)."
            )
        }
        var inputs = context.inputs
        let resolved: StandardsResolution
        do {
            resolved = StandardsResolution(try LessonInputs.validOptional(arguments, field: "standards"), band: inputs.grade)
            // The typed text is checked for its length; the real texts the codes stand for are the catalogue's.
            inputs.standards = resolved.text
        } catch {
            throw CommandError(error.message)
        }
        return Self(
            refinement: Refinement(.revise(.standards), inputs: inputs), concerns: resolved.concerns, quotable: resolved.quotable)
    }

    /// Says what is wrong with the codes and asks before sending; then sends the request and says whether every
    /// standard is quoted word for word in the plan it left.
    package func run(_ run: CommandRun) async -> CommandOutcome {
        if !concerns.isEmpty {
            for sentence in concerns { run.host.show(StyledText(TerminalSanitizer.cleanLine(sentence, limit: 400))) }
            guard run.host.confirm("Send these standards anyway? [y/N] ") else {
                run.host.show(
                    StyledText("Nothing was sent; give real codes (`lessonplan standards search WORDS` finds them) or the standards' own words."))
                return .failed
            }
        }
        let (outcome, result) = await run.requestResult(refinement)
        guard result.first.status == .completed else { return outcome }
        let final = await run.engine.state.current?.text ?? result.first.text
        let missing = StandardsAlignment.unquoted(quotable, in: final)
        if missing.isEmpty {
            run.host.show(StyledText("✓ Every standard is quoted word for word."))
        } else {
            for standard in missing { run.host.show(StyledText("✗ Not quoted word for word: “\(standard)”")) }
        }
        return outcome
    }
}
