import Foundation
import LessonPlanKit

/// Writes an export to a file (never over an existing one unless forced) or to stdout.
struct Exporter {
    let console: Console
    /// The headings plans are written under, for reading sections and pacing.
    let headings: [String]

    /// - Returns: whether the export was written.
    @discardableResult
    func export(_ state: SessionState, format: ExportFormat, to path: String?, force: Bool) -> Bool {
        let data: Data
        do {
            data = try SessionReview.export(state, format: format, headings: headings)
        } catch {
            console.error(error.message)
            return false
        }
        guard let path else {
            console.out(String(decoding: data, as: UTF8.self))
            if data.last != UInt8(ascii: "\n") { console.out("\n") }
            return true
        }
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        if FileManager.default.fileExists(atPath: url.path), !force {
            console.error("\(url.path) already exists; choose another file name, or pass --force to `lessonplan export` to replace it.")
            return false
        }
        do {
            try data.write(to: url, options: force ? .atomic : .withoutOverwriting)
        } catch {
            console.error("Cannot write \(url.path): check that the folder exists and is writable.")
            return false
        }
        console.note("Wrote \(format.rawValue.uppercased()) of v\(state.currentVersion ?? 0) to \(url.path).")
        return true
    }
}
