import Foundation
import Testing
import TestSupport

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
}
