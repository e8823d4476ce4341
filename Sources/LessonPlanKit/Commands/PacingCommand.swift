import Foundation
import LessonPlanCore

/// `/pacing`: the current plan's pacing as a timeline against the lesson's length.
package struct PacingCommand: Command, Equatable {
    package static let name = "pacing"
    package static let usage = "/pacing"
    package static let summary = "draw the lesson as a timeline: one bar per section, labelled with its minutes"

    package init() {}

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self()
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        guard let (current, framework) = await run.currentPlanAndFramework() else { return .failed }
        let document = framework.document(of: current.text)
        var text = StyledText("── pacing of v\(current.number) · \(current.inputs.minutes)-minute lesson\n", style: .dim)
        text.append(
            PacingChart.render(
                framework.pacing(of: document), lessonMinutes: current.inputs.minutes,
                untimed: framework.untimedSections(of: document), width: run.host.columns))
        run.host.show(text)
        return .done
    }
}
