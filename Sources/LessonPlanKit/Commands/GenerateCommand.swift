import Foundation

/// `/generate`: write a fresh plan from the current inputs, keeping the old versions.
package struct GenerateCommand: RequestCommand, Equatable {
    package let refinement: Refinement

    package init(refinement: Refinement) { self.refinement = refinement }

    package static let name = "generate"
    package static let templates = ["generate"]
    package static let usage = "/generate"
    package static let summary = "write a new plan from scratch for the current inputs (old versions stay)"
    package static let needsPlan = false

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self(refinement: Refinement(.generate, inputs: context.inputs))
    }
}
