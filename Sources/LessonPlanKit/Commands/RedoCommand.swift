import Foundation
import LessonPlanCore
import LessonPlanModel

/// `/redo SECTION [what to change]`: one section of the plan written again, every other section kept byte for
/// byte, so a teacher pays for and waits through one section, not ten.
package struct RedoCommand: Command, Equatable {
    package static let name = "redo"
    package static let usage = "/redo SECTION [what to change]"
    package static let summary = "write one section again (by name, prefix or number); the rest stays exactly as it is"
    package static let details = """
        SECTION is a heading (warm-up, exit ticket), an unambiguous start of one (dir), or its number (6). The
        model is asked for that section alone, with the whole plan as context and the section's time and rules;
        its answer is put in place of the old section, and every other section is checked by code to be the same
        byte for byte before the version is kept. The footer says what changed. A change of the section's time
        that would break the pacing is refused before anything is sent (use /shorten or /lengthen). The new
        plan is checked like any other, but not repaired whole unasked; /repair asks for that.
        """
    package static let asksTheModel = true
    package static let templates = ["redo"]

    /// What was typed after `/redo`: the section, then what to change.
    package let arguments: String

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        guard !arguments.isEmpty else {
            throw CommandError("/redo needs a section, e.g. /redo warm-up more hands-on, /redo exit ticket or /redo 6.")
        }
        guard arguments.count <= LessonInputs.optionalFieldLimit else {
            throw CommandError("That request is \(arguments.count) characters long; keep it to \(LessonInputs.optionalFieldLimit).")
        }
        return Self(arguments: arguments)
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        let state = await run.engine.state
        guard let current = state.current, let framework = try? await run.engine.framework(of: current) else {
            run.host.error("There is no plan yet; type /generate to write one.")
            return .failed
        }
        let redo: SectionRedo
        do {
            redo = try Self.redo(arguments, plan: current, framework: framework)
        } catch {
            run.host.error(error.message)
            return .failed
        }
        let refinement = Refinement(.redo(redo), inputs: current.inputs, framework: current.framework)
        let (outcome, result) = await run.requestResult(refinement, waiting: "writing \(redo.heading)…")
        guard result.first.status == .completed, let now = await run.engine.state.current, now.number != current.number
        else { return outcome }
        run.host.show(StyledText(Self.changeLine(from: current.text, to: now.text, framework: framework), style: .dim))
        return outcome
    }

    /// "changed: Warm-Up; 9 sections unchanged", read from the two plans by code.
    static func changeLine(from old: String, to new: String, framework: Framework) -> String {
        let changed = SectionSplice.changedSections(from: old, to: new, headings: framework.headings)
        let present = Set(PlanDocument(parsing: old, headings: framework.headings).sections.map(\.heading))
        let kept = present.subtracting(changed).count
        let names = changed.map { Self.shown($0) }
        return "changed: \(names.isEmpty ? "nothing" : names.joined(separator: ", ")); \(kept) \(kept == 1 ? "section" : "sections") unchanged"
    }

    /// The section named by the start of `arguments`, with its time and rules, and what to change.
    /// - Throws: ``CommandError`` for a section the plan does not have, an ambiguous one, or a change of its time
    ///   that the pacing cannot take.
    static func redo(_ arguments: String, plan: PlanVersion, framework: Framework) throws(CommandError) -> SectionRedo {
        let document = framework.document(of: plan.text)
        let (heading, request) = try section(named: arguments, framework: framework)
        guard let section = document.section(heading) else {
            throw CommandError("This plan has no \(Self.shown(heading)) section; /revise asks for the whole plan.")
        }
        let minutes = framework.pacing(of: document).first { $0.heading == heading }.map { $0.end - $0.start }
        if let minutes, let asked = MinuteText.times(in: request, clock: .firstHour).durations.first, asked != minutes {
            let total = plan.inputs.minutes - minutes + asked
            throw CommandError(
                "\(Self.shown(heading)) takes \(minutes) minutes; making it \(asked) would make the lesson \(total) minutes, not \(plan.inputs.minutes). Nothing was sent: /redo keeps each section's time, so use /shorten or /lengthen, or /revise to move time between sections."
            )
        }
        return SectionRedo(
            section: written(section), heading: heading,
            minutes: minutes, request: request, rules: rules(for: heading, framework: framework))
    }

    /// Which heading the start of `arguments` names, and the words after it.
    static func section(named arguments: String, framework: Framework) throws(CommandError)
        -> (heading: String, request: String)
    {
        let headings = framework.headings
        let words = arguments.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if let first = words.first, let number = Int(first) {
            guard (1...headings.count).contains(number) else {
                throw CommandError("The plan has sections 1 to \(headings.count); /redo \(min(number, headings.count)) names the last.")
            }
            return (headings[number - 1], words.dropFirst().joined(separator: " "))
        }
        // The longest start of the words that names exactly one heading: "warm-up more hands-on" names Warm-Up.
        for count in stride(from: min(words.count, 4), through: 1, by: -1) {
            let typed = PlanDocument.key(words.prefix(count).joined(separator: " "))
            guard !typed.isEmpty else { continue }
            let matches = headings.filter { PlanDocument.key($0).hasPrefix(typed) }
            if matches.count == 1 { return (matches[0], words.dropFirst(count).joined(separator: " ")) }
            if matches.count > 1, count == 1 {
                throw CommandError(
                    "“\(words[0])” could be \(matches.map(Self.shown).joined(separator: " or ")); type more of the name, or its number.")
            }
        }
        let list = headings.enumerated().map { "\($0.offset + 1) \(Self.shown($0.element))" }.joined(separator: ", ")
        throw CommandError("/redo starts with the section to write again: \(list).")
    }

    /// A section's heading line as the plan writes it (`Warm-Up (0–5 min)`), without Markdown marks: what the
    /// answer is asked to repeat.
    static func written(_ section: PlanSection) -> String {
        section.title.trimmingCharacters(in: CharacterSet(charactersIn: "#*_ "))
    }

    /// A heading as sentences name it, without a stated time: `Warm-Up` for `Warm-Up (5 min)`.
    static func shown(_ heading: String) -> String { StructuredPlan.withoutStatedTime(heading) }

    /// The framework's rules for one section, as the whole plan's prompt states them.
    static func rules(for heading: String, framework: Framework) -> String {
        var rules: [String] = []
        if heading == framework.cfuHeading {
            rules.append("- Provide at least \(framework.cfuQuestions) questions students answer, numbered.")
        }
        if heading == framework.exitTicketHeading {
            rules.append("- Provide exactly \(framework.exitTicketPrompts) prompts students answer on their own, numbered.")
        }
        if heading == framework.warmUpHeading, let minutes = framework.warmUpMinutes {
            rules.append("- It takes \(minutes) minutes.")
        }
        return rules.joined(separator: "\n")
    }
}
