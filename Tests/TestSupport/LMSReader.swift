import Foundation

/// Reads a quiz file for a learning platform with `Tests/Readers/lms_read.py`: a reader written from each format's
/// documentation in Python's standard library (and LibreOffice for .xlsx), sharing no code with the writers.
public enum LMSReader {
    /// One question as the file gives it to the student.
    public struct Item: Decodable, Equatable, Sendable {
        public var stem: String
        public var options: [String]
        /// The position of the right answer in ``options``.
        public var key: Int
        /// What a student who picks each option reads ("" for none).
        public var feedback: [String]
        public var title: String?
        public var time: Int?
    }

    public struct Page: Decodable, Sendable {
        public var title: String?
        public var instructor: Bool
        public var text: String
    }

    public struct Extra: Decodable, Sendable {
        public var title: String?
        public var files: [String]?
        public var pages: [Page]?
        public var metadata: [String: String]?
    }

    public struct File: Decodable, Sendable {
        public var items: [Item]
        public var extra: Extra
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Readers/lms_read.py")
    }

    /// Reads `file` as `format` (`gift`, `moodle`, `aiken`, `blackboard`, `qti`, `imscc`, `kahoot`).
    /// - Throws: ``Failure`` with the reader's sentence when the file does not follow its format.
    public static func read(_ format: String, _ file: URL) async throws -> File {
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, format, file.path], mergingErrors: false)
        guard result.status == 0 else { throw Failure(description: result.errors) }
        return try JSONDecoder().decode(File.self, from: Data(result.output.utf8))
    }

    /// Whether LibreOffice (for the Kahoot spreadsheet) is installed; scripts/setup installs it.
    public static var hasLibreOffice: Bool {
        ["/usr/bin/soffice", "/usr/local/bin/soffice"].contains(where: FileManager.default.isExecutableFile(atPath:))
    }
}
