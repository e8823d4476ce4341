import Foundation
import LessonPlanCore

/// `/copy`: the plan onto the clipboard through the terminal (OSC 52).
package struct CopyCommand: Command, Equatable {
    package static let name = "copy"
    package static let usage = "/copy"
    package static let summary = "copy the plan to the clipboard (OSC 52; works over SSH in most terminals)"
    package static let needsTerminal = true

    package init() {}

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self()
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        guard let current = await run.currentPlan() else { return .failed }
        run.host.copy(current.text)
        run.host.show(
            StyledText(
                "Copied v\(current.number) to the clipboard (through the terminal's OSC 52; if nothing arrives, your terminal may need clipboard access turned on)."
            ))
        return .done
    }
}
