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
    public static func read(_ format: String, _ file: URL) throws -> File {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, format, file.path]
        let folder = FileManager.default.temporaryDirectory.appending(path: "lms-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appending(path: "out")
        let err = folder.appending(path: "err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: (try? String(contentsOf: err, encoding: .utf8)) ?? "the reader failed")
        }
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: out))
    }

    /// Whether LibreOffice (for the Kahoot spreadsheet) is installed; scripts/setup installs it.
    public static var hasLibreOffice: Bool {
        ["/usr/bin/soffice", "/usr/local/bin/soffice"].contains(where: FileManager.default.isExecutableFile(atPath:))
    }
}
