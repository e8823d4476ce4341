import Foundation
import LessonPlanCore
import LessonPlanStore

/// `/show [N|KIND [N]|repair]`: print the current plan, version N, something a turn made beside it (a quiz with its
/// key, a rubric …; the newest unless its number is given), or the latest repair that was not kept.
package struct ShowCommand: Command, Equatable {
    package static let name = "show"
    package static let usage = "/show [N|KIND [N]|repair]"
    package static let summary =
        "print the current plan, version N, or the newest \(TurnKind.keptNames) (or the one numbered N; a quiz by kind: /show quiz starter), or the last repair not kept"
    package static let argumentCompletions = TurnKind.keptBesidePlan.map(\.rawValue) + ["repair"]

    /// What is printed.
    package enum Subject: Equatable, Sendable {
        /// A plan version; nil for the current one.
        case plan(Int?)
        /// Something a turn made beside the plan, by its number or by a word its kind reads (a quiz's kind); the
        /// newest when neither is given.
        case product(TurnKind, number: Int?, word: String?)
        /// The latest automatic or typed repair (or reading-level retry) whose plan was not kept.
        case repair
    }

    package let subject: Subject

    /// The version to print; nil for the current one (or for what was made beside it).
    package var version: Int? { if case .plan(let number) = subject { number } else { nil } }

    package init(version: Int?) { subject = .plan(version) }

    package init(_ subject: Subject) { self.subject = subject }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        guard !arguments.isEmpty else { return Self(version: nil) }
        let words = arguments.lowercased().split(separator: " ").map(String.init)
        if words == ["repair"] { return Self(.repair) }
        guard let kind = TurnKind.keptBesidePlan.first(where: { $0.rawValue == words[0] || $0.noun == words[0] }), let product = kind.keptKind else {
            return Self(version: try parseVersion(arguments, context: context))
        }
        let noun = words[0]
        guard words.count <= 2 else {
            throw CommandError("/show \(noun) takes at most one number, the \(kind.noun)'s (see /history): e.g. /show \(noun) 2.")
        }
        guard words.count == 2 else { return Self(.product(kind, number: nil, word: nil)) }
        if product.chooses(words[1]) { return Self(.product(kind, number: nil, word: words[1])) }
        guard let number = Int(words[1]), number > 0 else {
            throw CommandError("“\(words[1])” is not a \(kind.noun) number; give the number /history shows, e.g. /show \(noun) 2.")
        }
        return Self(.product(kind, number: number, word: nil))
    }

    /// A version number that exists, written `3` or `v3`.
    static func parseVersion(_ text: String, context: CommandContext) throws(CommandError) -> Int {
        let digits = text.lowercased().hasPrefix("v") ? String(text.dropFirst()) : text
        guard let number = Int(digits), (1...max(1, context.versionCount)).contains(number) else {
            throw CommandError(
                "“\(text)” is not a version; give a number from 1 to \(context.versionCount) (see /history), or \(TurnKind.keptNames).")
        }
        return number
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        let state = await run.engine.state
        switch subject {
        case .product(let kind, let number, let word):
            guard let product = kind.keptKind else { break }
            switch product.show(number, word: word, in: state, width: run.host.columns) {
            case .success(let blocks):
                for block in blocks { run.host.show(block) }
                return .done
            case .failure(let error):
                run.host.error(error.message)
                return .failed
            }
        case .repair:
            guard let tried = Self.lastRepairNotKept(in: state) else {
                run.host.error("No repair was left unkept in this session; /show prints the current plan.")
                return .failed
            }
            run.host.show(tried)
            return .done
        case .plan:
            break
        }
        guard let shown = version.flatMap(state.version) ?? state.current else {
            run.host.error(run.noPlanYet)
            return .failed
        }
        run.host.show(Self.render(shown))
        return .done
    }

    /// The plan of the latest plan turn that was judged and not kept, under a label saying why, or nil.
    static func lastRepairNotKept(in state: SessionState) -> StyledText? {
        guard
            let turn = state.turns.last(where: { summary in
                summary.ended?.kept == false && summary.ended?.status == .completed && (summary.started.kind ?? .plan) == .plan
            }), let ended = turn.ended
        else { return nil }
        let draft = turn.started.follows ?? turn.started.baseVersion
        var label = "── \(turn.started.command) of v\(draft.map(String.init) ?? "?") · turn \(turn.started.turn) · not kept"
        if let check = ended.check { label += " · \(check.summary)" }
        var text = StyledText(label + "\n", style: .dim)
        text.append(ended.output)
        return text
    }

    /// One version under a one-line label.
    package static func render(_ version: PlanVersion) -> StyledText {
        let lost = version.parentLost ? " · made from v\(version.parent ?? 0), whose line is damaged" : ""
        var text = StyledText(
            "── v\(version.number) · \(version.command) · \(version.inputs.grade.rawValue) · \(version.inputs.minutes) min\(lost)\n",
            style: .dim)
        // A table of supports (`/accommodate`) a student at a time: four columns wrap mid-word at 80.
        let shown = AccommodateCommand.readable(version.text)
        text.append(shown.hasSuffix("\n") ? String(shown.dropLast()) : shown)
        return text
    }
}
