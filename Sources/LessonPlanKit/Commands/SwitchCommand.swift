import Foundation
import LessonPlanCore

/// `/switch N` and `/fork [N]`: versions are a tree (each made from the one that was current), and these move
/// along it, so two directions can be tried from one version and compared with `/diff`.
package struct SwitchCommand: Command, Equatable {
    package static let name = "switch"
    package static let usage = "/switch N"
    package static let summary = "make version N current (any branch); the next command revises it"
    package static let details = """
        Every version remembers the one it was made from, so the versions are a tree: /history draws it, with
        the current version marked. /switch N makes version N current, on whatever branch it is; /undo then
        walks back along that branch, /diff A B compares any two versions, exports take the current one, and
        resume opens the version you last had. /fork N does the same to start a new branch from N.
        """

    package let version: Int
    /// `/fork` rather than `/switch`: the same move, said as the start of a branch.
    package let forks: Bool

    package init(version: Int, forks: Bool = false) {
        self.version = version
        self.forks = forks
    }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        Self(version: try versionNumber(arguments, usage: usage))
    }

    /// The version a `/switch` or `/fork` names: `3` or `v3`.
    static func versionNumber(_ arguments: String, usage: String) throws(CommandError) -> Int {
        let typed = arguments.trimmingCharacters(in: .whitespaces).lowercased()
        guard let number = Int(typed.hasPrefix("v") ? String(typed.dropFirst()) : typed), number >= 1 else {
            throw CommandError("Type \(usage) with a version's number, e.g. /\(usage.dropFirst().prefix { $0 != " " }) 2; /history lists them.")
        }
        return number
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        let command = forks ? "/fork \(version)" : "/switch \(version)"
        do {
            let target = try await run.engine.switchTo(version, command: command)
            let made = target.command.hasPrefix("(") ? String(target.command.dropFirst().dropLast()) : target.command
            let shown = TerminalSanitizer.cleanLine(made, limit: 60)
            run.host.show(
                StyledText(
                    forks
                        ? "Now at v\(target.number) (\(shown)); the next command starts a new branch from it. /history shows the branches."
                        : "Now at v\(target.number) (\(shown)); /show prints it, /history shows the branches."))
            run.host.deliver(.plan)
            return .done
        } catch {
            run.host.error(error.message)
            return .failed
        }
    }
}

/// `/fork [N]`: start a branch from version N (default: the current one): the next command's plan is made
/// from N, and the versions after N on the branch it leaves stay, reachable with `/switch`.
package struct ForkCommand: Command, Equatable {
    package static let name = "fork"
    package static let usage = "/fork [N]"
    package static let summary = "start a new branch from version N (default: the current one)"
    package static let details = """
        The next command's plan is made from version N, and the versions after N stay where they are: /history
        draws them as branches, /switch moves between them, /diff compares across them.
        """

    package let version: Int?

    package init(version: Int?) { self.version = version }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        guard !arguments.trimmingCharacters(in: .whitespaces).isEmpty else { return Self(version: nil) }
        return Self(version: try SwitchCommand.versionNumber(arguments, usage: usage))
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        guard let version, await run.engine.state.currentVersion != version else {
            let current = await run.engine.state.currentVersion ?? 0
            run.host.show(StyledText("The next command starts a new branch from v\(current), the current version; /history shows the branches."))
            return .done
        }
        return await SwitchCommand(version: version, forks: true).run(run)
    }
}
