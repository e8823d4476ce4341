import Foundation

/// `/diff [A [B]]`: what changed between two versions.
public enum DiffCommand: SlashCommand {
    public static let name = "diff"
    public static let usage = "/diff [A [B]]"
    public static let summary = "show what changed between versions (default: previous and current)"

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        let parts = arguments.split(separator: " ").map(String.init)
        switch parts.count {
        case 0:
            return .diff(from: nil, to: nil)
        case 1:
            return .diff(from: try ShowCommand.parseVersion(parts[0], context: context), to: nil)
        case 2:
            return .diff(
                from: try ShowCommand.parseVersion(parts[0], context: context),
                to: try ShowCommand.parseVersion(parts[1], context: context))
        default:
            throw CommandError("/diff takes at most two versions, e.g. /diff 1 3.")
        }
    }
}
