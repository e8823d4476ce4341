import Foundation
import LessonPlanCore
import LessonPlanKit
import Testing

@Suite struct CommandTableTests {
    let inputs: LessonInputs
    let context: CommandContext

    init() throws {
        inputs = try LessonInputs(grade: .sixTo8, topic: "Photosynthesis", minutes: 45)
        context = CommandContext(inputs: inputs, currentVersion: 2, versionCount: 2)
    }

    func refinement(_ line: String) throws -> Refinement {
        guard let refinement = (try CommandTable.parse(line, context: context) as? any RequestCommand)?.refinement else {
            Issue.record("\(line) did not parse to a refinement")
            throw CommandError("not a refinement")
        }
        return refinement
    }

    @Test func shortenDefaultsToTwoThirdsRoundedToFive() throws {
        let r = try refinement("/shorten")
        #expect(r.template == "shorten" && r.inputs.minutes == 30)
        let short = CommandContext(inputs: try LessonInputs(grade: .sixTo8, topic: "x", minutes: 14), currentVersion: 1, versionCount: 1)
        guard let floor = (try CommandTable.parse("/shorten", context: short) as? any RequestCommand)?.refinement else { throw CommandError("") }
        #expect(floor.inputs.minutes == 10)
        #expect(try refinement("/shorten 20").inputs.minutes == 20)
    }

    @Test func shortenRejectsLongerOrBadMinutes() {
        #expect(throws: CommandError.self) { try CommandTable.parse("/shorten 50", context: context) }
        #expect(throws: CommandError.self) { try CommandTable.parse("/shorten 5", context: context) }
        #expect(throws: CommandError.self) { try CommandTable.parse("/shorten half", context: context) }
    }

    @Test func lengthenDefaultsToHalfAgainCappedAt180() throws {
        #expect(try refinement("/lengthen").inputs.minutes == 70)  // 67.5 → 70
        let long = CommandContext(inputs: try LessonInputs(grade: .sixTo8, topic: "x", minutes: 150), currentVersion: 1, versionCount: 1)
        guard let capped = (try CommandTable.parse("/lengthen", context: long) as? any RequestCommand)?.refinement else { throw CommandError("") }
        #expect(capped.inputs.minutes == 180)
        #expect(throws: CommandError.self) { try CommandTable.parse("/lengthen 30", context: context) }
    }

    @Test(arguments: ["/regrade 3–5", "/regrade 3-5", "/regrade 3 to 5", "/regrade grades 3-5", "/regrade 4", "/REGRADE 3–5"])
    func regradeAcceptsEveryBandForm(line: String) throws {
        let r = try refinement(line)
        #expect(r.template == "regrade" && r.inputs.grade == .threeTo5 && r.inputs.minutes == 45)
    }

    @Test func regradeNeedsAnotherValidBand() {
        #expect(throws: CommandError.self) { try CommandTable.parse("/regrade", context: context) }
        #expect(throws: CommandError.self) { try CommandTable.parse("/regrade 6-8", context: context) }
        do {
            _ = try CommandTable.parse("/regrade 3-6", context: context)
            Issue.record("3-6 accepted")
        } catch {
            #expect(error.message.contains("K–2, 3–5, 6–8 or 9–12"))
        }
    }

    @Test func differentiateFocuses() throws {
        #expect(try refinement("/differentiate").values["focus"]?.contains("advanced learners") == true)
        #expect(try refinement("/differentiate ell").values["focus"] == "English language learners")
        #expect(try refinement("/differentiate IEP").values["focus"]?.contains("IEP") == true)
        #expect(throws: CommandError.self) { try CommandTable.parse("/differentiate gifted", context: context) }
    }

    @Test func freeTextIsARevision() throws {
        let r = try refinement("add a think-pair-share after the warm-up")
        #expect(r.template == "revise" && r.values["request"] == "add a think-pair-share after the warm-up")
        #expect(try refinement("/revise more visuals").values["request"] == "more visuals")
        #expect(throws: CommandError.self) { try CommandTable.parse("/revise", context: context) }
    }

