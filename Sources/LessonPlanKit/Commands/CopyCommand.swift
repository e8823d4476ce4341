import Foundation
import LessonPlanCore

/// `/copy`: the plan onto the clipboard through the terminal (OSC 52).
public struct CopyCommand: Command, Equatable {
    public static let name = "copy"
    public static let usage = "/copy"
    public static let summary = "copy the plan to the clipboard (OSC 52; works over SSH in most terminals)"
    public static let needsTerminal = true

    public init() {}

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self()
    }

    public func run(_ run: CommandRun) async -> CommandOutcome {
        guard let current = await run.currentPlan() else { return .failed }
        run.host.copy(current.text)
        run.host.show(
            StyledText(
                "Copied v\(current.number) to the clipboard (through the terminal's OSC 52; if nothing arrives, your terminal may need clipboard access turned on)."))
        return .done
    }
}
