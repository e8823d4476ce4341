// Writes the transcript fixtures scripts/bench reads back (`sessions`, `replay`, `resume`) through
// lessonplan's own transcript writer and summary store, so that the fixtures are in the format the
// tool writes, whatever that becomes. Built and run only by scripts/bench; not part of the tool.
//
//     lessonplan-bench-fixture sessions <data-dir> <count>   < plan.txt   many short sessions, with summaries
//     lessonplan-bench-fixture big <data-dir> <turns>        < plan.txt   one long session; prints its id
//
// The plan text on stdin (scripts/bench_server.py's PLAN) is the answer every turn revises a little.
import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanModel
import LessonPlanStore

let topics = [
    "Photosynthesis", "Fractions", "The water cycle", "Persuasive writing", "Plate tectonics", "Ratios and rates",
    "The French Revolution", "Poetry: imagery", "Electric circuits", "Ecosystems",
]
let bands: [GradeBand] = [.kTo2, .threeTo5, .sixTo8, .nineTo12]
let frameworks = ["default", "5e", "default", "ubd"]
let commands = [
    "/shorten 30", "/differentiate ell", "/lengthen 50", "add a gallery walk", "/regrade 3–5",
    "make the warm-up more active", "/differentiate all",
]
let instructions = """
    You are an expert instructional designer. Produce a practical lesson plan that a teacher can run immediately.
    Output must be plain text with headings. No markdown code fences. No references to policies.
    Reply with the complete lesson plan only: no preamble, no closing remarks.

    """

/// A pass, or a draft the plan check fails (as every fourth turn of five is, before its repair).
func check(passed: Bool) -> PlanCheckReport {
    passed
        ? PlanCheckReport(problems: [], pacedMinutes: 45, lessonMinutes: 45)
        : PlanCheckReport(
            problems: [.pacingTotal(found: 50, expected: 45), .exitTicketPrompts(found: 2, expected: 3)],
            pacedMinutes: 50, lessonMinutes: 45)
}

/// The plan of one turn: the template with the topic put in and two lines that change every turn.
func plan(_ template: String, topic: String, band: GradeBand, turn: Int) -> String {
    var lines = template.replacingOccurrences(of: "photosynthesis", with: topic.lowercased())
        .components(separatedBy: "\n")
    guard lines.count > 3 else { return template }
    lines[1] = "Students will be able to explain \(topic.lowercased()) (\(band.rawValue)) and apply it to example \(turn)."
    lines[lines.count - 3] = "- Revision \(turn): find one real-world example of \(topic.lowercased()) and describe it."
    return lines.joined(separator: "\n")
}

/// A session as lessonplan writes one: every completed plan turn carries its `check` and
/// `reading_level`, every turn its framework (the header only when not the default), and every fifth
/// turn, after a draft that fails the plan check, is an `(auto repair)` that is kept.
func records(
    id: String, created: Date, topic: String, band: GradeBand, turns: Int, framework: String, template: String
) throws -> [TranscriptRecord] {
    let inputs = try LessonInputs(grade: band, topic: topic, minutes: 45)
    var out: [TranscriptRecord] = [
        .header(
            SessionHeader(
                id: id, created: created, inputs: inputs, model: "gpt-5.2", baseUrl: "https://api.openai.com/v1",
                toolVersion: "0.1.0", framework: framework == Framework.defaultName ? nil : framework))
    ]
    // Measured once: the turns' plans differ in two lines, and measuring each took most of the time.
    let readingLevel = ReadingMeasure(studentText: plan(template, topic: topic, band: band, turn: 1), band: band)
    var at = created
    var current = ""
    for turn in 1...max(turns, 1) {
        let repair = turn % 5 == 0
        let command = turn == 1 ? "/generate" : repair ? "(auto repair)" : commands[(turn - 2) % commands.count]
        at += 20
        let input =
            current.isEmpty
            ? "Create a lesson plan.\nGrade band: \(band.rawValue)\nTopic: \(topic)\nDuration: 45 minutes\n"
            : "Here is the current lesson plan for a 45-minute \(band.rawValue) lesson on \(topic):\n\n<<<PLAN\n"
                + "\(current)\nPLAN>>>\n\nThe teacher asks for this change:\n\(command)\n"
        out.append(
            .turnStarted(
                TurnStarted(
                    turn: turn, at: at, command: command,
                    template: turn == 1 ? "generate" : repair ? "repair" : "revise", inputs: inputs,
                    baseVersion: turn > 1 ? turn - 1 : nil, model: "gpt-5.2", instructions: instructions, input: input,
                    maxOutputTokens: 8192, framework: framework, follows: repair ? turn - 1 : nil)))
        current = plan(template, topic: topic, band: band, turn: turn)
        at += 9.5
        out.append(
            .turnEnded(
                TurnEnded(
                    turn: turn, at: at, status: .completed, output: current,
                    usage: Usage(
                        inputTokens: input.utf8.count / 4 + 100, outputTokens: current.utf8.count / 4, reasoningTokens: 64),
                    responseId: "resp_" + String(repeating: "0", count: max(0, 12 - String(turn).count)) + String(turn),
                    error: nil, version: turn, durationMs: 9_500, check: check(passed: turn % 5 != 4),
                    readingLevel: readingLevel, kept: repair ? true : nil)))
    }
    return out
}

/// Writes one session's transcript with the tool's writer, then its summary as the tool keeps it.
func write(_ records: [TranscriptRecord], id: String, store: SessionStore) throws {
    let writer = try TranscriptWriter(url: store.directory.transcript(id: id), opening: .createNew)
    try writer.append(contentsOf: records)
    guard case .header(let header) = records.first else { return }
    var state = SessionState(header: header)
    for record in records.dropFirst() { state.apply(record) }
    store.writeSummary(SessionSummary(state: state, transcriptBytes: writer.size))
}

/// A distinct 16-hex-digit id for each index (multiplying by an odd constant is one-to-one).
func sessionID(_ index: Int) -> String {
    let bits = UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15
    let hex = String(bits, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}

func run(_ arguments: [String]) throws -> Int32 {
    guard arguments.count == 3, let number = Int(arguments[2]), number > 0 else {
        FileHandle.standardError.write(Data("usage: lessonplan-bench-fixture sessions|big <data-dir> <count> < plan.txt\n".utf8))
        return 2
    }
    let template = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
    let directory = DataDirectory(root: URL(fileURLWithPath: arguments[1]))
    try directory.prepare()
    let store = SessionStore(directory: directory)
    let now = Date()
    switch arguments[0] {
    case "sessions":
        let start = now.addingTimeInterval(-Double(number) * 3600)
        for index in 0..<number {
            let id = sessionID(index)
            try write(
                records(
                    id: id, created: start.addingTimeInterval(Double(index) * 3600), topic: topics[index % topics.count],
                    band: bands[index % bands.count], turns: 1 + index * 5 % 8,
                    framework: frameworks[index % frameworks.count], template: template),
                id: id, store: store)
        }
    case "big":
        let id = "b16b16b16b16b16b"
        try write(
            records(
                id: id, created: now.addingTimeInterval(-Double(number) * 30), topic: "Photosynthesis", band: .sixTo8,
                turns: number, framework: Framework.defaultName, template: template),
            id: id, store: store)
        print(id)
    default:
        FileHandle.standardError.write(Data("unknown fixture \(arguments[0]); use sessions or big\n".utf8))
        return 2
    }
    return 0
}

do {
    exit(try run(Array(CommandLine.arguments.dropFirst())))
} catch {
    FileHandle.standardError.write(Data("lessonplan-bench-fixture: \(error)\n".utf8))
    exit(1)
}
