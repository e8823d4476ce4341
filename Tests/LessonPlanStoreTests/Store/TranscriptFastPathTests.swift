import CoreTestSupport
import Foundation
import StoreTestSupport
import Testing

@testable import LessonPlanCore
@testable import LessonPlanModel
@testable import LessonPlanStore

/// The transcript fast path must never disagree with `JSONDecoder`: it either returns the record
/// the full decoder would, or steps aside and lets the full decoder answer (errors included).
@Suite struct TranscriptFastPathTests {
    // MARK: - Generated records

    /// Pieces strings are built from: JSON-special and control characters, non-ASCII of every
    /// UTF-8 length, emoji sequences, en dashes, and text that looks like JSON.
    private static let atoms: [String] = [
        "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1}", "\u{8}", "\u{C}", "\u{1F}", "\u{7F}", " ", "a", "Photo",
        "synthesis", "–", "—", "’", "“", "”", "é", "e\u{301}", "ß", "€", "√", "\u{2028}", "\u{FEFF}", "\u{FFFD}", "水",
        "😀", "🌱", "👩‍🏫", "🇩🇪", "𝄞", "\\u0041", "\\\"", "{\"type\":\"undo\"}", "\"v\":2", ",", ":", "}", "{", "null",
        "3–5", "/regrade 3–5",
    ]

    private static let integers = [0, 1, -1, 2, 45, 8192, 9_500, 1_000_000_007, Int.max, Int.min, Int.max - 1, Int.min + 1]

    private static func text(_ random: inout SeededGenerator, maxAtoms: Int = 10) -> String {
        let length = Int.random(in: 0...maxAtoms, using: &random)
        return (0..<length).map { _ in atoms.randomElement(using: &random) ?? "" }.joined()
    }

    private static func integer(_ random: inout SeededGenerator) -> Int {
        Bool.random(using: &random)
            ? (integers.randomElement(using: &random) ?? 0) : Int.random(in: Int.min...Int.max, using: &random)
    }

    private static func maybe<T>(_ random: inout SeededGenerator, _ make: (inout SeededGenerator) -> T) -> T? {
        Bool.random(using: &random) ? make(&random) : nil
    }

    /// A date whose milliseconds a Double holds exactly (eighths of a second), so that writing it
    /// and reading it back gives the same value; other milliseconds are checked fast against full.
    private static func date(_ random: inout SeededGenerator) -> Date {
        let seconds = Int64.random(in: 946_684_800...4_102_444_800, using: &random)
        return Date(timeIntervalSince1970: Double(seconds) + Double(Int.random(in: 0..<8, using: &random)) / 8)
    }

    /// Any time with milliseconds, as other writers put it.
    private static func anyTimestamp(_ random: inout SeededGenerator) -> String {
        let millis = Int64.random(in: 946_684_800_000...4_102_444_800_000, using: &random)
        return Date(timeIntervalSince1970: Double(millis / 1000)).formatted(
            Date.ISO8601FormatStyle(timeZone: .gmt)
        ).replacingOccurrences(of: "Z", with: String(format: ".%03dZ", Int(millis % 1000)))
    }

    private static func inputs(_ random: inout SeededGenerator) throws -> LessonInputs {
        var inputs = try LessonInputs(grade: GradeBand.allCases.randomElement(using: &random) ?? .kTo2, topic: "x", minutes: 45)
        // The coder reads inputs as written, unvalidated, so any text and number must survive
        // (the transcript reader then checks topics as when typed, on both paths alike).
        inputs.topic = text(&random)
        inputs.minutes = integer(&random)
        inputs.standards = text(&random)
        inputs.constraints = text(&random)
        inputs.givenGrade = maybe(&random, integer)
        return inputs
    }

    /// A framework name: the shipped ones, or any text (names come from directories a teacher makes).
    private static func framework(_ random: inout SeededGenerator) -> String {
        Bool.random(using: &random)
            ? (["default", "5e", "ubd", "hunter", "gradual-release", "Étude–5E 🌱"].randomElement(using: &random) ?? "")
            : text(&random, maxAtoms: 4)
    }

    /// A number as the plan check and reading level hold them: tenths as the tool rounds them,
    /// whole numbers, and now and then any finite value (written with an exponent, say).
    private static func double(_ random: inout SeededGenerator) -> Double {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: Double(Int.random(in: -200...300, using: &random)) / 10
        case 1: Double(Int.random(in: -5...20, using: &random))
        case 2:
            [0, -0.0, 0.1, 2.5, 5.5, 1e-7, 1e21, 123_456_789.123_456_78, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
                .randomElement(using: &random) ?? 0
        default: Double(bitPattern: random.next() & ~(0x7FF << 52)) * (Bool.random(using: &random) ? 1e10 : 1)
        }
    }

    /// One problem of each kind the plan check reports.
    private static func problem(_ random: inout SeededGenerator) -> PlanProblem {
        switch Int.random(in: 0..<9, using: &random) {
        case 0: .missingHeading(text(&random, maxAtoms: 4))
        case 1: .duplicateHeading(text(&random, maxAtoms: 4))
        case 2: .outOfOrder(text(&random, maxAtoms: 4))
        case 3: .pacingTotal(found: integer(&random), expected: integer(&random))
        case 4: .noPacing
        case 5: .warmUpMinutes(found: integer(&random), expected: integer(&random))
        case 6: .tooFewCFUQuestions(found: integer(&random), minimum: integer(&random))
        case 7: .exitTicketPrompts(found: integer(&random), expected: integer(&random))
        default: .codeFence
        }
    }

    private static func check(_ random: inout SeededGenerator) -> PlanCheckReport {
        PlanCheckReport(
            problems: (0..<Int.random(in: 0...4, using: &random)).map { _ in problem(&random) },
            pacedMinutes: maybe(&random, integer), lessonMinutes: integer(&random))
    }

    private static func readingLevel(_ random: inout SeededGenerator) -> ReadingMeasure {
        var measure = ReadingMeasure(studentText: "", band: GradeBand.allCases.randomElement(using: &random) ?? .kTo2)
        measure.grade = maybe(&random, double)
        measure.words = integer(&random)
        measure.expectedLow = double(&random)
        measure.expectedHigh = double(&random)
        measure.inRange = Bool.random(using: &random)
        return measure
    }

