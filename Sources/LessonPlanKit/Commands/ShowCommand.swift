import Foundation

/// `/show [N]`: print the current plan or version N.
public struct ShowCommand: Command, Equatable {
    public static let name = "show"
    public static let usage = "/show [N]"
    public static let summary = "print the current plan, or version N"

    /// The version to print; nil for the current one.
    public let version: Int?

    public init(version: Int?) { self.version = version }

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        guard !arguments.isEmpty else { return Self(version: nil) }
        return Self(version: try parseVersion(arguments, context: context))
    }

    /// A version number that exists, written `3` or `v3`.
    static func parseVersion(_ text: String, context: CommandContext) throws(CommandError) -> Int {
        let digits = text.lowercased().hasPrefix("v") ? String(text.dropFirst()) : text
        guard let number = Int(digits), (1...max(1, context.versionCount)).contains(number) else {
            throw CommandError("“\(text)” is not a version; give a number from 1 to \(context.versionCount) (see /history).")
        }
        return number
    }

    public func run(_ run: CommandRun) async -> CommandOutcome {
        let state = await run.engine.state
        guard let shown = version.flatMap(state.version) ?? state.current else {
            run.host.error("There is no plan yet; type /generate to write one.")
            return .failed
        }
        run.host.show(Self.render(shown))
        return .done
    }

    /// One version under a one-line label.
    public static func render(_ version: PlanVersion) -> StyledText {
        let lost = version.parentLost ? " · made from v\(version.parent ?? 0), whose line is damaged" : ""
        var text = StyledText(
            "── v\(version.number) · \(version.command) · \(version.inputs.grade.rawValue) · \(version.inputs.minutes) min\(lost)\n",
            style: .dim)
        text.append(version.text.hasSuffix("\n") ? String(version.text.dropLast()) : version.text)
        return text
    }
}
