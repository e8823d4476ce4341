import Dispatch
import Foundation
import LessonPlanKit

// Temporary demo of the line reader; the real REPL replaces this file.

let demoCommands: [String: [String]] = [
    "/shorten": [], "/lengthen": [], "/differentiate": ["ell", "iep", "advanced", "all"],
    "/regrade": ["K–2", "3–5", "6–8", "9–12"], "/help": [], "/quit": [], "/sleep": [],
]

/// Completes command names in the first word and each command's arguments after it, ignoring
/// case and accepting `-` for the en dash, so Tab also exercises replacing the typed word.
func demoCompleter(_ lineBeforeCursor: String) -> [String] {
    let word = String(Completion.currentWord(in: lineBeforeCursor))
    let head = lineBeforeCursor.dropLast(word.count)
    let key = { (text: String) in text.lowercased().replacingOccurrences(of: "-", with: "–") }
    guard let command = head.split(separator: " ").first.map(String.init) else {
        return demoCommands.keys.filter { key($0).hasPrefix(key(word)) }.sorted()
    }
    return (demoCommands[command] ?? []).filter { key($0).hasPrefix(key(word)) }
}

// As the real program will: SIGINT outside the prompt cancels work instead of killing us.
signal(SIGINT, SIG_IGN)
let sigint = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
let cancelled = DispatchSemaphore(value: 0)
// @Sendable: a closure written in main.swift is otherwise @MainActor and traps on this queue.
sigint.setEventHandler { @Sendable in cancelled.signal() }
sigint.resume()

let historyFile = ProcessInfo.processInfo.environment["LESSONPLAN_HISTORY"].map { URL(fileURLWithPath: $0) }
let reader = makeLineReader(historyFile: historyFile, completer: demoCompleter)
var version = 1
loop: while true {
    switch reader.readLine(prompt: "lessonplan [6–8 · 45 min · v\(version)]> ") {
    case .line(let line):
        print("got: \(line)")
        if line == "/quit" { break loop }
        if line == "/sleep" {
            // Stands in for a streaming request: Ctrl-C here must cancel, not exit.
            while cancelled.wait(timeout: .now()) == .success {}
            print(cancelled.wait(timeout: .now() + 5) == .success ? "cancelled" : "slept")
        }
        version += 1
    case .interrupted:
        print("(interrupted)")
    case .endOfInput:
        print("(end of input)")
        break loop
    }
}
