import Foundation

/// Runs small Python checks (python3 is on every machine this project targets).
package enum Python {
    /// Runs `python3 -c script` with `input` on stdin; returns its exit status and combined output.
    package static func run(_ script: String, input: Data) async throws -> (status: Int32, output: String) {
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script], input: input)
        return (result.status, result.output)
    }

    /// Runs `python3 -c script PATH`, a script that writes a file (a zip bomb, a docx) at `sys.argv[1]`.
    package static func write(_ script: String, to file: URL) async throws -> (status: Int32, output: String) {
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, file.path])
        return (result.status, result.output)
    }
}
