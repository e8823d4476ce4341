import Foundation

/// `/differentiate [ell] [iep] [advanced] | all`: stronger supports for some learners, same objective.
package struct DifferentiateCommand: RequestCommand, Equatable {
    package static let name = "differentiate"
    package static let templates = ["differentiate"]
    package static let usage = "/differentiate [ell|iep|advanced|all]…"
    package static let summary = "strengthen supports for those learners (default all) without lowering the objective"
    package static let details = "Name one focus or several, e.g. /differentiate ell iep."

    /// The focuses and how the prompt names them.
    static let focuses: [(key: String, description: String)] = [
        ("ell", "English language learners"),
        ("iep", "students with IEPs or 504 plans"),
        ("advanced", "advanced learners who need more challenge"),
    ]
    package static var argumentCompletions: [String] { focuses.map(\.key) + ["all"] }

    package let refinement: Refinement

    package init(refinement: Refinement) { self.refinement = refinement }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        let words = arguments.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "," || $0 == "+" }).map(String.init)
            .filter { $0 != "and" }
        var chosen: [(key: String, description: String)] = []
        for word in words where word != "all" {
            guard let focus = focuses.first(where: { $0.key == word }) else {
                throw CommandError("“\(word)” is not a focus for /differentiate; use ell, iep, advanced or all (several are fine).")
            }
            if !chosen.contains(where: { $0.key == focus.key }) { chosen.append(focus) }
        }
        if chosen.isEmpty { chosen = focuses }
        var names = chosen.map(\.description)
        let last = names.removeLast()
        let description = names.isEmpty ? last : names.joined(separator: ", ") + (names.count > 1 ? "," : "") + " and " + last
        return Self(refinement: Refinement(.revise(.differentiate), inputs: context.inputs, values: ["focus": description]))
    }
}
