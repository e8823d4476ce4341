import Foundation
import LessonPlanCore

/// `/history`: every version with the command that made it.
public struct HistoryCommand: Command, Equatable {
    public static let name = "history"
    public static let usage = "/history"
    public static let summary = "list the versions, each with the command that made it"
    public static let needsPlan = false

    public init() {}

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self()
    }

    public func run(_ run: CommandRun) async -> CommandOutcome {
        run.host.show(StyledText(Self.render(await run.engine.state, whole: !run.host.showsOnTerminal)))
        return .done
    }

    /// One line per version, the current one marked.
    /// - Parameter whole: each command in full, for a pipe; at a terminal a long one is clipped to fit.
    public static func render(_ state: SessionState, whole: Bool = false) -> String {
        guard !state.versions.isEmpty else { return "No versions yet; type /generate to write the first plan." }
        var lines: [String] = []
        for version in state.versions {
            let marker = version.number == state.currentVersion ? "→" : " "
            let from = version.parent.map { version.parentLost ? " (from v\($0), whose line is damaged)" : " (from v\($0))" } ?? ""
            let replacing = version.draft.map { ", replacing v\($0)" } ?? ""
            let framework = version.framework == Framework.defaultName ? "" : " · \(version.framework)"
            lines.append(
                "\(marker) v\(version.number)  \(version.inputs.grade.rawValue) · \(version.inputs.minutes) min\(framework)  \(whole ? TextTable.wholeCell(version.command) : TerminalSanitizer.cleanLine(version.command, limit: 60))\(replacing)\(from)")
        }
        return lines.joined(separator: "\n")
    }
}
