import Foundation

/// Why a turn of the offline model is slow, in one line that says what the teacher can do.
///
/// The tiny model runs on the machine's own cores; whatever else runs there (a build, a second server) takes
/// them, and a plan that takes 5–10 s alone can take minutes.
package enum SlowTurn {
    /// The one-line notice after `after` seconds, naming the load when the machine is busy.
    package static func notice(after: TimeInterval, load: Double?, cores: Int) -> String {
        let seconds = Int(after.rounded())
        let why: String
        if let load, load >= Double(cores) {
            why =
                "this machine is busy (load \(String(format: "%.1f", load)) on \(cores) core\(cores == 1 ? "" : "s")), and the offline model shares its cores"
        } else {
            why = "the offline model is slower than usual on this machine"
        }
        return
            "Still writing after \(seconds) s: \(why). Wait for it, or press Ctrl-C to cancel and then /retry when the machine is quieter, or start again with --max-output-tokens 1024 for a shorter plan."
    }

    /// The one-minute load average (`/proc/loadavg`), or nil where there is none.
    package static func loadAverage(file: String = "/proc/loadavg") -> Double? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Double($0) }
    }

    /// The cores this process may use.
    package static func cores() -> Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
