import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanStore

/// `/export unit md|html|docx|odt|imscc [FILE] [--force]`: the whole unit as one document, or as a Common Cartridge
/// with each lesson a page (``UnitExport``).
extension ExportCommand {
    /// What `/export unit` writes.
    package var unitFormat: UnitExport.Format { cartridge ? .cartridge : .document(format) }

    static func parseUnit(_ words: [String], force: Bool, showModel: Bool, context: CommandContext) throws(CommandError) -> Self {
        guard context.unitLessons != nil else {
            throw CommandError("This session is a single lesson, not a unit; /export md (or html, docx, odt) exports its plan.")
        }
        guard let first = words.first, let format = UnitExport.Format(text: first) else {
            throw CommandError(
                "/export unit needs a format: \(UnitExport.Format.names), then an optional file name, e.g. /export unit docx.")
        }
        let rest = words.dropFirst().joined(separator: " ")
        if rest.hasPrefix("-") {
            throw CommandError("“\(rest)” is not an option of /export unit; use --force to replace the file.")
        }
        let document: ExportFormat = if case .document(let document) = format { document } else { .html }
        return Self(
            format: document, path: rest.isEmpty ? nil : rest, force: force, showModel: showModel, unit: true,
            cartridge: format == .cartridge)
    }

    /// Where a unit goes when no file is named, by the rule of every export: md printed; docx, odt and imscc to
    /// `<topic>-unit.<format>`; html to that file when it would reach a terminal.
    package static func defaultUnitFile(_ state: SessionState, format: UnitExport.Format, toTerminal: Bool) -> String? {
        if case .document(let document) = format, document.document == nil, !(document == .html && toTerminal) { return nil }
        return "\(slug(state.unit?.inputs.topic ?? state.currentInputs.topic))-unit.\(format.fileExtension)"
    }

    /// The unit's bytes in `format`.
    /// - Parameter environment: where to look for pandoc (its `PATH`), for docx and odt, and zip, for imscc.
    package static func unitDocument(
        _ state: SessionState, format: UnitExport.Format, prompts: PromptLibrary, showModel: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> Data {
        switch format {
        case .document(let document):
            try await UnitExport.render(
                state, format: document, prompts: prompts, showModel: showModel,
                pandoc: document.document == nil ? nil : Pandoc.find(environment: environment))
        case .cartridge:
            try await UnitExport.cartridge(state, prompts: prompts, showModel: showModel, tools: LMSTools(environment: environment))
        }
    }

    /// Writes a unit's export the way every export is written (0600, never over a file unless `replace`).
    package static func writeUnit(
        _ data: Data, format: UnitExport.Format, state: SessionState, to url: URL, replace: Bool
    ) -> FileResult {
        do {
            try PrivateFiles.write(data, to: url, replace: replace)
        } catch {
            if case .exists = error { return .exists(error.message) }
            return .failed("Cannot write \(url.path): check that the folder exists, is writable and has space.")
        }
        let written = state.unit.map { $0.lessons - state.lessonsMissing.count } ?? 0
        return .wrote("Wrote \(format.label) of the unit (\(counted(written, "lesson"))) to \(url.path).")
    }

    func runUnit(_ run: CommandRun) async -> CommandOutcome {
        let state = await run.engine.state
        let data: Data
        do {
            data = try await Self.unitDocument(state, format: unitFormat, prompts: run.engine.prompts, showModel: showModel)
        } catch {
            run.host.error(error.message)
            return .failed
        }
        for note in UnitExport.leftOutNotes(state) { run.host.note(StyledText(note)) }
        guard let target = path ?? Self.defaultUnitFile(state, format: unitFormat, toTerminal: run.host.showsOnTerminal) else {
            // Only md and html are printed; a cartridge always goes to a file.
            run.host.deliver(.document(data, format))
            return .done
        }
        let expanded = (target as NSString).expandingTildeInPath
        let url = (expanded.hasPrefix("/") ? URL(fileURLWithPath: expanded) : run.host.workingDirectory.appending(path: expanded))
            .standardizedFileURL
        var replace = force
        while true {
            switch Self.writeUnit(data, format: unitFormat, state: state, to: url, replace: replace) {
            case .wrote(let sentence):
                run.host.note(StyledText(sentence))
                return .done
            case .exists where run.host.place.isTerminal:
                if !replace, run.host.confirm("\(url.path) already exists. Replace it? [y/N] ") {
                    replace = true
                    continue
                }
                run.host.show(StyledText("Kept \(url.path) as it was; nothing written."))
                return .done
            case .exists(let sentence), .failed(let sentence):
                run.host.error(sentence)
                return .failed
            }
        }
    }
}
