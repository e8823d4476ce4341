import Foundation
import LessonPlanCore
import LessonPlanDocuments

/// `/diff [A [B]]`: what changed between two versions.
package struct DiffCommand: Command, Equatable {
    package static let name = "diff"
    package static let usage = "/diff [A [B]]"
    package static let summary = "show what changed between versions (default: previous and current)"

    /// The older version; nil for the one the newer was made from.
    package let from: Int?
    /// The newer version; nil for the current one.
    package let to: Int?

    package init(from: Int?, to: Int?) {
        self.from = from
        self.to = to
    }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        let parts = arguments.split(separator: " ").map(String.init)
        switch parts.count {
        case 0:
            return Self(from: nil, to: nil)
        case 1:
            return Self(from: try ShowCommand.parseVersion(parts[0], context: context), to: nil)
        case 2:
            return Self(
                from: try ShowCommand.parseVersion(parts[0], context: context),
                to: try ShowCommand.parseVersion(parts[1], context: context))
        default:
            throw CommandError("/diff takes at most two versions, e.g. /diff 1 3.")
        }
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        let state = await run.engine.state
        guard let current = state.current else {
            run.host.error(run.noPlanYet)
            return .failed
        }
        let new = to.flatMap(state.version) ?? current
        guard let old = from.flatMap(state.version) ?? new.parent.flatMap(state.version) else {
            run.host.error(
                "v\(new.number) is the first version, so there is nothing to compare it with; try /diff 1 \(state.versions.count).")
            return .failed
        }
        var text = StyledText("── v\(old.number) → v\(new.number)\n", style: .dim)
        text.append(DiffRendering.render(old: old.text, new: new.text))
        run.host.show(text)
        return .done
    }
}
