import LessonPlanCore
import LessonPlanKit
import Testing

@Suite struct QualityCommandsTests {
    let inputs: LessonInputs
    let context: CommandContext
    let frameworks = ["default", "5e", "gradual-release", "hunter", "ubd"]

    init() throws {
        inputs = try LessonInputs(grade: .sixTo8, topic: "Density", minutes: 45)
        context = CommandContext(
            inputs: inputs, currentVersion: 2, versionCount: 2, framework: "default", frameworks: frameworks)
    }

    @Test func viewsTakeNoArguments() throws {
        #expect(try CommandTable.parse("/check", context: context) as? CheckCommand == CheckCommand())
        #expect(try CommandTable.parse("/pacing", context: context) as? PacingCommand == PacingCommand())
        #expect(try CommandTable.parse("/level", context: context) as? LevelCommand == LevelCommand())
        #expect(throws: CommandError.self) { try CommandTable.parse("/pacing wide", context: context) }
        let empty = CommandContext(inputs: inputs, currentVersion: nil, versionCount: 0)
        for line in ["/check", "/pacing", "/level", "/materials", "/standards x"] {
            #expect(throws: CommandError.self) { try CommandTable.parse(line, context: empty) }
        }
    }

    @Test func repairNowOrSwitchTheAutomaticOne() throws {
        #expect(try CommandTable.parse("/repair", context: context) as? RepairCommand == RepairCommand(automatic: nil))
        #expect(try CommandTable.parse("/repair OFF", context: context) as? RepairCommand == RepairCommand(automatic: false))
        let empty = CommandContext(inputs: inputs, currentVersion: nil, versionCount: 0)
        #expect(try CommandTable.parse("/repair on", context: empty) as? RepairCommand == RepairCommand(automatic: true))
        #expect(throws: CommandError("/repair needs a plan first; type /generate to write one.")) {
            try CommandTable.parse("/repair", context: empty)
        }
        #expect(throws: CommandError.self) { try CommandTable.parse("/repair maybe", context: context) }
    }

    @Test func frameworkConvertsListsOrStartsAPlan() throws {
        #expect(try CommandTable.parse("/framework", context: context) as? FrameworkCommand == FrameworkCommand(refinement: nil))
        #expect(
            try CommandTable.parse("/framework 5E", context: context) as? FrameworkCommand
                == FrameworkCommand(refinement: Refinement(.revise(.convert), inputs: inputs, framework: "5e")))
        let empty = CommandContext(inputs: inputs, currentVersion: nil, versionCount: 0, frameworks: frameworks)
        #expect(
            try CommandTable.parse("/framework hunter", context: empty) as? FrameworkCommand
                == FrameworkCommand(refinement: Refinement(.generate, inputs: inputs, framework: "hunter")))
        #expect(throws: CommandError("“montessori” is not a framework; use default, 5e, gradual-release, hunter, ubd.")) {
            try CommandTable.parse("/framework montessori", context: context)
        }
        #expect(throws: CommandError.self) { try CommandTable.parse("/framework default", context: context) }
    }

    @Test func standardsBecomeTheLessonsStandards() throws {
        guard let refinement = (try CommandTable.parse("/standards  RI.4.1 Refer to details ", context: context) as? any RequestCommand)?.refinement
        else { throw CommandError("not a refinement") }
        // The code is looked up: its published text goes out (the teacher's words begin it, so nothing is added).
        #expect(
            refinement.template == "standards"
                && refinement.inputs.standards.hasPrefix("RI.4.1: Refer to details and examples in a text when explaining"))
        #expect(!refinement.inputs.standards.contains(" — "))
        #expect(throws: CommandError.self) { try CommandTable.parse("/standards", context: context) }
        let long = String(repeating: "x", count: 1001)
        #expect(throws: CommandError.self) { try CommandTable.parse("/standards \(long)", context: context) }
    }

    @Test func materialsAreHandoutsNotAPlan() throws {
        guard let refinement = (try CommandTable.parse("/materials", context: context) as? any RequestCommand)?.refinement else {
            throw CommandError("not a refinement")
        }
        #expect(refinement.kind == .materials && refinement.template == "materials" && !refinement.measuresReadingLevel)
        #expect(
            try CommandTable.parse("/export materials html out.html", context: context) as? ExportCommand
                == ExportCommand(format: .html, materials: true, path: "out.html"))
        #expect(
            try CommandTable.parse("/export materials md", context: context) as? ExportCommand
                == ExportCommand(format: .md, materials: true, path: nil))
        #expect(
            try CommandTable.parse("/export md materials.md", context: context) as? ExportCommand == ExportCommand(format: .md, path: "materials.md"))
        #expect(throws: CommandError.self) { try CommandTable.parse("/export materials", context: context) }
    }

    @Test func onlyARegradeMeasuresTheReadingLevel() throws {
        guard let regrade = (try CommandTable.parse("/regrade 3-5", context: context) as? any RequestCommand)?.refinement else {
            throw CommandError("not a refinement")
        }
        #expect(regrade.measuresReadingLevel)
        guard let shorten = (try CommandTable.parse("/shorten", context: context) as? any RequestCommand)?.refinement else {
            throw CommandError("not a refinement")
        }
        #expect(!shorten.measuresReadingLevel)
    }

    @Test func tabCompletesFrameworksFromTheTemplates() {
        #expect(CommandTable.completions(for: "/framework ", frameworks: frameworks) == frameworks)
        #expect(CommandTable.completions(for: "/framework g", frameworks: frameworks) == ["gradual-release"])
        #expect(CommandTable.completions(for: "/framework gradual-r", frameworks: frameworks) == ["gradual-release"])
        #expect(CommandTable.completions(for: "/framework ", frameworks: ["default", "tiny"]) == ["default", "tiny"])
        #expect(CommandTable.completions(for: "/repair o") == ["on", "off"])
        #expect(CommandTable.completions(for: "/export m") == ["md", "materials"])
        #expect(CommandTable.completions(for: "/pa") == ["/pacing"])
    }
}
