import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanStore

/// `/export unit md|html|docx|odt|imscc [FILE] [--force]`: the whole unit as one document, or as a Common Cartridge
/// with each lesson a page (``UnitExport``).
extension ExportCommand {
    static func parseUnit(_ words: [String], force: Bool, showModel: Bool, context: CommandContext) throws(CommandError) -> Self {
        guard context.unitLessons != nil else {
            throw CommandError("This session is a single lesson, not a unit; /export md (or html, docx, odt) exports its plan.")
        }
        guard let first = words.first, let entry = ExportTable.entry(.unit, first) else {
            throw CommandError(
                "/export unit needs a format: \(ExportTable.names(.unit)), then an optional file name, e.g. /export unit docx.")
        }
        let rest = words.dropFirst().joined(separator: " ")
        if rest.hasPrefix("-") {
            throw CommandError("“\(rest)” is not an option of /export unit; use --force to replace the file.")
        }
        return Self(entry, path: rest.isEmpty ? nil : rest, force: force, showModel: showModel)
    }
}
