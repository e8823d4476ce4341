import Foundation

/// `/export md|html|json [FILE]`: the current plan as a document.
public enum ExportCommand: SlashCommand {
    public static let name = "export"
    public static let usage = "/export md|html|json [FILE]"
    public static let summary = "write the plan as Markdown, a printable HTML page, or JSON (to FILE or the screen)"
    public static let details = "An existing FILE is not overwritten; choose another name or use `lessonplan export … --force`."
    public static var argumentCompletions: [String] { ExportFormat.allCases.map { $0.rawValue } }

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        let parts = arguments.split(separator: " ", maxSplits: 1).map(String.init)
        guard let first = parts.first, let format = ExportFormat(text: first) else {
            throw CommandError("/export needs a format: /export md, /export html or /export json, then an optional file name.")
        }
        let path = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
        return .export(format: format, path: path?.isEmpty == true ? nil : path)
    }
}
