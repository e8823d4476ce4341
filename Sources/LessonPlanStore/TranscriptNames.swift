import Foundation
import LessonPlanCore

/// A transcript holds what was sent: a class's names are written as their pseudonyms and read back as names,
/// so a transcript shared with a colleague carries none, and the map stays in the class file.
package enum TranscriptNames {
    /// `line` (JSON) with every string in it passed through `transform`; a string it leaves alone keeps its bytes.
    package static func transformingStrings(in line: Data, _ transform: (String) -> String) -> Data {
        let bytes = [UInt8](line)
        var out = Data()
        out.reserveCapacity(bytes.count)
        var index = 0
        var copiedFrom = 0
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        while index < bytes.count {
            guard bytes[index] == quote else {
                index += 1
                continue
            }
            var end = index + 1
            while end < bytes.count, bytes[end] != quote { end += bytes[end] == backslash ? 2 : 1 }
            guard end < bytes.count else { break }
            let literal = bytes[index...end]
            // A string without escapes is its bytes; only one with escapes needs the decoder.
            let text =
                literal.contains(backslash)
                ? try? JSONDecoder().decode(String.self, from: Data(literal))
                : String(decoding: literal.dropFirst().dropLast(), as: UTF8.self)
            if let text {
                let changed = transform(text)
                if changed != text, let encoded = try? encoder.encode(changed) {
                    out.append(contentsOf: bytes[copiedFrom..<index])
                    out.append(encoded)
                    copiedFrom = end + 1
                }
            }
            index = end + 1
        }
        out.append(contentsOf: bytes[copiedFrom...])
        return out
    }

    /// Strings encoded as the transcript's lines encode them.
    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension TranscriptRecord {
    /// The record with every text in it passed through `transform` (names to pseudonyms, or back).
    package func transformingText(_ transform: (String) -> String) -> TranscriptRecord {
        let coder = TranscriptCoder()
        let line = TranscriptNames.transformingStrings(in: coder.encode(self), transform)
        return (try? coder.decode(line)) ?? self
    }
}

extension LoadedTranscript {
    /// The transcript with the class's pseudonyms read back as the names the teacher knows.
    package func restoringNames(_ map: NameMap) -> LoadedTranscript {
        var restored = self
        restored.records = records.map { $0.transformingText(map.restored) }
        return restored
    }

    /// The class the session was tied to last (`--class`, `/class`), if any.
    package var className: String? {
        var name: String?
        for record in records {
            switch record {
            case .header(let header): name = header.className ?? name
            case .setting(let setting): name = setting.className ?? name
            default: break
            }
        }
        return name
    }
}
