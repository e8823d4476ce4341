import Foundation
import LessonPlanCore

#if canImport(Glibc)
    import Glibc
#endif

/// Class lists, one owner-only file each under `classes/` in the data directory: the names, their needs and
/// the pseudonyms that stand for them. They never leave the machine.
package struct ClassStore: Sendable {
    package let directory: DataDirectory

    package init(directory: DataDirectory) { self.directory = directory }

    package var folder: URL { directory.root.appending(path: "classes", directoryHint: .isDirectory) }

    /// What can go wrong with a class list, in one sentence that says what to do.
    package enum Failure: Error, Equatable, Sendable, LocalizedError {
        case badName(String)
        case notFound(name: String, known: [String])
        case store(StoreError)

        package var errorDescription: String? {
            switch self {
            case .badName(let name):
                "“\(TerminalSanitizer.cleanLine(name, limit: 40))” cannot be a class name; use 1 to 40 letters, digits, dots, dashes or underscores, e.g. 4B or period-3."
            case .notFound(let name, let known):
                "There is no class “\(TerminalSanitizer.cleanLine(name, limit: 40))”; "
                    + (known.isEmpty
                        ? "add one with `lessonplan class add NAME FILE` (a CSV, or one name a line)."
                        : "the classes are \(known.joined(separator: ", ")); `lessonplan class add NAME FILE` adds one.")
            case .store(let error): error.errorDescription
            }
        }
    }

    /// Whether `name` can name a class file: 1 to 40 letters, digits, dots, dashes or underscores, not starting with a dot.
    package static func isValidName(_ name: String) -> Bool {
        (1...40).contains(name.count) && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
    }

    private func file(_ name: String) throws(Failure) -> URL {
        guard Self.isValidName(name) else { throw .badName(name) }
        return folder.appending(path: "\(name).json")
    }

    /// The names of the classes, sorted.
    package func names() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.filter(Self.isValidName).sorted()
    }

    /// The class called `name` (any case).
    package func load(_ name: String) throws(Failure) -> ClassRoster {
        let known = names()
        guard let found = known.first(where: { $0.lowercased() == name.lowercased() }) else {
            throw Self.isValidName(name) ? .notFound(name: name, known: known) : .badName(name)
        }
        let url = try file(found)
        let data: Data
        do throws(StoreError) { data = try PrivateFiles.read(url, followLinks: false, limit: 4 << 20) } catch {
            throw .store(error)
        }
        guard let roster = try? JSONDecoder().decode(ClassRoster.self, from: data) else {
            throw .store(.io(path: url.path, reason: "is not a class list lessonplan wrote"))
        }
        return roster
    }

    /// Writes the class, owner-only, replacing the file whole.
    package func save(_ roster: ClassRoster) throws(Failure) {
        let url = try file(roster.name)
        do throws(StoreError) {
            try directory.prepare()
            var info = stat()
            if lstat(folder.path, &info) != 0 {
                do {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                } catch {
                    throw StoreError.io(path: folder.path, reason: "cannot create the directory")
                }
            } else if info.st_mode & S_IFMT != S_IFDIR || info.st_uid != geteuid() || info.st_mode & 0o077 != 0 {
                throw StoreError.unsafeDirectory(path: folder.path, reason: "is not a private directory of yours", fix: "chmod 700 \(folder.path)")
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try PrivateFiles.write((try? encoder.encode(roster)) ?? Data(), to: url, replace: true)
        } catch {
            throw .store(error)
        }
    }

    /// Removes the class's file; sessions tied to it then show its pseudonyms.
    package func remove(_ name: String) throws(Failure) {
        let roster = try load(name)
        do { try FileManager.default.removeItem(at: try file(roster.name)) } catch let failure as Failure { throw failure } catch {
            throw .store(.io(path: folder.path, reason: "cannot remove the class file"))
        }
    }

    /// The class's map of names to pseudonyms, reading names that are ordinary words (`Will`) only capitalised.
    package func map(_ name: String, ordinaryWords: Set<String>) throws(Failure) -> (roster: ClassRoster, map: NameMap) {
        let roster = try load(name)
        return (roster, NameMap(roster: roster, ordinaryWords: ordinaryWords))
    }

    /// `transcript` with its class's pseudonyms read back as names, and `names` tied to that class; a class that
    /// is not on this machine leaves the pseudonyms, with a warning saying so.
    package func restoring(_ transcript: LoadedTranscript, into names: ClassNames, ordinaryWords: Set<String>) -> LoadedTranscript {
        guard let name = transcript.className else { return transcript }
        do {
            let (roster, map) = try self.map(name, ordinaryWords: ordinaryWords)
            names.set(roster: roster, map: map)
            return transcript.restoringNames(map)
        } catch {
            var kept = transcript
            kept.warnings.append(
                "This session was tied to the class “\(TerminalSanitizer.cleanLine(name, limit: 40))”, which is not on this machine, so its students show as their pseudonyms (Student A …)."
            )
            return kept
        }
    }
}
