import Foundation
import LessonPlanCore
import LessonPlanKit
import TestSupport
import Testing

/// A unit written on the in-memory model: the overview checked (and repaired once), then each lesson a plan
/// turn whose request carries the overview and the objectives of the lessons before it.
@Suite struct UnitEngineTests {
    @Test func aThreeLessonUnitWritesEachLessonWithTheOverviewAndTheEarlierObjectives() async throws {
        let model = ScriptedModel([.text(UnitFixtures.overview)])
        let fixture = try await SessionEngineTests.Fixture(model: model)
        defer { fixture.home.remove() }
        let engine = fixture.engine

        let overview = await engine.writeOverview(lessons: 3, inputs: fixture.inputs, framework: "default", repair: true) { _ in }
        #expect(overview.failure == nil)
        #expect(overview.unit?.outline.map(\.title) == ["Unit fractions", "Equivalent fractions", "Comparing fractions"])
        #expect(overview.outcomes.count == 1 && overview.outcomes.first?.assessmentProblems == [])

        for number in 1...3 {
            let result = await engine.writeLesson(number, options: FollowUpOptions()) { _ in }
            // Each plan passes its check the first time, so no repair follows.
            #expect(result.outcomes.count == 1)
            #expect(result.first.status == .completed && result.first.check?.passed == true, "lesson \(number)")
        }

        let sent = model.inputs
        #expect(sent.count == 4)
        #expect(sent[0].contains("Plan a unit of 3 lessons"))
        // The overview goes out with instructions for an overview, each lesson with a plan's.
        #expect(model.instructions[0].contains("planning a unit of lessons") && !model.instructions[0].contains("lesson plan only"))
        #expect(model.instructions[1].contains("Produce a practical lesson plan"))
        let planObjective = "Students will be able to explain the key ideas of Tides and apply them to a new example."
        for number in 1...3 {
            let input = sent[number]
            // The whole overview, and this lesson's own outline.
            #expect(input.contains("Lesson 3: Comparing fractions\nObjective: Students will compare two fractions"), "lesson \(number)")
            #expect(input.contains("This lesson: Lesson \(number): "), "lesson \(number)")
            // The lessons before it, each with the objective its written plan states.
            for earlier in 1..<number {
                #expect(input.contains("- Lesson \(earlier): "), "lesson \(number) names lesson \(earlier)")
            }
            #expect(input.contains("Objective: \(planObjective)") == (number > 1), "lesson \(number)")
            #expect(input.contains("(none: this is the first lesson)") == (number == 1))
        }

        // The transcript holds one unit line and a version per lesson; a resumed session reads them back.
        let state = try await fixture.reread()
        #expect(state.unit?.lessons == 3 && state.unit?.turn == 1)
        #expect(state.lessonVersions == [1: 1, 2: 2, 3: 3])
        #expect(state.versions.map(\.lesson) == [1, 2, 3])
        #expect(state.turns.map(\.started.lesson) == [nil, 1, 2, 3])
        #expect(state.turns.first?.started.kind == .overview && state.turns.first?.started.command == "/unit overview 3")
        #expect(state.currentLesson == 3)

        // /lesson 1 makes lesson 1 current; a revision then makes a version of lesson 1 alone.
        try await engine.selectLesson(1)
        var target = fixture.inputs
        target.minutes = 30
        _ = await engine.request(command: "/shorten 30", refinement: Refinement(.revise(.shorten), inputs: target)) { _ in }
        let after = try await fixture.reread()
        #expect(after.lessonVersions == [1: 4, 2: 2, 3: 3])
        #expect(after.version(4)?.lesson == 1 && after.version(4)?.parent == 1)
        #expect(after.lessonsMissing.isEmpty)
    }

