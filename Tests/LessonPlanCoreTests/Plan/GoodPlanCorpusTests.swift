import Foundation
import LessonPlanCore
import Testing

/// Good plans written the way teachers and strong models write them (`GoodPlans/`, one file each, a header of
/// grade, topic and minutes above `---`): none may fail its structure, get a content problem, or start a repair,
/// and across the corpus advice stays at most one note per ten plans (issue #34, docs/plan-check.md).
@Suite struct GoodPlanCorpusTests {
    /// One plan of the corpus, with what it was written for.
    struct GoodPlan: CustomStringConvertible, Sendable {
        let file: String
        let grade: GradeBand
        let topic: String
        let minutes: Int
        let text: String
        var description: String { file }
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("GoodPlans")

    /// Every plan of the corpus, in file order; a file whose header is unreadable is a test failure, not skipped.
    static let corpus: [GoodPlan] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".txt") }.sorted().compactMap { name in
            guard let text = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8),
                let split = text.range(of: "\n---\n")
            else { return nil }
            var fields: [String: String] = [:]
            for line in text[..<split.lowerBound].split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            guard let grade = fields["grade"].flatMap({ try? GradeBand.parse($0) }), let topic = fields["topic"],
                let minutes = fields["minutes"].flatMap({ Int($0) })
            else { return nil }
            return GoodPlan(file: name, grade: grade, topic: topic, minutes: minutes, text: String(text[split.upperBound...]))
        }
    }()

    static let framework: Framework = (try? PromptLibrary.builtIn.framework("default")) ?? Framework(name: "default", headings: [])

    @Test func theCorpusIsWhole() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".txt") }
        #expect(Self.corpus.count == files.count, "a file's header is unreadable")
        #expect(Self.corpus.count >= 30)
        #expect(Set(Self.corpus.map(\.grade)) == Set(GradeBand.allCases))
        #expect(Self.corpus.map(\.minutes).min() == 30 && Self.corpus.map(\.minutes).max() == 90)
    }

    @Test(arguments: corpus)
    func aGoodPlanHasNoProblemAndStartsNoRepair(plan: GoodPlan) {
        let report = Self.framework.check(plan.text, lessonMinutes: plan.minutes, topic: plan.topic, grade: plan.grade)
        #expect(report.problems.isEmpty, "\(report.problems.map(\.description))")
        #expect(report.pacedMinutes == plan.minutes)
        #expect(report.contentProblems.isEmpty, "\(report.contentProblems.map(\.description))")
        #expect(!report.needsRepair)
    }

    /// Advice is allowed, but rarely: at most one note per ten good plans.
    @Test func adviceStaysAtMostOneNotePerTenPlans() {
        let advice = Self.corpus.flatMap { plan in
            Self.framework.check(plan.text, lessonMinutes: plan.minutes, topic: plan.topic, grade: plan.grade).advice.map { "\(plan.file): \($0)" }
        }
        #expect(advice.count * 10 <= Self.corpus.count, "\(advice.joined(separator: "\n"))")
    }
}
