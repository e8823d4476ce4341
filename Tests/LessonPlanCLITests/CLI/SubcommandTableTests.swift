import Foundation
import Testing

@testable import LessonPlanCLI
@testable import LessonPlanCore
@testable import LessonPlanKit

/// The subcommand table decides what a command line runs and what help it prints; a recording host shows
/// both without a terminal or a process.
@Suite struct SubcommandTableTests {
    /// What the table asked of the executable.
    final class RecordingHost: SubcommandHost {
        var pages: [String] = []
        var lines: [String] = []
        var errors: [String] = []
        /// The subcommand that ran, by its host method, and what it was given.
        var ran: [(name: String, parsed: ParsedArguments)] = []

        func page(_ text: String) { pages.append(text) }
        func line(_ text: String) { lines.append(text) }
        func error(_ message: String) { errors.append(message) }

        private func record(_ name: String, _ parsed: ParsedArguments) -> Int32 {
            ran.append((name, parsed))
            return 0
        }
        func session(_ parsed: ParsedArguments) async -> Int32 { record("lessonplan", parsed) }
        func generate(_ parsed: ParsedArguments) async -> Int32 { record("generate", parsed) }
        func unit(_ parsed: ParsedArguments) async -> Int32 { record("unit", parsed) }
        func resume(_ parsed: ParsedArguments) async -> Int32 { record("resume", parsed) }
        func sessions(_ parsed: ParsedArguments) async -> Int32 { record("sessions", parsed) }
        func replay(_ parsed: ParsedArguments) async -> Int32 { record("replay", parsed) }
        func export(_ parsed: ParsedArguments) async -> Int32 { record("export", parsed) }
        func doctor(_ parsed: ParsedArguments) async -> Int32 { record("doctor", parsed) }
        func classes(_ parsed: ParsedArguments) -> Int32 { record("class", parsed) }
        func results(_ parsed: ParsedArguments) -> Int32 { record("results", parsed) }
    }

    /// Runs `arguments` on a fresh recording host.
    static func run(_ arguments: [String]) async -> (status: Int32, host: RecordingHost) {
        let host = RecordingHost()
        let status = await SubcommandTable.run(arguments, on: host)
        return (status, host)
    }

    @Test func namesAreUniqueAndEachIsFoundByItsName() {
        let names = SubcommandTable.all.map(\.name)
        #expect(names == ["generate", "unit", "resume", "sessions", "replay", "export", "results", "standards", "class", "doctor", "help"])
        #expect(Set(names).count == names.count)
        for name in names { #expect(SubcommandTable.named(name)?.name == name) }
        #expect(SubcommandTable.named("lessonplan") == nil, "the session is not a subcommand")
    }

    // `standards` runs in the library, not through a host method (it needs no key and no network).
    @Test(arguments: SubcommandTable.all.filter { $0.flags != nil && $0.name != "standards" }.map(\.name) + ["lessonplan"])
    func eachSubcommandRunsItsOwnHostMethod(name: String) async {
        let arguments = name == "lessonplan" ? ["--topic", "Tides"] : [name, "x"]
        let (status, host) = await Self.run(arguments)
        #expect(status == 0)
        #expect(host.ran.map(\.name) == [name])
        #expect(host.pages.isEmpty && host.errors.isEmpty)
    }

    @Test func aSubcommandGetsItsFlagsParsed() async throws {
        let (_, host) = await Self.run(["generate", "--topic", "Tides", "--then", "/shorten 30", "--then", "/materials", "--no-repair"])
        let parsed = try #require(host.ran.first?.parsed)
        #expect(parsed.value("topic") == "Tides")
        #expect(parsed.all("then") == ["/shorten 30", "/materials"])
        #expect(parsed.has("no-repair"))
        let (_, exported) = await Self.run(["export", "tides", "--format", "md", "-o", "plan.md"])
        #expect(exported.ran.first?.parsed.value("output") == "plan.md")
    }

    @Test func flagsItCannotUseStopItBeforeItRuns() async {
        let (status, host) = await Self.run(["generate", "--bogus"])
        #expect(status == 2 && host.ran.isEmpty)
        #expect(host.errors == ["generate: unknown flag --bogus; run `lessonplan help generate` for the flags it takes."])
        let (rootStatus, root) = await Self.run(["--bogus"])
        #expect(rootStatus == 2 && root.ran.isEmpty)
        #expect(root.errors == ["lessonplan: unknown flag --bogus; run `lessonplan --help` for the flags it takes."])
    }

    @Test func aMistypedSubcommandIsNamedWithTheNearestOne() async {
        let (status, host) = await Self.run(["sesions"])
        #expect(status == 2 && host.ran.isEmpty)
        #expect(
            host.errors == ["“sesions” is not a lessonplan command; did you mean `lessonplan sessions`? Run `lessonplan --help` to see them all."])
        for (typed, meant) in [("genrate", "generate"), ("exprt", "export"), ("replya", "replay"), ("doctr", "doctor"), ("hlp", "help")] {
            let (_, typo) = await Self.run([typed])
            #expect(typo.errors.first?.contains("did you mean `lessonplan \(meant)`?") == true, "\(typed)")
        }
        let (farStatus, far) = await Self.run(["photosynthesis"])
        #expect(farStatus == 2)
        #expect(far.errors == ["“photosynthesis” is not a lessonplan command; run `lessonplan --help` to see them."])
    }

