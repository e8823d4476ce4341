import Foundation

/// The offline model `scripts/local-model install` put in the data directory, as the first line of its
/// `local-model/install.stamp` names it (`model: 1.5b Qwen2.5-Coder-1.5B-Instruct`): `--local` asks the server
/// for it by name, and `doctor` says which one is there.
package struct OfflineModel: Sendable, Equatable {
    /// What `--model` picked: `1.5b` or `tiny`.
    package let choice: String
    /// The name the server answers to.
    package let name: String

    /// The installed model, or nil when there is no stamp or its first line is not one the script writes. The file
    /// is not the tool's own text: only a known choice and a plain model name (letters, digits, `.`, `_`, `-`) are taken.
    package static func installed(in dataDirectory: URL) -> OfflineModel? {
        let stamp = dataDirectory.appending(path: "local-model/install.stamp")
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: stamp.path),
            attributes[.type] as? FileAttributeType == .typeRegular, (attributes[.size] as? Int ?? 0) < 4096,
            let text = try? String(contentsOf: stamp, encoding: .utf8),
            let line = text.split(separator: "\n", omittingEmptySubsequences: false).first
        else { return nil }
        let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard words.count == 3, words[0] == "model:", ["1.5b", "tiny"].contains(words[1]) else { return nil }
        let name = words[2]
        let plain = name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
        guard plain, (1...64).contains(name.count) else { return nil }
        return OfflineModel(choice: words[1], name: name)
    }

    /// What `doctor` says about the offline model in `dataDirectory`.
    package static func description(in dataDirectory: URL) -> String {
        guard let model = installed(in: dataDirectory) else { return "not installed (scripts/local-model install)" }
        return "\(model.name), installed (scripts/local-model install --model \(model.choice))"
    }
}
