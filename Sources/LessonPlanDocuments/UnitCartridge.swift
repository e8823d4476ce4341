import Foundation
import LessonPlanStore

// A whole unit as one IMS Common Cartridge 1.1: the overview as a page, then each written lesson as a page of its
// own, each the lesson's own printable HTML page as a single lesson's export makes it. The pages are the teacher's
// (marked Instructor), as the lesson cartridge's plan page is. No assessment: a unit's cartridge has no quiz.
extension UnitExport {
    /// The unit as a Common Cartridge: the overview's page, then one page per written lesson, titled
    /// "Lesson N: title"; a lesson not written yet has no page, and the overview's contents says so.
    /// - Parameter identifier: Letters and digits only, kept from one export of the unit to the next (a platform
    ///   that keys imports by it updates rather than duplicates).
    /// - Throws: ``ExportError`` with no lesson written, or when `zip` is missing or fails.
    package static func cartridge(
        _ unit: UnitRecord, lessons: [Lesson], identifier: String, tools: LMSTools, timeZone: TimeZone = .current
    ) async throws -> Data {
        guard !lessons.isEmpty else { throw ExportError("No lesson of the unit is written yet; /unit continue writes them.") }
        return try await CommonCartridge.render(
            title: "Unit: \(unit.inputs.topic)", identifier: identifier,
            pages: cartridgePages(unit, lessons: lessons, timeZone: timeZone), folder: "unit", tools: tools)
    }

    /// The cartridge's pages: the overview (title, goal, essential questions, contents), then each written lesson's
    /// own page, all the teacher's.
    static func cartridgePages(_ unit: UnitRecord, lessons: [Lesson], timeZone: TimeZone) -> [CommonCartridge.Page] {
        let pages = lessons.map { PlanExport.renderHTML($0.export, plan: $0.plan, timeZone: timeZone) }
        let style = pages.first.flatMap { between($0, "<style>\n", "\n</style>") } ?? ""
        let overview = overviewHTML(unit, lessons: lessons, style: [style], linked: false) + ["</main>", "</body>", "</html>"]
        var out = [
            CommonCartridge.Page(
                identifier: "overview", title: "Unit overview", html: overview.joined(separator: "\n") + "\n", teacherOnly: true)
        ]
        for (lesson, page) in zip(lessons, pages) {
            out.append(CommonCartridge.Page(identifier: "lesson\(lesson.number)", title: heading(lesson), html: page, teacherOnly: true))
        }
        return out
    }

    /// `lp`, the session id's first letters and digits, then `u`: the same unit exported again keeps its identifier,
    /// as a quiz's cartridge keeps its own (`lp…q2`), and the two never meet.
    package static func cartridgeIdentifier(sessionID: String) -> String {
        let letters = sessionID.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        return "lp" + String(String.UnicodeScalarView(letters.prefix(12))) + "u"
    }
}
