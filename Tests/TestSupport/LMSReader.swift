import Foundation

/// Reads a quiz file for a learning platform with `Tests/Readers/lms_read.py`: a reader written from each format's
/// documentation in Python's standard library (and LibreOffice for .xlsx), sharing no code with the writers.
package enum LMSReader {
    /// One question as the file gives it to the student.
    package struct Item: Decodable, Equatable, Sendable {
        package var stem: String
        package var options: [String]
        /// The position of the right answer in ``options``.
        package var key: Int
        /// What a student who picks each option reads ("" for none).
        package var feedback: [String]
        package var title: String?
        package var time: Int?
    }

    package struct Page: Decodable, Sendable {
        package var title: String?
        package var instructor: Bool
        package var text: String
    }

    package struct Extra: Decodable, Sendable {
        package var title: String?
        package var files: [String]?
        package var pages: [Page]?
        package var metadata: [String: String]?
    }

    package struct File: Decodable, Sendable {
        package var items: [Item]
        package var extra: Extra
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Readers/lms_read.py")
    }

    /// Reads `file` as `format` (`gift`, `moodle`, `aiken`, `blackboard`, `qti`, `imscc`, `kahoot`).
    /// - Throws: ``Failure`` with the reader's sentence when the file does not follow its format.
    package static func read(_ format: String, _ file: URL) async throws -> File {
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, format, file.path], mergingErrors: false)
        guard result.status == 0 else { throw Failure(description: result.errors) }
        return try JSONDecoder().decode(File.self, from: Data(result.output.utf8))
    }

    /// Whether LibreOffice (for the Kahoot spreadsheet) is installed; scripts/setup installs it.
    package static var hasLibreOffice: Bool {
        ["/usr/bin/soffice", "/usr/local/bin/soffice"].contains(where: FileManager.default.isExecutableFile(atPath:))
    }
}
