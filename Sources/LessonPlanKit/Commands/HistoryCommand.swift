import Foundation
import LessonPlanCore

/// `/history`: every version with the command that made it.
package struct HistoryCommand: Command, Equatable {
    package static let name = "history"
    package static let usage = "/history"
    package static let summary = "list the versions, each with the command that made it; branches as a tree"
    package static let needsPlan = false

    package init() {}

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self()
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        run.host.show(StyledText(Self.render(await run.engine.state, whole: !run.host.showsOnTerminal)))
        return .done
    }

    /// One line per version, the current one marked.
    /// - Parameter whole: each command in full, for a pipe; at a terminal a long one is clipped to fit.
    package static func render(_ state: SessionState, whole: Bool = false) -> String {
        guard !state.versions.isEmpty else { return "No versions yet; type /generate to write the first plan." }
        // With a branch (a version that two were made from), the versions are drawn as the tree they are.
        let children = Dictionary(grouping: state.versions.filter { $0.parent != nil }) { $0.parent ?? 0 }
        // A draft an automatic repair replaced shares its parent with the repair: that is no branch of the teacher's.
        let replaced = Set(state.versions.compactMap(\.draft))
        let branched = children.values.contains { $0.filter { !replaced.contains($0.number) }.count > 1 }
        let ordered = branched ? treeOrder(state.versions, children: children) : state.versions.map { ($0, 0) }
        var lines: [String] = []
        for (version, depth) in ordered {
            let marker =
                (version.number == state.currentVersion ? "→" : " ") + String(repeating: "  ", count: max(0, depth - 1))
                + (depth > 0 ? " └" : "")
            let from = version.parent.map { version.parentLost ? " (from v\($0), whose line is damaged)" : " (from v\($0))" } ?? ""
            let replacing = version.draft.map { ", replacing v\($0)" } ?? ""
            let framework = version.framework == Framework.defaultName ? "" : " · \(version.framework)"
            lines.append(
                "\(marker) v\(version.number)  \(version.inputs.grade.rawValue) · \(version.inputs.minutes) min\(framework)  \(whole ? TextTable.wholeCell(version.command) : TerminalSanitizer.cleanLine(version.command, limit: 60))\(replacing)\(from)"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// The versions depth first from each first plan, each with its depth on the tree (0 for a root); a version
    /// whose parent is missing (a damaged line) is a root of its own.
    static func treeOrder(_ versions: [PlanVersion], children: [Int: [PlanVersion]]) -> [(PlanVersion, Int)] {
        let numbers = Set(versions.map(\.number))
        var ordered: [(PlanVersion, Int)] = []
        func visit(_ version: PlanVersion, _ depth: Int) {
            ordered.append((version, depth))
            for child in (children[version.number] ?? []).sorted(by: { $0.number < $1.number }) { visit(child, depth + 1) }
        }
        for root in versions where root.parent.map({ !numbers.contains($0) }) ?? true { visit(root, 0) }
        return ordered
    }
}
