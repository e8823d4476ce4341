import Foundation

/// The learning platforms' import formats a quiz can be exported in (`/export quiz FORMAT`).
package enum LMSFormat: String, CaseIterable, Sendable {
    case qti, imscc, gift, moodle, aiken, blackboard, kahoot

    /// Reads a format's name, any case, with a few common spellings (`moodlexml`, `cc`, `canvas`).
    package init?(text: String) {
        switch text.lowercased() {
        case "qti", "qti12", "canvas": self = .qti
        case "imscc", "cc", "cartridge", "commoncartridge": self = .imscc
        case "gift": self = .gift
        case "moodle", "moodlexml", "moodle-xml", "xml": self = .moodle
        case "aiken": self = .aiken
        case "blackboard", "bb": self = .blackboard
        case "kahoot", "xlsx": self = .kahoot
        default: return nil
        }
    }

    /// What the file is, in a sentence ("Wrote … of quiz 2 to …").
    package var label: String {
        switch self {
        case .qti: "a QTI 1.2 zip"
        case .imscc: "a Common Cartridge"
        case .gift: "a GIFT file"
        case .moodle: "a Moodle XML file"
        case .aiken: "an Aiken file"
        case .blackboard: "a Blackboard upload"
        case .kahoot: "a Kahoot spreadsheet"
        }
    }

    /// The end of the file name written when none is given: `<topic>-v<N>` and this.
    package var defaultSuffix: String {
        switch self {
        case .qti: "-quiz-qti.zip"
        case .imscc: "-lesson.imscc"
        case .gift: "-quiz.gift"
        case .moodle: "-quiz-moodle.xml"
        case .aiken: "-quiz-aiken.txt"
        case .blackboard: "-quiz-blackboard.txt"
        case .kahoot: "-quiz-kahoot.xlsx"
        }
    }

    /// The file name endings the platform's import takes (the first is the one to use): Canvas offers only a .zip
    /// for a QTI package, Kahoot only an .xlsx, and so on.
    package var extensions: [String] {
        switch self {
        case .qti: ["zip"]
        case .imscc: ["imscc", "zip"]
        case .gift: ["gift", "txt"]
        case .moodle: ["xml"]
        case .aiken: ["txt"]
        case .blackboard: ["txt"]
        case .kahoot: ["xlsx"]
        }
    }

    /// One sentence when `path` does not end the way the platform's import needs (`quiz.qti` for Canvas), naming the
    /// file to write instead; nil when it does.
    package func misnamed(_ path: String) -> String? {
        let name = (path as NSString).lastPathComponent
        let ending = (name as NSString).pathExtension.lowercased()
        guard !extensions.contains(ending), let wanted = extensions.first else { return nil }
        let stem = ending.isEmpty ? name : (name as NSString).deletingPathExtension
        let others = extensions.count > 1 ? " (or ." + extensions.dropFirst().joined(separator: ", .") + ")" : ""
        return
            "\(label.capitalizedFirst) needs a name ending in .\(wanted)\(others), which is what \(platform) imports; “\(name)” would not be offered for upload, so nothing was written: name it \(stem).\(wanted), or leave the name out."
    }

    /// Where the file is imported, for a sentence.
    var platform: String {
        switch self {
        case .qti: "Canvas"
        case .imscc: "a learning platform"
        case .gift, .moodle, .aiken: "Moodle"
        case .blackboard: "Blackboard"
        case .kahoot: "Kahoot"
        }
    }

    /// The names as `/export quiz` lists them.
    package static var names: String {
        allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + (allCases.last?.rawValue ?? "")
    }
}
