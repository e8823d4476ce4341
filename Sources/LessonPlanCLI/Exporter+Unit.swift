import Foundation
import LessonPlanDocuments
import LessonPlanKit
import Terminal

extension Exporter {
    /// `lessonplan export SESSION --unit --format md|html|docx|odt|imscc`: the whole unit as one document (or a
    /// Common Cartridge), to FILE or, without one, by the rule of every export (md printed, docx, odt and imscc to
    /// `<topic>-unit.<format>`).
    /// - Returns: whether the export was written.
    func exportUnit(_ state: SessionState, format: UnitExport.Format, to path: String?, force: Bool, showModel: Bool) async -> Bool {
        let data: Data
        do {
            data = try await ExportCommand.unitDocument(state, format: format, prompts: prompts, showModel: showModel, environment: environment)
        } catch {
            console.error(error.message)
            return false
        }
        for note in UnitExport.leftOutNotes(state) { console.note(note) }
        guard let path = path ?? ExportCommand.defaultUnitFile(state, format: format, toTerminal: console.stdoutIsTTY) else {
            // Only md and html are printed; a cartridge always goes to a file.
            if case .document(let document) = format { console.document(data, format: document) }
            return !console.outputFailed
        }
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        switch ExportCommand.writeUnit(data, format: format, state: state, to: url, replace: force) {
        case .wrote(let sentence):
            console.note(sentence)
            return true
        case .exists(let sentence), .failed(let sentence):
            console.error(sentence)
            return false
        }
    }
}