    @Test func theVersionIsOneLine() async {
        for flag in ["--version", "-V"] {
            let (status, host) = await Self.run([flag])
            #expect(status == 0 && host.lines == ["lessonplan \(Invocation.version)"] && host.ran.isEmpty)
        }
    }

    /// `lessonplan help X`, `lessonplan X --help` and `lessonplan X -h` print the one page the table declares.
    @Test(arguments: SubcommandTable.all.map(\.name))
    func theThreeHelpFormsPrintTheSamePage(name: String) async throws {
        let subcommand = try #require(SubcommandTable.named(name))
        for arguments in [["help", name], [name, "--help"], [name, "-h"]] {
            let (status, host) = await Self.run(arguments)
            #expect(status == 0, "\(arguments)")
            #expect(host.pages == [subcommand.help], "\(arguments)")
            #expect(host.ran.isEmpty && host.errors.isEmpty, "\(arguments)")
        }
        #expect(subcommand.help.hasPrefix("Usage: lessonplan \(name)"))
    }

    @Test func theOverviewListsEveryWayToCallEverySubcommand() async {
        let overview = Help.overview()
        for form in SubcommandTable.session.forms + SubcommandTable.all.flatMap(\.forms) {
            #expect(overview.contains("  \(form.usage)\n      \(form.summary)\n"), "\(form.usage)")
        }
        for arguments in [["--help"], ["-h"], ["help"], ["--topic", "Tides", "--help"]] {
            let (status, host) = await Self.run(arguments)
            #expect(status == 0 && host.pages == [overview] && host.ran.isEmpty, "\(arguments)")
        }
    }

    @Test func everyFlagAPageDescribesIsOneItTakes() {
        for subcommand in SubcommandTable.all {
            guard case .blocks(let blocks) = subcommand.page else { continue }
            let taken = Set((subcommand.flags ?? []).map(\.name))
            for case .flags(let names?) in blocks {
                #expect(Set(names).isSubset(of: taken), "\(subcommand.name): \(names.filter { !taken.contains($0) })")
            }
        }
    }

    @Test func thenHasOneDescriptionForParsingAndForHelp() throws {
        let then = try #require(SubcommandTable.generate.flags?.first { $0.name == "then" })
        #expect(then.help == Flags.then.help && !then.help.isEmpty && then.repeatable)
        let line = SubcommandTable.generate.help.split(separator: "\n").first { $0.hasPrefix("  --then COMMAND ") }
        #expect(line?.hasSuffix(" " + then.help) == true)
    }

    @Test func helpShowsASlashCommandOrSaysThereIsNone() async throws {
        let shorten = try CommandTable.helpText(for: "shorten")
        let (status, host) = await Self.run(["help", "shorten"])
        #expect(status == 0 && host.pages == [shorten])
        let (slashStatus, slash) = await Self.run(["help", "/shorten"])
        #expect(slashStatus == 0 && slash.pages == host.pages)
        let (missingStatus, missing) = await Self.run(["help", "nosuch"])
        #expect(missingStatus == 2)
        #expect(missing.errors == ["No help for “nosuch”: it is neither a lessonplan command nor a slash command; run `lessonplan --help`."])
        // The session's own flags are the overview's, so help for lessonplan itself is the overview.
        let (ownStatus, own) = await Self.run(["help", "lessonplan"])
        let (_, overview) = await Self.run(["--help"])
        #expect(ownStatus == 0 && own.errors.isEmpty && !overview.pages.isEmpty && own.pages == overview.pages)
    }
}