    /// With structured answers (the offline model's way) each lesson states the objective the overview gave it, in
    /// the lesson's turn, its repair and a /shorten: the schema does not ask for it, and an answer that writes one of
    /// its own does not replace it. A free revision asks for the objective again (it may change it).
    @Test func aStructuredUnitsLessonsStateTheObjectivesTheOverviewGaveThem() async throws {
        let model = ScriptedModel()
        let fixture = try await SessionEngineTests.Fixture(model: model, structured: true)
        defer { fixture.home.remove() }
        let engine = fixture.engine
        let objectives = [
            "Students will identify the rise and fall of tides on a tide chart.",
            "Students will apply the moon's pull to explain two high tides a day.",
            "Students will create a tide table for a week from a tide chart.",
        ]
        let lessons = objectives.enumerated().map { index, objective in
            #"{"title": "Tides \#(index + 1)", "objective": "\#(objective)", "builds_on": "lesson \#(index)"}"#
        }
        let overview =
            #"{"goal": "Students explain and predict tides from the moon's pull.", "essential_questions": "#
            + #"["Why does the sea rise and fall?", "Can we predict it?"], "lessons": ["# + lessons.joined(separator: ", ") + "]}"
        let layout = StructuredPlan(framework: try PromptLibrary.builtIn.framework("default"), inputs: fixture.inputs)
        let answer = StructuredPlanFixtures.answer(layout) { part, n in
            part.key == "learning_objective"
                ? "Tides.json tides_tides."
                : part.role == .content
                    ? "Students chart tides \(n) with a partner." : "What does tide chart \(n) show about the moon?"
        }
        model.script([.text(overview), .text(answer), .text(answer)])

        let written = await engine.writeOverview(lessons: 3, inputs: fixture.inputs, framework: "default", repair: false) { _ in }
        #expect(written.failure == nil, "\(written.failure ?? "")")
        let none = FollowUpOptions(repair: false, readingLevel: false)
        let lesson = await engine.writeLesson(1, options: none) { _ in }
        #expect(lesson.first.status == .completed)
        let schema = { (index: Int) in model.requests[index]["text"]?["format"]?["schema"]?["properties"] }
        #expect(schema(1)?["learning_objective"] == nil && schema(1)?["materials"] != nil)
        #expect(lesson.first.text.contains(objectives[0]) && !lesson.first.text.contains("Tides.json"), "\(lesson.first.text)")

        // Its repair keeps the overview's objective too.
        let repair = await engine.request(
            command: "(auto repair)", refinement: Refinement(.repair(problems: ["Pacing is off."]), inputs: fixture.inputs),
            options: none
        ) { _ in }
        #expect(schema(2)?["learning_objective"] == nil)
        #expect(repair.first.text.contains(objectives[0]) && !repair.first.text.contains("Tides.json"), "\(repair.first.text)")

        // /shorten keeps it; a free revision may change the objective: it is asked for.
        var shorter = fixture.inputs
        shorter.minutes = 30
        model.script([.text(answer), .text(answer)])
        let shortened = await engine.request(
            command: "/shorten 30", refinement: Refinement(.revise(.shorten), inputs: shorter), options: none
        ) { _ in }
        #expect(schema(3)?["learning_objective"] == nil)
        #expect(shortened.first.text.contains(objectives[0]), "\(shortened.first.text)")
        _ = await engine.request(
            command: "/revise", refinement: Refinement(.revise(.revise), inputs: shorter, values: ["request": "more hands-on"]),
            options: none
        ) { _ in }
        #expect(model.requests.count == 5)
        #expect(schema(4)?["learning_objective"] != nil)
    }

    @Test func anOverviewWithLessonsMissingIsRepairedOnceAndTheRepairTaken() async throws {
        let short = UnitFixtures.overview.components(separatedBy: "\nLesson 3:").first ?? ""
        let model = ScriptedModel([.text(short), .text(UnitFixtures.overview)])
        let fixture = try await SessionEngineTests.Fixture(model: model)
        defer { fixture.home.remove() }
        let result = await fixture.engine.writeOverview(lessons: 3, inputs: fixture.inputs, framework: "default", repair: true) { _ in }
        #expect(result.outcomes.map(\.assessmentProblems) == [["It has 2 lessons; it must have exactly 3, numbered 1 to 3."], []])
        #expect(result.unit?.turn == 2)
        #expect(model.inputs.last?.contains("It has 2 lessons; it must have exactly 3") == true)
        #expect(model.inputs.last?.contains("<<<OVERVIEW") == true)
        let state = try await fixture.reread()
        #expect(state.turns.map(\.started.template) == ["unit-overview", "unit-overview-repair"])
        #expect(state.turns.last?.started.follows == 1)
        #expect(state.versions.isEmpty && state.lessonsMissing == [1, 2, 3])
    }

    @Test func anOverviewThatStillFailsWritesNoUnit() async throws {
        let model = ScriptedModel([.text("Goal: x"), .text("Goal: y")])
        let fixture = try await SessionEngineTests.Fixture(model: model)
        defer { fixture.home.remove() }
        let result = await fixture.engine.writeOverview(lessons: 3, inputs: fixture.inputs, framework: "default", repair: true) { _ in }
        #expect(result.unit == nil)
        #expect(result.failure?.contains("no lesson was written") == true)
        #expect(await fixture.engine.state.unit == nil)
    }

