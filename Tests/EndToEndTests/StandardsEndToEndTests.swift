import Foundation
import TestSupport
import Testing

/// `lessonplan standards` through the built binary: the texts come from the file compiled into it, with no
/// key and no server.
@Suite struct StandardsEndToEndTests {
    @Test func codesAreResolvedAndAnInventedOneIsNamed() async throws {
        let binary = try LessonplanBinary(baseURL: nil, apiKey: nil)
        defer { binary.removeHome() }
        let known = try await binary.run(["standards", "4.NF.1", "MS-LS1-6", "RL.5.2"])
        #expect(known.status == 0, "\(known.stderr)")
        #expect(known.stdout.contains("4.NF.A.1 · Common Core Mathematics · grade 4"))
        #expect(known.stdout.contains("Construct a scientific explanation based on evidence for the role of photosynthesis"))
        #expect(known.stdout.contains("Determine a theme of a story, drama, or poem from details in the text"))
        #expect(known.stderr.isEmpty)
        let invented = try await binary.run(["standards", "4.NF.9"])
        #expect(invented.status == 1)
        #expect(invented.stdout.isEmpty)
        #expect(invented.stderr.hasPrefix("4.NF.9 is not a Common Core standard; 4.NF.A.1 (Explain why a fraction"), "\(invented.stderr)")
    }

    @Test func searchAboutAndHelpAreTrue() async throws {
        let binary = try LessonplanBinary(baseURL: nil, apiKey: nil)
        defer { binary.removeHome() }
        let search = try await binary.run(["standards", "search", "photosynthesis", "--grade", "7", "--subject", "science"])
        #expect(search.status == 0, "\(search.stderr)")
        #expect(search.stdout.hasPrefix("MS-LS1-6 (grades 6–8): "))
        let about = try await binary.run(["standards", "--about"])
        #expect(about.status == 0)
        #expect(about.stdout.contains("NGSS is a registered trademark of Achieve."))
        #expect(about.stdout.contains("© Copyright 2010. National Governors Association"))
        let overview = try await binary.run(["--help"])
        #expect(overview.stdout.contains("lessonplan standards CODE…"))
    }

    /// `--standards` and `/standards` look codes up before anything is sent: an invented code stops a script with
    /// one sentence (exit 2, no request), `--yes` sends it, and a real code goes out with its text (issue #41).
    @Test func anInventedCodeIsAnsweredBeforeAnyRequest() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let refused = try await binary.run(["generate", "--grade", "4", "--topic", "Fractions", "--standards", "4.NF.9"])
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("4.NF.9 is not a Common Core standard; 4.NF.A.1 ("), "\(refused.stderr)")
        #expect(refused.stderr.contains("Nothing was sent"))
        #expect(try await server.requests().isEmpty)

        let session = try await binary.run(
            ["--grade", "4", "--topic", "Fractions", "--no-repair"], input: "/standards 4.NF.9\n/quit\n")
        #expect(
            session.stdout.contains("4.NF.9 is not a Common Core standard") || session.stderr.contains("4.NF.9 is not a Common Core standard"),
            "\(session.stdout)\n\(session.stderr)")
        #expect((session.stdout + session.stderr).contains("Nothing was sent"))
        #expect(try await server.requests().count == 1, "only the first plan went out")

        let sent = try await binary.run(["generate", "--grade", "4", "--topic", "Fractions", "--standards", "4.NF.1", "--no-repair"])
        #expect(sent.status == 0, "\(sent.stderr)")
        let body = try #require(try await server.requests().last?.inputText)
        #expect(body.contains("4.NF.A.1: Explain why a fraction a/b is equivalent to a fraction"), "the real text goes with the code")
    }

    /// A plan citing one real and one invented code: a content problem for the invented one only, and /check
    /// lists each code with its published text.
    @Test func aPlansInventedCodeIsAProblemAndCheckListsTheCodes() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let plan = PlanFixtures.passing(minutes: 45, topic: "Fractions").replacingOccurrences(
            of: "Materials\n", with: "Standards: 4.NF.A.1 and 4.NF.9\n\nMaterials\n")
        try await server.script([.text(plan)])
        let result = try await binary.run(["--grade", "4", "--topic", "Fractions", "--no-repair"], input: "/check\n/quit\n")
        let all = result.stdout + result.stderr
        #expect(all.contains("1 content problem"), "\(all)")
        #expect(all.contains("✗ Learning Objective: 4.NF.9 is not a Common Core standard"), "\(all)")
        #expect(all.contains("✓ 4.NF.A.1 (Common Core Mathematics, grade 4), as published: Explain why a fraction"), "\(all)")
        #expect(!all.contains("4.NF.A.1 is not"))
    }

    /// A plan that cites an NGSS expectation itself (not given by --standards): the quiz is asked with its boundary.
    @Test func aQuizIsAskedWithTheBoundaryOfAnExpectationThePlanCites() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let plan = PlanFixtures.passing(minutes: 45, topic: "Photosynthesis").replacingOccurrences(
            of: "Materials\n", with: "Standards: MS-LS1-6\n\nMaterials\n")
        try await server.script([.text(plan)])
        let result = try await binary.run(["--grade", "6-8", "--topic", "Photosynthesis", "--no-repair"], input: "/quiz exit 3\n/quit\n")
        #expect(result.status == 0, "\(result.stderr)")
        let quizPrompt = try await server.requests().last?.inputText ?? ""
        #expect(quizPrompt.contains("MS-LS1-6 (cited by the plan): Construct a scientific explanation"), "\(quizPrompt)")
        #expect(quizPrompt.contains("(Assessment boundary: Assessment does not include the biochemical mechanisms of photosynthesis.)"))
    }

    /// The teacher's copy lists each standard with its published text, looked up, and says when one is for another
    /// band; the handouts never carry it.
    @Test func theTeachersCopyCarriesEachStandardsPublishedText() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let made = try await binary.run(
            [
                "generate", "--grade", "3-5", "--topic", "Fractions", "--standards", "4.NF.1; MS-LS1-6", "--yes", "--name", "f", "--no-repair",
                "--then", "/materials",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        let copy = try await binary.run(["export", "f", "--format", "md"])
        #expect(copy.stdout.contains("✓ 4.NF.A.1 (Common Core Mathematics, grade 4), as published: Explain why a fraction a/b"), "\(copy.stdout)")
        #expect(copy.stdout.contains("✓ MS-LS1-6 (NGSS, grades 6–8; not the lesson's 3–5), as published: Construct a scientific explanation"))
        let handouts = try await binary.run(["export", "f", "--materials", "--format", "md"])
        #expect(handouts.status == 0 && !handouts.stdout.contains("as published"), "\(handouts.stdout)")
    }
}
