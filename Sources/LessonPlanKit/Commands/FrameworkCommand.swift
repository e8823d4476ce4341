import Foundation
import LessonPlanCore

/// `/framework [name]`: which lesson structure the plan follows, and converting it to another.
package struct FrameworkCommand: Command, Equatable {
    package static let name = "framework"
    package static let asksTheModel = true
    package static let templates = ["convert"]
    package static let usage = "/framework [name]"
    package static let summary = "rewrite the plan in another lesson structure; without a name, list them"
    package static let details = """
        Without a name it lists the frameworks and marks the current one. Before the first plan it writes one
        in that framework. Each framework is a folder under prompts/frameworks/ (the default is prompts/headings.txt).
        """
    package static let needsPlan = false

    /// The request that rewrites the plan; nil to list the frameworks.
    package let refinement: Refinement?

    package init(refinement: Refinement?) { self.refinement = refinement }

    package static func argumentCompletions(frameworks: [String]) -> [String] { frameworks }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        guard !arguments.isEmpty else { return Self(refinement: nil) }
        let name = arguments.lowercased()
        guard context.frameworks.contains(name) else {
            throw CommandError(
                "“\(arguments)” is not a framework; use \(context.frameworks.joined(separator: ", ")).")
        }
        guard context.currentVersion != nil else {
            return Self(refinement: Refinement(.generate, inputs: context.inputs, framework: name))
        }
        guard name != context.framework else {
            throw CommandError("The plan already follows the \(name) framework; name another one (/framework lists them).")
        }
        return Self(refinement: Refinement(.revise(.convert), inputs: context.inputs, framework: name))
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        if let refinement { return await run.request(refinement) }
        let prompts = run.engine.prompts
        let current = await run.engine.state.currentFramework
        var lines: [String] = []
        for name in prompts.frameworkNames {
            let marker = name == current ? "→" : " "
            if let framework = try? prompts.framework(name) {
                lines.append("\(marker) \(name.padding(toLength: 16, withPad: " ", startingAt: 0))\(framework.headings.joined(separator: " · "))")
            } else {
                lines.append("\(marker) \(name)")
            }
        }
        lines.append("/framework NAME rewrites the plan in that structure.")
        run.host.show(StyledText(lines.joined(separator: "\n")))
        return .done
    }
}