    @Test func versionCommands() throws {
        #expect(try CommandTable.parse("/undo", context: context) as? UndoCommand == UndoCommand())
        #expect(try CommandTable.parse("/show", context: context) as? ShowCommand == ShowCommand(version: nil))
        #expect(try CommandTable.parse("/show v1", context: context) as? ShowCommand == ShowCommand(version: 1))
        #expect(try CommandTable.parse("/show 2", context: context) as? ShowCommand == ShowCommand(version: 2))
        #expect(throws: CommandError.self) { try CommandTable.parse("/show 3", context: context) }
        #expect(throws: CommandError.self) { try CommandTable.parse("/undo now", context: context) }
        #expect(try CommandTable.parse("/history", context: context) as? HistoryCommand == HistoryCommand())
        #expect(try CommandTable.parse("/quit", context: context) as? QuitCommand == QuitCommand())
        #expect(try CommandTable.parse("/help shorten", context: context) as? HelpCommand == HelpCommand(command: "shorten"))
    }

    @Test func unknownCommandsSayWhatToDo() {
        do {
            _ = try CommandTable.parse("/shor", context: context)
            Issue.record("accepted /shor")
        } catch {
            #expect(error.message == "/shor is not a command; did you mean /shorten? type /help to list them.")
        }
        #expect(throws: CommandError.self) { try CommandTable.parse("/frobnicate", context: context) }
    }

    @Test func refinementsNeedAPlanFirst() throws {
        let empty = CommandContext(inputs: inputs, currentVersion: nil, versionCount: 0)
        #expect(throws: CommandError.self) { try CommandTable.parse("/shorten", context: empty) }
        #expect(throws: CommandError.self) { try CommandTable.parse("make it fun", context: empty) }
        #expect(
            try CommandTable.parse("/generate", context: empty) as? GenerateCommand
                == GenerateCommand(refinement: Refinement(.generate, inputs: inputs)))
        #expect(try CommandTable.parse("/help", context: empty) as? HelpCommand == HelpCommand(command: nil))
    }

    @Test func completionComesFromTheTable() {
        #expect(CommandTable.completions(for: "/reg") == ["/regrade"])
        #expect(Set(CommandTable.completions(for: "/")) == Set(CommandTable.all.map { "/" + $0.name }))
        #expect(CommandTable.completions(for: "/regrade ") == ["K–2", "3–5", "6–8", "9–12"])
        #expect(CommandTable.completions(for: "/regrade 3-") == ["3–5"])
        #expect(CommandTable.completions(for: "/differentiate a") == ["advanced", "all"])
        #expect(CommandTable.completions(for: "/shorten ").isEmpty)
        #expect(CommandTable.completions(for: "plain text").isEmpty)
    }

    @Test func helpListsEveryCommandOnce() throws {
        let help = CommandTable.helpText()
        for command in CommandTable.all {
            let lines = help.split(separator: "\n").filter { $0 == command.usage || $0.hasPrefix(command.usage + "  ") }
            #expect(lines.count == 1, "\(command.usage)")
        }
        #expect(try CommandTable.helpText(for: "/shorten").contains("two thirds"))
        #expect(throws: CommandError.self) { try CommandTable.helpText(for: "nope") }
    }
}

extension Error {
    var message: String { (self as? CommandError)?.message ?? "\(self)" }
}

/// The README's command table is tested against the command types: every command is in it,
/// typed exactly as `/help` shows it.
@Suite struct ReadmeCommandTableTests {
    @Test func everyCommandIsInTheReadmeAsHelpShowsIt() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appending(path: "README.md")
        let text = try String(contentsOf: readme, encoding: .utf8).replacingOccurrences(of: "\\|", with: "|")
        for command in CommandTable.all {
            #expect(
                text.contains("| `\(command.usage)`") || text.contains(", `\(command.usage)`") || text.contains("`\(command.usage)`,"),
                "README's command table lacks `\(command.usage)`")
        }
    }
}
