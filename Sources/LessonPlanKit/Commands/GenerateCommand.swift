import Foundation

/// `/generate`: write a fresh plan from the current inputs, keeping the old versions.
public struct GenerateCommand: RequestCommand, Equatable {
    public let refinement: Refinement

    public init(refinement: Refinement) { self.refinement = refinement }

    public static let name = "generate"
    public static let templates = ["generate"]
    public static let usage = "/generate"
    public static let summary = "write a new plan from scratch for the current inputs (old versions stay)"
    public static let needsPlan = false

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self(refinement: Refinement(.generate, inputs: context.inputs))
    }
}
