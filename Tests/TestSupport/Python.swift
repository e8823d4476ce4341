import Foundation

/// Runs small Python checks (python3 is on every machine this project targets).
public enum Python {
    /// Runs `python3 -c script` with `input` on stdin; returns its exit status and combined output.
    public static func run(_ script: String, input: Data) async throws -> (status: Int32, output: String) {
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script], input: input)
        return (result.status, result.output)
    }
}
