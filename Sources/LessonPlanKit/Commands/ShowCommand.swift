import Foundation

/// `/show [N]`: print the current plan or version N.
public enum ShowCommand: SlashCommand {
    public static let name = "show"
    public static let usage = "/show [N]"
    public static let summary = "print the current plan, or version N"

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        guard !arguments.isEmpty else { return .show(version: nil) }
        return .show(version: try parseVersion(arguments, context: context))
    }

    /// A version number that exists, written `3` or `v3`.
    static func parseVersion(_ text: String, context: CommandContext) throws(CommandError) -> Int {
        let digits = text.lowercased().hasPrefix("v") ? String(text.dropFirst()) : text
        guard let number = Int(digits), (1...max(1, context.versionCount)).contains(number) else {
            throw CommandError("“\(text)” is not a version; give a number from 1 to \(context.versionCount) (see /history).")
        }
        return number
    }
}