    private static func record(_ random: inout SeededGenerator) throws -> TranscriptRecord {
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            return .header(
                SessionHeader(
                    id: text(&random), created: date(&random), inputs: try inputs(&random), model: text(&random),
                    baseUrl: text(&random), name: maybe(&random) { text(&$0) }, toolVersion: text(&random),
                    framework: maybe(&random, framework)))
        case 1:
            return .turnStarted(
                TurnStarted(
                    turn: integer(&random), at: date(&random), command: text(&random), template: text(&random),
                    inputs: try inputs(&random), baseVersion: maybe(&random, integer), model: text(&random),
                    instructions: text(&random, maxAtoms: 40), input: text(&random, maxAtoms: 60),
                    maxOutputTokens: integer(&random), framework: maybe(&random, framework),
                    follows: maybe(&random, integer),
                    kind: maybe(&random) { [TurnKind.plan, .materials, .quiz, .rubric, .review, .overview].randomElement(using: &$0) ?? .plan },
                    retryOf: maybe(&random, integer), continues: maybe(&random, integer),
                    quizKind: maybe(&random) { Quiz.Kind.allCases.randomElement(using: &$0) ?? .exit },
                    quizItems: maybe(&random, integer), quizFeedback: maybe(&random) { Bool.random(using: &$0) },
                    rubricLevels: maybe(&random, integer),
                    lesson: maybe(&random, integer)))
        case 2:
            let usage = maybe(&random) { random in
                Usage(
                    inputTokens: integer(&random), outputTokens: integer(&random),
                    reasoningTokens: maybe(&random, integer))
            }
            return .turnEnded(
                TurnEnded(
                    turn: integer(&random), at: date(&random),
                    status: [TurnStatus.completed, .incomplete, .failed, .cancelled].randomElement(using: &random) ?? .failed,
                    output: text(&random, maxAtoms: 60), usage: usage, responseId: maybe(&random) { text(&$0) },
                    error: maybe(&random) { text(&$0) }, version: maybe(&random, integer), durationMs: integer(&random),
                    check: maybe(&random, check), readingLevel: maybe(&random, readingLevel),
                    kept: maybe(&random) { Bool.random(using: &$0) },
                    made: maybe(&random) { random in
                        Made([TurnKind.materials, .quiz, .rubric, .review].randomElement(using: &random) ?? .quiz, integer(&random))
                    },
                    streamed: maybe(&random) { Bool.random(using: &$0) }))
        case 3:
            return .undo(UndoRecord(at: date(&random), from: integer(&random), to: integer(&random), lesson: maybe(&random, integer)))
        case 4:
            return .named(NameRecord(at: date(&random), name: text(&random)))
        default:
            return .handEdit(
                HandEditRecord(
                    at: date(&random), command: text(&random), baseVersion: integer(&random), version: integer(&random),
                    text: text(&random, maxAtoms: 60), check: maybe(&random, check), lesson: maybe(&random, integer)))
        }
    }

    private static func full(_ line: Data) -> Result<TranscriptRecord, TranscriptLineError> {
        Result { () throws(TranscriptLineError) in try TranscriptCoder().decodeWithoutFastPath(line) }
    }

    /// Everything the writer produces takes the fast path and reads back as the record written.
    @Test func writtenRecordsTakeTheFastPathAndAgree() throws {
        var random = SeededGenerator(seed: 2026)
        let coder = TranscriptCoder()
        for _ in 0..<3_000 {
            let record = try Self.record(&random)
            let line = coder.encode(record)
            let fast = coder.decodeFastPath(line)
            #expect(fast == record, "fast path missed or misread \(String(decoding: line, as: UTF8.self))")
            #expect(Self.full(line) == .success(record), "full decoder misread \(String(decoding: line, as: UTF8.self))")
            #expect(try coder.decode(line) == record)
        }
    }

    // MARK: - Hand-written lines

    /// A JSON value as a test writes it, so key order, escaping and spacing can vary.
    private indirect enum JSON {
        case string(String)
        case integer(Int)
        case raw(String)
        case array([JSON])
        case object([(String, JSON)])

        func text(_ escaping: JSONEscaping, space: String = "") -> String {
            switch self {
            case .string(let value): SSEFixtures.jsonString(value, escaping: escaping)
            case .integer(let value): String(value)
            case .raw(let value): value
            case .array(let elements):
                "[" + space + elements.map { $0.text(escaping, space: space) }.joined(separator: "," + space) + space + "]"
            case .object(let members):
                "{" + space
                    + members.map { SSEFixtures.jsonString($0.0) + space + ":" + space + $0.1.text(escaping, space: space) }
                    .joined(separator: "," + space) + space + "}"
            }
        }
    }

    private static func timestamp(_ date: Date) -> JSON {
        .string(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)))
    }

    private static func inputsJSON(_ inputs: LessonInputs) -> JSON {
        var members: [(String, JSON)] = [
            ("grade", .string(inputs.grade.rawValue)), ("topic", .string(inputs.topic)), ("minutes", .integer(inputs.minutes)),
            ("standards", .string(inputs.standards)), ("constraints", .string(inputs.constraints)),
        ]
        if let given = inputs.givenGrade { members.insert(("given_grade", .integer(given)), at: 2) }
        return .object(members)
    }

    /// A plan check in another order than the tool's (which sorts keys), `paced_minutes` as `null`
    /// when there is none rather than left out.
    private static func checkJSON(_ check: PlanCheckReport) -> JSON {
        .object([
            ("lesson_minutes", .integer(check.lessonMinutes)), ("passed", .raw(check.passed ? "true" : "false")),
            ("problems", .array(check.problems.map(problemJSON))),
            ("paced_minutes", check.pacedMinutes.map(JSON.integer) ?? .raw("null")),
        ])
    }

    /// A problem with its `kind` first and its details after it.
    private static func problemJSON(_ problem: PlanProblem) -> JSON {
        var fields: [(String, JSON)] = [("kind", .string(problem.kind))]
        switch problem {
        case .missingHeading(let heading), .duplicateHeading(let heading), .outOfOrder(let heading):
            fields.append(("heading", .string(heading)))
        case .pacingTotal(let found, let expected), .warmUpMinutes(let found, let expected),
            .exitTicketPrompts(let found, let expected):
            fields += [("found", .integer(found)), ("expected", .integer(expected))]
        case .tooFewCFUQuestions(let found, let minimum):
            fields += [("found", .integer(found)), ("minimum", .integer(minimum))]
        case .noPacing, .codeFence:
            break
        }
        return .object(fields)
    }

    /// A reading level with numbers as Swift prints them (`5.0`, `1e-07`), `grade` as `null` when there is none.
    private static func readingLevelJSON(_ measure: ReadingMeasure) -> JSON {
        .object([
            ("grade", measure.grade.map { JSON.raw("\($0)") } ?? .raw("null")), ("words", .integer(measure.words)),
            ("band", .string(measure.band.rawValue)), ("expected_low", .raw("\(measure.expectedLow)")),
            ("expected_high", .raw("\(measure.expectedHigh)")), ("in_range", .raw(measure.inRange ? "true" : "false")),
        ])
    }

    /// The members of a record as documented in docs/transcript.md; absent optionals left out.
    private static func members(_ record: TranscriptRecord) -> [(String, JSON)] {
        var out: [(String, JSON?)] = [("type", .string(record.type)), ("v", .integer(1))]
        switch record {
        case .header(let h):
            out += [
                ("id", .string(h.id)), ("created", timestamp(h.created)), ("inputs", inputsJSON(h.inputs)),
                ("model", .string(h.model)), ("base_url", .string(h.baseUrl)), ("name", h.name.map(JSON.string)),
                ("tool_version", .string(h.toolVersion)), ("framework", h.framework.map(JSON.string)),
                ("class_name", h.className.map(JSON.string)),
            ]
        case .turnStarted(let s):
            out += [
                ("turn", .integer(s.turn)), ("at", timestamp(s.at)), ("command", .string(s.command)),
                ("template", .string(s.template)), ("inputs", inputsJSON(s.inputs)),
                ("base_version", s.baseVersion.map(JSON.integer)), ("model", .string(s.model)),
                ("instructions", .string(s.instructions)), ("input", .string(s.input)),
                ("max_output_tokens", .integer(s.maxOutputTokens)), ("framework", s.framework.map(JSON.string)),
                ("follows", s.follows.map(JSON.integer)), ("kind", s.kind.map { JSON.string($0.rawValue) }),
                ("retry_of", s.retryOf.map(JSON.integer)), ("continues", s.continues.map(JSON.integer)),
                ("quiz_kind", s.quizKind.map { JSON.string($0.rawValue) }), ("quiz_items", s.quizItems.map(JSON.integer)),
                ("quiz_feedback", s.quizFeedback.map { JSON.raw($0 ? "true" : "false") }),
                ("rubric_levels", s.rubricLevels.map(JSON.integer)), ("lesson", s.lesson.map(JSON.integer)),
            ]
        case .turnEnded(let e):
            let usage = e.usage.map { usage -> JSON in
                var fields: [(String, JSON)] = [("input_tokens", .integer(usage.inputTokens)), ("output_tokens", .integer(usage.outputTokens))]
                if let reasoning = usage.reasoningTokens { fields.append(("reasoning_tokens", .integer(reasoning))) }
                return .object(fields)
            }
            out += [
                ("turn", .integer(e.turn)), ("at", timestamp(e.at)), ("status", .string(e.status.rawValue)),
                ("output", .string(e.output)), ("usage", usage), ("response_id", e.responseId.map(JSON.string)),
                ("error", e.error.map(JSON.string)), ("version", e.version.map(JSON.integer)),
                ("duration_ms", .integer(e.durationMs)), ("check", e.check.map(checkJSON)),
                ("reading_level", e.readingLevel.map(readingLevelJSON)),
                ("kept", e.kept.map { JSON.raw($0 ? "true" : "false") }),
                ("made", e.made.map { JSON.object([("number", .integer($0.number)), ("kind", .string($0.kind.rawValue))]) }),
                ("streamed", e.streamed.map { JSON.raw($0 ? "true" : "false") }),
            ]
        case .undo(let u):
            out += [("at", timestamp(u.at)), ("from", .integer(u.from)), ("to", .integer(u.to)), ("lesson", u.lesson.map(JSON.integer))]
        case .named(let n):
            out += [("at", timestamp(n.at)), ("name", .string(n.name))]
        case .handEdit(let h):
            out += [
                ("at", timestamp(h.at)), ("command", .string(h.command)), ("base_version", .integer(h.baseVersion)),
                ("version", .integer(h.version)), ("text", .string(h.text)), ("check", h.check.map(checkJSON)),
                ("lesson", h.lesson.map(JSON.integer)),
            ]
        case .sourceAdded(let added):
            out += [
                ("at", timestamp(added.at)), ("name", .string(added.source.name)), ("path", .string(added.source.path)),
                ("bytes", .integer(added.source.bytes)), ("sha256", .string(added.source.sha256)),
                ("pages", .array(added.source.pages.map(JSON.string))), ("paged", .raw(added.source.paged ? "true" : "false")),
            ]
        case .sourceRemoved(let removed):
            out += [("at", timestamp(removed.at)), ("number", .integer(removed.number)), ("name", .string(removed.name))]
        case .unit(let unit):
            out += [
                ("at", timestamp(unit.at)), ("turn", .integer(unit.turn)), ("lessons", .integer(unit.lessons)),
                ("inputs", inputsJSON(unit.inputs)), ("framework", unit.framework.map(JSON.string)),
                ("goal", .string(unit.goal)), ("questions", .array(unit.questions.map(JSON.string))),
                (
                    "outline",
                    .array(
                        unit.outline.map {
                            .object([("title", .string($0.title)), ("objective", .string($0.objective)), ("builds_on", .string($0.buildsOn))])
                        })
                ),
            ]
        case .lesson(let lesson):
            out += [("at", timestamp(lesson.at)), ("number", .integer(lesson.number))]
        case .setting(let setting):
            out += [
                ("at", timestamp(setting.at)), ("class_name", setting.className.map(JSON.string)),
                ("repair", setting.repair.map { .raw($0 ? "true" : "false") }),
            ]
        case .forms(let forms):
            out += [
                ("at", timestamp(forms.at)), ("forms", .integer(forms.forms)), ("quiz", .integer(forms.quiz)),
                ("seed", .string(String(forms.seed))),
            ]
        case .results(let results):
            out += [
                ("at", timestamp(results.at)), ("quiz", .integer(results.quiz)),
                ("counts", .array(results.counts.map { counts in .object(counts.sorted { $0.key < $1.key }.map { ($0.key, .integer($0.value)) }) })),
            ]
        }
        return out.compactMap { key, value in value.map { (key, $0) } }
    }

    private static let escapings: [JSONEscaping] = [
        .minimal, JSONEscaping(nonASCII: true), JSONEscaping(nonASCII: true, uppercaseHex: true),
        JSONEscaping(slash: true, shortControls: true), JSONEscaping(nonASCII: true, slash: true, uppercaseHex: true, shortControls: true),
    ]

    /// Other writers (Python's `json.dumps`, a hand edit) may order keys differently, escape
    /// everything as `\uXXXX`, or write `null` for an absent optional: still the fast path.
    @Test func otherKeyOrdersEscapesAndNullsTakeTheFastPathAndAgree() throws {
        var random = SeededGenerator(seed: 11)
        for n in 0..<2_000 {
            let record = try Self.record(&random)
            var members = Self.members(record)
            members.shuffle(using: &random)
            if case .turnEnded = record, !members.contains(where: { $0.0 == "error" }) {
                members.append(("error", .raw("null")))
            }
            let line = Data(JSON.object(members).text(Self.escapings[n % Self.escapings.count]).utf8)
            let fast = TranscriptCoder().decodeFastPath(line)
            #expect(fast == record, "fast path missed or misread \(String(decoding: line, as: UTF8.self))")
            #expect(Self.full(line) == .success(record))
        }
    }

    /// Shapes the fast path leaves to the full decoder, which then reads them as it always has.
    @Test func unusualLinesFallBackAndDecodeAsBefore() throws {
        var random = SeededGenerator(seed: 5)
        let coder = TranscriptCoder()
        var fellBack = 0
        for _ in 0..<300 {
            let record = try Self.record(&random)
            let members = Self.members(record)
            let compact = JSON.object(members).text(.minimal)
            // Shapes that must fall back: whitespace, keys the fast path does not know, and
            // anything a strict reader could take two ways.
            var mustFallBack: [String] = [
                JSON.object(members).text(.minimal, space: " "),
                " " + compact,
                compact + " ",
                compact + "\r",
                "\u{FEFF}" + compact,
                // A field another branch adds (say `rubric` on turn_ended) is never silently dropped.
                JSON.object(members + [("rubric", .object([("passed", .raw("true"))]))]).text(.minimal),
                JSON.object(members + [("attempt", .integer(3))]).text(.minimal),
                // The newer fields with values of the wrong kind (or twice, or on a type without them).
                JSON.object(members + [("kept", .integer(1))]).text(.minimal),
                JSON.object(members + [("kind", .string("worksheet"))]).text(.minimal),
                JSON.object(members + [("follows", .string("3"))]).text(.minimal),
                JSON.object(members + [("retry_of", .raw("3.0"))]).text(.minimal),
                JSON.object(members + [("continues", .raw("true"))]).text(.minimal),
                JSON.object(members + [("check", .raw("[]"))]).text(.minimal),
                JSON.object(members + [("reading_level", .string("7.4"))]).text(.minimal),
                // A key of another record type (`text` belongs to hand_edit, `output` to turn_ended).
                JSON.object(members + [(members.contains { $0.0 == "text" } ? "output" : "text", .string("extra"))]).text(.minimal),
                // The same key twice, an escaped key, a key in another case.
                JSON.object(members + [members[members.count - 1]]).text(.minimal),
                compact.replacingOccurrences(of: #""type":"#, with: #""typ\u0065":"#),
                JSON.object(members.map { ($0.0 == "at" || $0.0 == "created" ? $0.0.uppercased() : $0.0, $0.1) }).text(.minimal),
                // Numbers written another way.
                JSON.object(members.map { ($0.0, $0.0 == "v" ? JSON.raw("1.0") : $0.1) }).text(.minimal),
                JSON.object(members.map { ($0.0, $0.0 == "v" ? JSON.raw("-0") : $0.1) }).text(.minimal),
                JSON.object(members.map { ($0.0, $0.0 == "v" ? JSON.raw("1e0") : $0.1) }).text(.minimal),
                JSON.object(members.map { ($0.0, $0.0 == "v" ? JSON.raw("01") : $0.1) }).text(.minimal),
                JSON.object(members.map { ($0.0, $0.0 == "v" ? JSON.raw("99999999999999999999") : $0.1) }).text(.minimal),
                // A newer version, an unknown type, no type, a bad date.
                JSON.object(members.map { ($0.0, $0.0 == "v" ? JSON.integer(2) : $0.1) }).text(.minimal),
                JSON.object(members.map { ($0.0, $0.0 == "type" ? JSON.string("sticker") : $0.1) }).text(.minimal),
                JSON.object(members.filter { $0.0 != "type" }).text(.minimal),
                JSON.object(members.map { ($0.0, $0.0 == "at" || $0.0 == "created" ? JSON.string("yesterday") : $0.1) }).text(.minimal),
                // A required field missing, or null, or of the wrong kind.
                JSON.object(members.filter { $0.0 != members[2].0 }).text(.minimal),
                JSON.object(members.map { ($0.0, $0.0 == members[2].0 ? JSON.raw("null") : $0.1) }).text(.minimal),
                JSON.object(members.map { ($0.0, $0.0 == members[2].0 ? JSON.raw("true") : $0.1) }).text(.minimal),
                "[" + compact + "]",
                compact + compact,
                "{}",
                "",
            ]
            // A torn line: proper prefixes of the line.
            let bytes = Array(compact.utf8)
            for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 25)) {
                mustFallBack.append(String(decoding: bytes[..<cut], as: UTF8.self))
            }
            for variant in mustFallBack {
                let line = Data(variant.utf8)
                #expect(coder.decodeFastPath(line) == nil, "fast path took \(variant)")
                // What the full decoder makes of it (a record or an error) is what decoding returns.
                #expect(Self.full(line) == Result { () throws(TranscriptLineError) in try coder.decode(line) })
                fellBack += 1
            }
            // Plain enough to take the fast path: no version at all, a date without milliseconds,
            // any milliseconds (both paths read dates with the same parser).
            let anyTime = Self.anyTimestamp(&random)
            for variant in [
                JSON.object(members.filter { $0.0 != "v" }).text(.minimal),
                JSON.object(members.map { ($0.0, $0.0 == "at" || $0.0 == "created" ? JSON.string(anyTime) : $0.1) }).text(.minimal),
                JSON.object(members.map { ($0.0, $0.0 == "at" || $0.0 == "created" ? JSON.string("2026-11-29T12:31:18Z") : $0.1) }).text(.minimal),
            ] {
                let line = Data(variant.utf8)
                let fast = coder.decodeFastPath(line)
                #expect(fast != nil, "fast path missed \(variant)")
                #expect(Self.full(line) == fast.map { .success($0) }, "disagree on \(variant)")
            }
        }
        #expect(fellBack > 300 * 25)
    }

    /// The plan check and the reading level read exactly as the full decoder reads them, however
    /// they are written: a problem kind from a newer build is dropped and the rest kept, a known kind
    /// without its details is dropped too, keys the types lack are ignored, and shapes the fast path
    /// does not take (whitespace, deep nesting) fall back.
    @Test func nestedValuesReadAsTheFullDecoderReadsThem() throws {
        let turnEnded =
            #"{"type":"turn_ended","v":1,"turn":2,"at":"2026-11-29T12:31:18.024Z","status":"completed","output":"plan","duration_ms":9500,"#
        let handEdit = #"{"type":"hand_edit","v":1,"at":"2026-11-29T12:31:18.024Z","command":"/edit","base_version":1,"version":2,"text":"plan","#
        let deep = String(repeating: "[", count: 20) + String(repeating: "]", count: 20)
        // A value, and whether the fast path must take it (nil: either way, as long as the paths agree).
        let checks: [(String, Bool?)] = [
            (#"{"lesson_minutes":45,"paced_minutes":50,"passed":false,"problems":[{"expected":45,"found":50,"kind":"pacing_total"}]}"#, true),
            (#"{"lesson_minutes":45,"passed":true,"problems":[]}"#, true),
            (#"{"lesson_minutes":45,"paced_minutes":null,"passed":true,"problems":[]}"#, true),
            (#"{"lesson_minutes":45,"passed":false,"problems":[{"kind":"rubric_missing","found":1},{"kind":"code_fence"}]}"#, true),
            (#"{"lesson_minutes":45,"passed":false,"problems":[{"kind":"pacing_total","found":50},{"kind":"no_pacing"}]}"#, true),
            (#"{"lesson_minutes":45,"passed":false,"problems":[{"kind":"code_fence","found":1,"heading":"x"}]}"#, true),
            (#"{"lesson_minutes":45,"passed":false,"problems":[{"kind":"missing_heading","heading":null},1,[],"x",null]}"#, true),
            (#"{"lesson_minutes":45,"passed":false,"problems":[{"kind":3},{"kind":"out_of_order","heading":"Exit \"Ticket\" [3] {x}\\"}]}"#, true),
            (#"{"lesson_minutes":45,"passed":false,"problems":[{"kind":"missing_heading","heading":"Warm\u2013Up \ud83c\udf31"}]}"#, true),
            (#"{"lesson_minutes":45,"passed":"yes","score":3,"extra":{"a":[1,2,{"b":null}]},"problems":[]}"#, true),
            (#"{"lessonMinutes":45,"problems":[]}"#, nil),
            (#"{"lesson_minutes":45,"lessonMinutes":30,"problems":[]}"#, nil),
            (#"{"lesson_minutes":45,"lesson_minutes":30,"problems":[]}"#, nil),
            (#"{"lesson\u005fminutes":45,"problems":[]}"#, nil),
            (#"{"lesson_minutes":45.0,"problems":[]}"#, nil),
            (#"{"lesson_minutes":4.5e1,"problems":[]}"#, nil),
            (#"{"lesson_minutes":45, "problems":[]}"#, false),
            (#"{"lesson_minutes":45,"problems":[],"x":\#(deep)}"#, false),
            (#"{"lesson_minutes":45,"problems":[]"#, false),
            (#"{"lesson_minutes":45,"problems":[}]"#, false),
            (#"{"lesson_minutes":45,"problems":[]}}"#, false),
            (#"{"lesson_minutes":45,"problems":"none"}"#, false),
            (#"{"problems":[]}"#, false),
            (#"{"lesson_minutes":45,"problems":["\u12"]}"#, false),
            ("{\"lesson_minutes\":45,\"problems\":[\"tab\there\"]}", nil),
            ("{}", false), ("[]", false), ("null", true), ("true", false), (#""check""#, false),
        ]
        let levels: [(String, Bool?)] = [
            (#"{"band":"6–8","expected_high":10,"expected_low":6,"grade":7.4,"in_range":true,"words":120}"#, true),
            (#"{"band":"K–2","expected_high":2.5,"expected_low":0,"in_range":true,"words":0}"#, true),
            (#"{"band":"3\u20135","expected_high":5.5,"expected_low":2,"grade":null,"in_range":true,"words":0}"#, true),
            (#"{"band":"9–12","expected_high":14,"expected_low":8,"grade":-0.0,"in_range":false,"words":3,"x":1}"#, true),
            (#"{"band":"9–12","expected_high":1.4e1,"expected_low":8E0,"grade":7.40,"in_range":false,"words":3}"#, true),
            (#"{"band":"9–12","expected_high":14,"expected_low":8,"grade":1e400,"in_range":false,"words":3}"#, nil),
            (#"{"band":"9–12","expected_high":14,"expected_low":8,"grade":7.4,"in_range":false,"words":3.0}"#, nil),
            (#"{"band":"6-8","expected_high":10,"expected_low":6,"in_range":true,"words":1}"#, false),
            (#"{"band":"7–9","expected_high":10,"expected_low":6,"in_range":true,"words":1}"#, false),
            (#"{"band":"6–8","expected_high":10,"expected_low":6,"in_range":1,"words":1}"#, false),
            (#"{"band":"6–8","expected_high":"10","expected_low":6,"in_range":true,"words":1}"#, false),
            (#"{"band":"6–8","expected_low":6,"in_range":true,"words":1}"#, false),
            ("null", true), ("{}", false),
        ]
        let lines =
            checks.map { (turnEnded + #""check":"# + $0.0 + "}", $0.1) }
            + checks.map { (handEdit + #""check":"# + $0.0 + "}", $0.1) }
            + levels.map { (turnEnded + #""reading_level":"# + $0.0 + "}", $0.1) }
        let coder = TranscriptCoder()
        for (text, mustTake) in lines {
            let line = Data(text.utf8)
            let fast = coder.decodeFastPath(line)
            if let mustTake { #expect((fast != nil) == mustTake, "\(mustTake ? "missed" : "took") \(text)") }
            if let fast {
                #expect(Self.full(line) == .success(fast), "disagree on \(text)")
            } else {
                #expect(Self.full(line) == Result { () throws(TranscriptLineError) in try coder.decode(line) })
            }
        }
        // What dropping looks like: the unknown kind goes, the rest stays.
        let line = Data((turnEnded + #""check":"# + checks[3].0 + "}").utf8)
        guard case .turnEnded(let ended) = coder.decodeFastPath(line) else {
            Issue.record("fast path missed a check with an unknown problem kind")
            return
        }
        #expect(ended.check == PlanCheckReport(problems: [.codeFence], pacedMinutes: nil, lessonMinutes: 45))
    }

    // MARK: - The plan check and reading level, read without JSONDecoder

    /// Writes as `TranscriptCoder` does, so the values are what the tool puts on a line.
    private static let toolEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Reads like the full decoder's `JSONDecoder`.
    private static let toolDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()

    /// What one of the scanner's own readers makes of all of `data`, or nil when it gives up or
    /// leaves bytes over.
    private static func scanned<T>(_ data: Data, _ read: (inout TranscriptLineScanner.Scanner) -> T?) -> T? {
        data.withUnsafeBytes { raw -> T? in
            guard let base = raw.baseAddress else { return nil }
            var scanner = TranscriptLineScanner.Scanner(
                base: base.assumingMemoryBound(to: UInt8.self), count: raw.count, keepsPrompts: true)
            guard let value = read(&scanner), scanner.index == raw.count else { return nil }
            return value
        }
    }

    /// Student text of a few sentences, so the reading level is one the tool computes.
    private static func studentText(_ random: inout SeededGenerator) -> String {
        let words = [
            "Plants", "use", "light", "to", "make", "food.", "Why", "does", "photosynthesis", "matter?", "Explain",
            "your", "thinking", "with", "evidence", "from", "the", "experiment.", "A", "leaf", "is", "green.",
        ]
        return (0..<Int.random(in: 0...60, using: &random)).map { _ in words.randomElement(using: &random) ?? "" }
            .joined(separator: " ")
    }

    /// The check and reading level the tool writes are read by the scanner itself, not by a
    /// `JSONDecoder` on the side (about 20 µs a value, which tripled `resume`), and read the same.
    @Test func writtenChecksAndReadingLevelsAreReadWithoutJSONDecoder() throws {
        var random = SeededGenerator(seed: 31)
        for _ in 0..<2_000 {
            let check = Self.check(&random)
            let written = try Self.toolEncoder.encode(check)
            #expect(Self.scanned(written) { $0.planCheck() } == check, "\(String(decoding: written, as: UTF8.self))")
            #expect(try Self.toolDecoder.decode(PlanCheckReport.self, from: written) == check)

            let measure = ReadingMeasure(
                studentText: Self.studentText(&random), band: GradeBand.allCases.randomElement(using: &random) ?? .kTo2)
            let level = try Self.toolEncoder.encode(measure)
            #expect(Self.scanned(level) { $0.readingMeasure() } == measure, "\(String(decoding: level, as: UTF8.self))")
            #expect(try Self.toolDecoder.decode(ReadingMeasure.self, from: level) == measure)
        }
    }

    /// Whatever the scanner's own readers take, written by the tool or by hand, damaged or not,
    /// `JSONDecoder` reads the same; what they leave, the line's fast path still reads through it.
    @Test func checkAndReadingLevelReadersAgreeWithJSONDecoder() throws {
        var random = SeededGenerator(seed: 32)
        let noise: [UInt8] = Array(#"{}[]":,\ u0123456789.eE+-truefalsn_kind"#.utf8) + [0x0A, 0x09, 0x00, 0xC3, 0xA9, 0xFF]
        var taken = 0
        var damagedTaken = 0
        for n in 0..<4_000 {
            let check = Self.check(&random)
            let measure = Self.readingLevel(&random)
            var candidates: [(Data, isCheck: Bool)] = [
                (try Self.toolEncoder.encode(check), true), (try Self.toolEncoder.encode(measure), false),
                (Data(Self.checkJSON(check).text(Self.escapings[n % Self.escapings.count]).utf8), true),
                (Data(Self.readingLevelJSON(measure).text(Self.escapings[n % Self.escapings.count]).utf8), false),
            ]
            for (data, isCheck) in candidates.prefix(2) {
                var bytes = Array(data)
                for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
                    let at = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: bytes.remove(at: at)
                    case 1: bytes.insert(noise.randomElement(using: &random) ?? 0x20, at: at)
                    default: bytes[at] = noise.randomElement(using: &random) ?? 0x20
                    }
                }
                candidates.append((Data(bytes), isCheck))
            }
            for (index, (data, isCheck)) in candidates.enumerated() {
                let text = String(decoding: data, as: UTF8.self)
                if isCheck {
                    guard let hand = Self.scanned(data, { $0.planCheck() }) else { continue }
                    #expect((try? Self.toolDecoder.decode(PlanCheckReport.self, from: data)) == hand, "disagree on \(text)")
                } else {
                    guard let hand = Self.scanned(data, { $0.readingMeasure() }) else { continue }
                    #expect((try? Self.toolDecoder.decode(ReadingMeasure.self, from: data)) == hand, "disagree on \(text)")
                }
                taken += 1
                if index >= 4 { damagedTaken += 1 }
            }
        }
        // Both kinds of input reach the comparison: most undamaged values, and some damaged ones
        // (damage inside a heading or a number, say).
        #expect(taken > 8_000 && damagedTaken > 100, "\(taken) taken, \(damagedTaken) of them damaged")
    }

    @Test func awkwardEscapesFallBackOrAgree() throws {
        let header = #"{"type":"name","v":1,"at":"2026-11-29T12:31:18.024Z","name":"#
        let cases = [
            #""\ud83d""#, #""\ude00""#, #""\ud83d\u0041""#, #""\ud83dx""#, #""\u12""#, #""\u12G4""#, #""\x41""#, #""\'""#,
            #""\U0041""#, "\"tab\there\"", "\"nl\nhere\"", #""\u0000\u001f\u007f""#, #""\uDBFF\uDFFF""#, #""\uD800\uDC00""#,
            #""ends with backslash\""#, #""\""#, "\"\u{7F}\"", #""\/\b\f\n\r\t\"\\""#, #""\u00e9\u2013\uD83C\uDF31""#, #""""#,
        ]
        for value in cases {
            let line = Data((header + value + "}").utf8)
            if let fast = TranscriptCoder().decodeFastPath(line) {
                #expect(Self.full(line) == .success(fast), "disagree on \(value)")
            } else {
                #expect(throws: TranscriptLineError.self) { try TranscriptCoder().decodeWithoutFastPath(line) }
            }
        }
        // Bytes that are not UTF-8 are for the full decoder to refuse.
        for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80]] {
            let line = Data(header.utf8) + Data([UInt8(ascii: "\"")] + bad + [UInt8(ascii: "\""), UInt8(ascii: "}")])
            #expect(TranscriptCoder().decodeFastPath(line) == nil)
            #expect(throws: TranscriptLineError.self) { try TranscriptCoder().decodeWithoutFastPath(line) }
        }
    }

    /// Random damage to valid lines: whatever the fast path still accepts, the full decoder must
    /// read the same way.
    @Test func damagedLinesNeverMakeThePathsDisagree() throws {
        var random = SeededGenerator(seed: 42)
        let noise: [UInt8] = Array(#"{}[]":,\ u0123456789abcdefABCDEF-.etrunlTZ"#.utf8) + [0x0A, 0x09, 0x00, 0xC3, 0xA9, 0xFF]
        let coder = TranscriptCoder()
        var fastHits = 0
        for _ in 0..<6_000 {
            var bytes = Array(coder.encode(try Self.record(&random)))
            random.damage(&bytes, noise: noise)
            let line = Data(bytes)
            if let fast = coder.decodeFastPath(line) {
                fastHits += 1
                #expect(Self.full(line) == .success(fast), "disagree on \(String(decoding: bytes, as: UTF8.self))")
            }
        }
        // Much damage lands inside a string and leaves a valid line, so both branches run.
        #expect(fastHits > 500)
    }

    // MARK: - Prompts checked but not kept

    /// A prompt as a damaged or hand-made file may hold it: escapes good and bad, raw control
    /// bytes, stray quotes, and UTF-8 good and bad (overlong, surrogate, too large, cut short).
    private static func garbagePrompt(_ random: inout SeededGenerator) -> [UInt8] {
        let good: [[UInt8]] = [Array("plan".utf8), Array(" ".utf8), Array("–".utf8), Array("😀".utf8), Array("é".utf8)]
        let awkward: [[UInt8]] = [
            Array(#"\n"#.utf8), Array(#"\""#.utf8), Array(#"\\"#.utf8), Array(#"\u00e9"#.utf8), Array(#"\ud83d\ude00"#.utf8),
            Array(#"\ud83d"#.utf8), Array(#"\ude00"#.utf8), Array(#"\u12"#.utf8), Array(#"\x"#.utf8), Array("\\".utf8), [0x22],
            [0x00], [0x09], [0x1F], [0x7F], [0x80], [0xBF], [0xC0, 0xAF], [0xC2], [0xC3, 0xA9], [0xE0, 0x80, 0x80],
            [0xE2, 0x80], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBD], [0xF0, 0x9F, 0x98], [0xF4, 0x90, 0x80, 0x80], [0xF5], [0xFF],
        ]
        var bytes: [UInt8] = []
        for _ in 0..<Int.random(in: 0...24, using: &random) {
            // Mostly good text, so that many prompts are valid and both outcomes occur.
            let pool = Int.random(in: 0..<12, using: &random) == 0 ? awkward : good
            bytes += pool.randomElement(using: &random) ?? []
        }
        return bytes
    }

    private static func withoutPrompts(_ record: TranscriptRecord) -> TranscriptRecord {
        guard case .turnStarted(var started) = record else { return record }
        started.instructions = ""
        started.input = ""
        return .turnStarted(started)
    }

    private static func read(_ data: Data, _ prompts: TranscriptReader.Prompts) -> Result<LoadedTranscript, StoreError> {
        Result { () throws(StoreError) in try TranscriptReader.parse(data, path: "t.jsonl", prompts: prompts) }
    }

    private static func range(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start..<(start + needle.count)
        }
        return nil
    }

    /// `resume` and `replay` check prompts without keeping them: the same lines must be read and
    /// the same ones skipped, with the same warnings, and the records differ only in the prompts.
    @Test func skippedPromptsReadTheSameLinesAsKeptOnes() throws {
        var random = SeededGenerator(seed: 77)
        let coder = TranscriptCoder()
        let header = coder.encode(.header(try TranscriptFixtures.header())) + Data("\n".utf8)
        var transcript = header
        var unreadable = 0
        var turnsStarted = 0
        for n in 0..<3_000 {
            let record = try Self.record(&random)
            var line = coder.encode(record)
            if case .turnStarted = record {
                // Garbage in place of the written prompt, in one prompt field or the other.
                turnsStarted += 1
                let field = n % 2 == 0 ? "input" : "instructions"
                let members = Self.members(record).map { ($0.0, $0.0 == field ? JSON.raw("PROMPT") : $0.1) }
                let written = Array(JSON.object(members).text(.minimal).utf8)
                guard let at = Self.range(of: Array("PROMPT".utf8), in: written) else {
                    Issue.record("no placeholder in \(String(decoding: written, as: UTF8.self))")
                    continue
                }
                line = Data(written[..<at.lowerBound] + [0x22] + Self.garbagePrompt(&random) + [0x22] + written[at.upperBound...])
            }
            line.append(UInt8(ascii: "\n"))
            let kept = Self.read(header + line, .kept)
            let skipped = Self.read(header + line, .skipped)
            #expect(skipped.map(\.records) == kept.map { $0.records.map(Self.withoutPrompts) }, "\(String(decoding: line, as: UTF8.self))")
            #expect(skipped.map(\.warnings) == kept.map(\.warnings))
            if case .turnStarted = record, case .success(let loaded) = kept, !loaded.warnings.isEmpty { unreadable += 1 }
            transcript += line
        }
        // Both outcomes occur: good prompts are read, bad ones make the line unreadable.
        #expect(unreadable > 50 && unreadable < turnsStarted - 50, "\(unreadable) of \(turnsStarted)")
        let kept = Self.read(transcript, .kept)
        let skipped = Self.read(transcript, .skipped)
        #expect(skipped.map(\.records) == kept.map { $0.records.map(Self.withoutPrompts) })
        #expect(skipped.map(\.warnings) == kept.map(\.warnings))
    }

    // MARK: - A field added without teaching the schema

    /// Each record type's properties, snake-cased, are exactly the keys of its columns
    /// (`TranscriptColumns.swift`), through which the writer, the full decoder and the fast path all go.
    /// A property added to a record type without its column fails here.
    @Test func theSchemaKnowsEveryField() throws {
        func keys(_ value: Any) -> Set<String> {
            Set(
                Mirror(reflecting: value).children.compactMap(\.label).map { label in
                    label.reduce(into: "") { out, character in
                        if character.isUppercase { out += "_" + character.lowercased() } else { out.append(character) }
                    }
                })
        }
        func schema(_ type: TranscriptRecordType) -> Set<String> {
            Set(type.fields.filter { $0 != .type && $0 != .v }.map(\.key.description))
        }
        let t0 = Date(timeIntervalSince1970: 0)
        let inputs = try LessonInputs(grade: .sixTo8, topic: "t", minutes: 45)
        let samples: [TranscriptRecord] = [
            .header(SessionHeader(id: "", created: t0, inputs: inputs, model: "", baseUrl: "", toolVersion: "")),
            .turnStarted(
                TurnStarted(
                    turn: 1, at: t0, command: "", template: "", inputs: inputs, baseVersion: nil, model: "",
                    instructions: "", input: "", maxOutputTokens: 1)),
            .turnEnded(
                TurnEnded(
                    turn: 1, at: t0, status: .completed, output: "", usage: nil, responseId: nil, error: nil, version: nil,
                    durationMs: 0)),
            .undo(UndoRecord(at: t0, from: 1, to: 1)),
            .named(NameRecord(at: t0, name: "")),
            .handEdit(HandEditRecord(at: t0, command: "", baseVersion: 1, version: 2, text: "")),
            .sourceAdded(
                SourceRecord(at: t0, source: SourceDocument(name: "", path: "", bytes: 0, sha256: "", pages: [], paged: true))),
            .sourceRemoved(SourceRemovedRecord(at: t0, number: 1, name: "")),
            .unit(
                UnitRecord(
                    at: t0, turn: 1, inputs: inputs, framework: nil,
                    plan: UnitPlan(goal: "", questions: [], lessons: [UnitLessonOutline(title: "", objective: "")]))),
            .lesson(LessonRecord(at: t0, number: 1)),
            .setting(SettingRecord(at: t0, repair: false)),
            .results(ResultsRecord(at: t0, quiz: 1, counts: [["A": 3, "B": 9]])),
            .forms(FormsRecord(at: t0, quiz: 1, forms: 2, seed: 18_446_744_073_709_551_615)),
        ]
        #expect(Set(samples.map(\.recordType)) == Set(TranscriptRecordType.allCases))
        for record in samples {
            let found: Set<String> =
                switch record {
                case .header(let value): keys(value)
                case .turnStarted(let value): keys(value)
                // Plus the keys older transcripts wrote for what a turn made, read as `made` and never written.
                case .turnEnded(let value): keys(value).union(["materials", "quiz", "rubric", "review"])
                case .undo(let value): keys(value)
                case .named(let value): keys(value)
                case .handEdit(let value): keys(value)
                // A source line is flat: the document's fields beside `at`.
                case .sourceAdded(let value): keys(value.source).union(["at"])
                case .sourceRemoved(let value): keys(value)
                case .unit(let value): keys(value)
                case .lesson(let value): keys(value)
                case .setting(let value): keys(value)
                case .results(let value): keys(value)
                case .forms(let value): keys(value)
                }
            #expect(found == schema(record.recordType), "\(record.type)")
        }
        // Each key passes through the coders' snake-case strategies unchanged: written as the key on disk, and a line
        // with that key read back into the field.
        struct OneKey: Codable {
            var field: TranscriptField
            func encode(to encoder: any Encoder) throws {
                var out = encoder.container(keyedBy: TranscriptField.self)
                try out.encode(1, forKey: field)
            }
            init(field: TranscriptField) { self.field = field }
            init(from decoder: any Decoder) throws {
                let line = try decoder.container(keyedBy: TranscriptField.self)
                guard let first = line.allKeys.first else {
                    throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no key"))
                }
                field = first
            }
        }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        for field in TranscriptField.allCases {
            let written = try encoder.encode(OneKey(field: field))
            #expect(String(decoding: written, as: UTF8.self) == "{\"\(field.key)\":1}")
            #expect(try TranscriptCoder.decoder.decode(OneKey.self, from: written).field == field)
        }
        // Every key belongs to some record type, and the tag and version to all of them.
        #expect(Set(TranscriptRecordType.allCases.flatMap(\.fields)) == Set(TranscriptField.allCases))
        #expect(TranscriptRecordType.allCases.allSatisfy { $0.fields.starts(with: [.type, .v]) })

        // The objects inside a line are read by the scanner too (a key it does not know sends a
        // plan check or reading level to JSONDecoder on the side, at about 20 µs a value).
        #expect(keys(inputs) == ["grade", "topic", "minutes", "standards", "constraints", "given_grade"])
        #expect(keys(Usage(inputTokens: 1, outputTokens: 2)) == ["input_tokens", "output_tokens", "reasoning_tokens"])
        #expect(
            keys(PlanCheckReport(problems: [], pacedMinutes: nil, lessonMinutes: 45, notes: []))
                == ["problems", "paced_minutes", "lesson_minutes", "notes"])
        #expect(
            keys(ReadingMeasure(studentText: "", band: .sixTo8))
                == ["grade", "words", "band", "expected_low", "expected_high", "in_range"])
    }
}

/// A unit's lines (`unit`, `lesson`) are rare: the fast path leaves them to the full decoder, which reads them
/// back exactly as written.
@Suite struct UnitLineTests {
    @Test func unitAndLessonLinesReadBackAsWritten() throws {
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let inputs = try LessonInputs(grade: .threeTo5, topic: "Fractions", minutes: 45, givenGrade: 4)
        let plan = UnitPlan(
            goal: "Compare fractions.", questions: ["Why can two fractions name one amount?"],
            lessons: [
                UnitLessonOutline(title: "Unit fractions", objective: "Students will name unit fractions.", buildsOn: "equal shares"),
                UnitLessonOutline(title: "Equivalence", objective: "Students will find equivalent fractions.", buildsOn: "Lesson 1"),
            ])
        let coder = TranscriptCoder()
        for record in [
            TranscriptRecord.unit(UnitRecord(at: t0, turn: 1, inputs: inputs, framework: "5e", plan: plan)),
            .lesson(LessonRecord(at: t0, number: 2)),
        ] {
            let line = coder.encode(record)
            #expect(coder.decodeFastPath(line) == nil)
            #expect(try coder.decode(line) == record, "\(String(decoding: line, as: UTF8.self))")
        }
        let line = String(decoding: coder.encode(.unit(UnitRecord(at: t0, turn: 1, inputs: inputs, framework: nil, plan: plan))), as: UTF8.self)
        #expect(line.hasPrefix(#"{"type":"unit","v":1,"#) && line.contains(#""builds_on":"equal shares""#) && line.contains(#""lessons":2"#))
    }
}
