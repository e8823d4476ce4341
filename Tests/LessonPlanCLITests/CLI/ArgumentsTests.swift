import Foundation
import Testing

@testable import LessonPlanCLI
@testable import LessonPlanKit

/// Reading a command line against the flags a subcommand declares: values, switches, one-letter forms, and
/// the sentence for a flag that is not there or has no value.
@Suite struct ArgumentsTests {
    static let export = SubcommandTable.export.flags ?? []
    static let generate = SubcommandTable.generate.flags ?? []

    @Test func valuesSwitchesAndPositionalsAreToldApart() throws {
        let parsed = try ParsedArguments.parse(
            ["tides", "--format", "html", "--force", "--prompts=./mine", "extra"], specs: Self.export, command: "export")
        #expect(parsed.positionals == ["tides", "extra"])
        #expect(parsed.value("format") == "html")
        #expect(parsed.value("prompts") == "./mine")
        #expect(parsed.has("force") && !parsed.has("materials"))
    }

    @Test func aRepeatedFlagKeepsEveryValueInOrderAndTheLastIsItsValue() throws {
        let parsed = try ParsedArguments.parse(
            ["--topic", "Tides", "--then", "/shorten 30", "--then=/materials"], specs: Self.generate, command: "generate")
        #expect(parsed.all("then") == ["/shorten 30", "/materials"])
        #expect(parsed.value("then") == "/materials")
        #expect(parsed.value("topic") == "Tides")
    }

    @Test func oneLetterFormsAreTheFlagsTheyStandFor() throws {
        let short = try ParsedArguments.parse(["tides", "-o", "plan.md", "-h"], specs: Self.export, command: "export")
        let long = try ParsedArguments.parse(["tides", "--output", "plan.md", "--help"], specs: Self.export, command: "export")
        #expect(short == long)
        #expect(short.value("output") == "plan.md" && short.has("help"))
        // A letter no flag declares is a word like any other, for the subcommand to refuse.
        let other = try ParsedArguments.parse(["-x", "-o"], specs: Self.generate, command: "generate")
        #expect(other.positionals == ["-x", "-o"])
    }

    @Test func aSwapOfTwoNeighbouringLettersIsOneEdit() {
        #expect(CommandTable.editDistance("grdae", "grade") == 1)
        #expect(CommandTable.editDistance("gradee", "grade") == 1)
        #expect(CommandTable.editDistance("tpoic", "topic") == 1)
        #expect(CommandTable.editDistance("abc", "ca") == 3)
        #expect(CommandTable.nearest(to: "grdae", among: ["grade", "topic"]) == "grade")
        #expect(CommandTable.nearest(to: "mintues", among: ["minutes", "name"]) == "minutes")
    }

    /// The sentence a command line is refused with, or nil when it parses.
    static func refusal(_ arguments: [String], _ specs: [FlagSpec], _ command: String) -> String? {
        do throws(UsageError) {
            _ = try ParsedArguments.parse(arguments, specs: specs, command: command)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func aFlagWithoutItsValueSaysHowItIsWritten() {
        #expect(Self.refusal(["--topic"], Self.generate, "generate") == "--topic needs a value: --topic TEXT.")
        #expect(Self.refusal(["tides", "-o"], Self.export, "export") == "-o needs a value: -o FILE.")
    }

    @Test func anUnknownFlagNamesTheNearestOneAndWhereToLook() {
        #expect(
            Self.refusal(["--topc", "Tides"], Self.generate, "generate")
                == "generate: unknown flag --topc; did you mean --topic? run `lessonplan help generate` for the flags it takes.")
        #expect(
            Self.refusal(["--zzzz"], Self.export, "export")
                == "export: unknown flag --zzzz; run `lessonplan help export` for the flags it takes.")
        // `-o` is the one-letter form of --output, not a flag of its own.
        #expect(
            Self.refusal(["--o", "plan.md"], Self.export, "export")
                == "export: unknown flag --o; run `lessonplan help export` for the flags it takes.")
    }
}
