import Foundation
import LessonPlanCore
import LessonPlanKit
import Testing

@Suite struct PromptLibraryTests {
    let inputs: LessonInputs

    init() throws {
        inputs = try LessonInputs(grade: .sixTo8, topic: "Photosynthesis", minutes: 45, constraints: "No worksheets")
    }

    @Test func builtInTemplatesCarryTheSeedRules() throws {
        let prompts = PromptLibrary.builtIn
        let values = Refinement(.generate, inputs: inputs).promptValues(currentPlan: nil, currentInputs: nil)
        let text = try prompts.render("generate", values: values)
        for heading in ["1) Learning Objective", "3) Warm-Up (5 min)", "9) Exit Ticket", "10) Homework / Extension (optional)"] {
            #expect(text.contains(heading))
        }
        #expect(text.contains("Grade: grades 6–8"))
        #expect(text.contains("Duration: 45 minutes"))
        #expect(text.contains("at least 3 CFU questions"))
        #expect(text.contains("exit ticket with exactly 3 prompts"))
        #expect(text.contains("The Warm-Up (5 min) section takes 5 minutes."))
        #expect(text.contains("add up to exactly 45 minutes"))
        #expect(text.contains("Constraints (optional): No worksheets"))
        // Empty optional inputs leave no dangling label.
        #expect(!text.contains("Standards (optional)"))
        #expect(!text.contains("{{"))
        try prompts.validate(templates: ["instructions", "rules"] + CommandTable.templates + StructuredPlan.templates)
    }

    @Test func refinementsCarryThePlanNotTheChat() throws {
        let plan = "Learning Objective\nStudents will model how light becomes sugar.\n"
        var target = inputs
        target.minutes = 30
        let values = Refinement(.revise(.shorten), inputs: target).promptValues(currentPlan: plan, currentInputs: inputs)
        let text = try PromptLibrary.builtIn.render("shorten", values: values)
        #expect(text.contains(plan))
        #expect(text.contains("in 30 minutes instead of 45"))
        #expect(text.contains("add up to exactly 30 minutes"))
    }

    @Test func overrideFolderAndItsErrors() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "prompts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "A: {{topic}}\nB: {{standards}}\n".write(to: folder.appending(path: "generate.txt"), atomically: true, encoding: .utf8)
        try "H1\nH2\n".write(to: folder.appending(path: "headings.txt"), atomically: true, encoding: .utf8)
        try "{{headings}}".write(to: folder.appending(path: "rules.txt"), atomically: true, encoding: .utf8)
        let prompts = try PromptLibrary.load(directory: folder)
        #expect(try prompts.render("generate", values: ["topic": "Tides"]) == "A: Tides\n")
        #expect(try prompts.headings() == ["H1", "H2"])
        #expect(try prompts.render("rules", values: [:]) == "1) H1\n2) H2")

        do {
            _ = try prompts.render("shorten", values: [:])
            Issue.record("missing template accepted")
        } catch {
            #expect(error.localizedDescription.contains("shorten.txt"))
            #expect(error.localizedDescription.contains(folder.lastPathComponent))
        }

        try "Hello {{teacher_name}}\n".write(to: folder.appending(path: "revise.txt"), atomically: true, encoding: .utf8)
        let broken = try PromptLibrary.load(directory: folder)
        #expect(throws: PromptError.unknownPlaceholder(placeholder: "teacher_name", file: folder.standardizedFileURL.path + "/revise.txt", line: 1)) {
            try broken.render("revise", values: [:])
        }
        #expect(throws: PromptError.missingDirectory(folder.appending(path: "nope").standardizedFileURL.path)) {
            try PromptLibrary.load(directory: folder.appending(path: "nope"))
        }
    }
}