    /// A changed objective in an earlier lesson marks the lessons written before that change.
    @Test func aChangedObjectiveMarksTheLaterLessons() async throws {
        let model = ScriptedModel([.text(UnitFixtures.overview)])
        let fixture = try await SessionEngineTests.Fixture(model: model)
        defer { fixture.home.remove() }
        let engine = fixture.engine
        _ = await engine.writeOverview(lessons: 3, inputs: fixture.inputs, framework: "default", repair: true) { _ in }
        for number in 1...3 { _ = await engine.writeLesson(number, options: FollowUpOptions()) { _ in } }
        #expect(await engine.lessonsOutOfStep.isEmpty)
        try await engine.selectLesson(1)
        let plan = try #require(await engine.state.current?.text)
        let mark = await engine.mark
        try await engine.handEdit(plan.replacingOccurrences(of: "explain the key ideas of Tides", with: "predict the tides"))
        #expect(await engine.lessonsOutOfStep == [2, 3])
        // What any command that did this leaves to say, once: the lessons newly out of step.
        let said = await engine.aftermath(since: mark, reportsSaving: false).notes.map(\.sentence)
        #expect(
            said.filter { $0.contains("possibly out of step") } == [
                "Lesson 1's objective changed, and lessons 2, 3 were written before it: possibly out of step; /unit shows them, /unit lesson K writes one again."
            ])
        #expect(await engine.aftermath(since: engine.mark, reportsSaving: false).notes.isEmpty, "nothing changed since")
        // Lesson 2 rewritten after the change is in step again.
        _ = await engine.writeLesson(2, options: FollowUpOptions()) { _ in }
        #expect(await engine.lessonsOutOfStep == [3])
        // A new version of lesson 3 made after the change (here an edit that keeps its objective) is the teacher's
        // word that it fits; and it marks nothing, as its objective is unchanged.
        try await engine.selectLesson(3)
        let third = try #require(await engine.state.current?.text)
        try await engine.handEdit(third + "\nA note.")
        #expect(await engine.lessonsOutOfStep.isEmpty)
    }

    /// Ctrl-C while lesson 2 is being written keeps lesson 1; `/continue` then writes lessons 2 and 3, and `/unit`
    /// shows each lesson's check and which is current.
    @Test func cancellingMidUnitKeepsTheLessonsWrittenAndContinueWritesTheRest() async throws {
        let model = ScriptedModel([.text(UnitFixtures.overview), .plan, .trickle])
        let fixture = try await SessionEngineTests.Fixture(model: model)
        defer { fixture.home.remove() }
        let host = RecordingHost(place: .script, workingDirectory: fixture.home.url)
        let runner = CommandRunner(engine: fixture.engine, host: host, settings: SessionSettings())
        let writing = Task { await runner.run("/unit 3") }
        await model.trickleStarted()
        writing.cancel()
        let stopped = await writing.value
        #expect(stopped.status == .failed)
        #expect(host.notes.contains { $0.hasPrefix("lesson 2 of 3 · ") })
        #expect(
            host.notes.contains {
                $0.hasPrefix(
                    "Stopped at lesson 2 of 3; the lessons written are kept, and /unit continue (or /continue) writes the 2 lessons still missing.")
            })
        #expect(await fixture.engine.state.lessonsMissing == [2, 3])

        let resumed = try await fixture.reread()
        #expect(resumed.lessonsMissing == [2, 3] && resumed.lessonVersions.keys.sorted() == [1])
        #expect(await runner.run("/continue").status == .done)
        #expect(await fixture.engine.state.lessonsMissing.isEmpty)
        #expect(await runner.run("/unit").status == .done)
        let shown = try #require(host.shown.last)
        #expect(
            shown.contains("✓ Lesson 1: Unit fractions — v1")
                && shown.contains("✓ Lesson 3: Comparing fractions — v3 · passes the check   ← current"), "\(shown)")
        // A command that is not for this session says what to type.
        #expect(await runner.run("/lesson 7").status == .failed)
        #expect(host.errors.last == "/lesson 7: The unit has lessons 1 to 3; type /lesson followed by one of them, e.g. /lesson 2.")
    }
}
