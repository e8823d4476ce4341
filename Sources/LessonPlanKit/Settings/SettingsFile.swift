import Foundation
import LessonPlanCore
import LessonPlanModel

#if canImport(Glibc)
    import Glibc
#endif

/// The teacher's settings file, in the spirit of the original demo's `Secrets.xcconfig`, so a key
/// or a teacher's proxy token need not live in a shell profile: `KEY = value` lines, `#` comments
/// and blank lines, at `$XDG_CONFIG_HOME/lessonplan/config` (default `~/.config/lessonplan/config`).
///
/// It holds secrets, so it is read only when it is a regular file of this user with mode 0600.
package struct SettingsFile: Sendable, Equatable {
    /// Where it was read from, for messages and `doctor`.
    package var path: String
    package var apiKey: String?
    /// A teacher's token for a school's proxy, sent instead of the API key.
    package var token: String?
    /// The header the token goes in; nil means `Authorization: Bearer <token>`.
    package var tokenHeader: String?
    package var endpoint: String?
    package var baseURL: String?
    package var model: String?
    /// `Name: value` lines, in file order.
    package var headers: [String] = []

    /// The keys the file may set, in the order the documentation lists them.
    package static let keys = ["api_key", "token", "token_header", "endpoint", "base_url", "model", "header"]

    package init(path: String) { self.path = path }

    /// Where the file is for this environment.
    package static func location(environment: [String: String]) -> URL {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return URL(fileURLWithPath: config, isDirectory: true).appending(path: "lessonplan/config")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appending(path: ".config/lessonplan/config")
    }

    /// Reads the file for this environment; nil when there is none.
    /// - Throws: ``SettingsError`` when it is not a private regular file of this user, cannot be
    ///   read, or has a line it does not understand.
    package static func load(environment: [String: String]) throws(SettingsError) -> SettingsFile? {
        try load(from: location(environment: environment))
    }

    /// Reads the file at `url`; nil when there is none.
    /// - Throws: ``SettingsError`` as ``load(environment:)``.
    package static func load(from url: URL) throws(SettingsError) -> SettingsFile? {
        let path = url.path
        // Opened first and checked through the descriptor, so the file checked is the file read.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw SettingsError(
                "The settings file \(path) cannot be read (\(String(cString: strerror(errno)))); fix it or remove it.")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw SettingsError("The settings file \(path) cannot be read; fix it or remove it.")
        }
        try checkPrivate(mode: info.st_mode, owner: info.st_uid, user: getuid(), path: path)
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: false)
        guard let data = try? handle.readToEnd() ?? Data() else {
            throw SettingsError("The settings file \(path) cannot be read; fix it or remove it.")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SettingsError("The settings file \(path) is not UTF-8 text; save it as UTF-8.")
        }
        return try parse(text, path: path)
    }

    /// Refuses a file others could read or write, or that is not this user's regular file.
    /// - Throws: ``SettingsError`` that says `chmod 600 <path>`.
    static func checkPrivate(mode: mode_t, owner: uid_t, user: uid_t, path: String) throws(SettingsError) {
        guard mode & S_IFMT == S_IFREG else {
            throw SettingsError(
                "The settings file \(path) is not a regular file; make it one that only you can read (chmod 600 \(path)).")
        }
        guard owner == user else {
            throw SettingsError(
                "The settings file \(path) belongs to another user; it holds secrets, so create your own and chmod 600 \(path).")
        }
        guard mode & 0o077 == 0 else {
            let shown = String(mode & 0o777, radix: 8)
            throw SettingsError(
                "The settings file \(path) can be read or changed by others (mode \(shown)); it holds secrets, so run chmod 600 \(path).")
        }
    }

    /// Reads `KEY = value` lines, `#` comments and blank lines.
    /// - Throws: ``SettingsError`` naming the line of an unknown key, a repeated one, or a line
    ///   that is not `KEY = value`.
    static func parse(_ text: String, path: String) throws(SettingsError) -> SettingsFile {
        var file = SettingsFile(path: path)
        var seen: [String: Int] = [:]
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw SettingsError(
                    "The settings file \(path), line \(number), is not “KEY = value”; fix or remove that line.")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard keys.contains(key) else {
                let shown = key.isEmpty ? "no key" : "the unknown key “\(key)”"
                throw SettingsError(
                    "The settings file \(path), line \(number), has \(shown); the keys are \(keys.joined(separator: ", ")).")
            }
            guard !value.isEmpty else {
                throw SettingsError(
                    "The settings file \(path), line \(number), gives \(key) no value; fix or remove that line.")
            }
            if key != "header" {
                if let earlier = seen[key] {
                    throw SettingsError(
                        "The settings file \(path), line \(number), sets \(key) again (first on line \(earlier)); keep one.")
                }
                seen[key] = number
            }
            switch key {
            case "api_key": file.apiKey = value
            case "token": file.token = value
            case "token_header":
                guard value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                    throw SettingsError(
                        "The settings file \(path), line \(number), names no valid header for token_header; e.g. token_header = X-Teacher-Token.")
                }
                // The names `--header` refuses: replacing one would break the request's framing.
                guard !HeaderRules.reserved.contains(value.lowercased()) else {
                    throw SettingsError(
                        "The settings file \(path), line \(number), names \(value) for token_header, which is reserved (lessonplan sets it itself); name another header, e.g. token_header = X-Teacher-Token."
                    )
                }
                file.tokenHeader = value
            case "endpoint": file.endpoint = value
            case "base_url": file.baseURL = value
            case "model": file.model = value
            default:
                guard let colon = value.firstIndex(of: ":"),
                    !value[..<colon].trimmingCharacters(in: .whitespaces).isEmpty
                else {
                    throw SettingsError(
                        "The settings file \(path), line \(number), has a header that does not look like “Name: value”.")
                }
                file.headers.append(value)
            }
        }
        return file
    }
}

/// Where one setting's value came from, for `doctor`.
package enum SettingOrigin: Sendable, Equatable, CustomStringConvertible {
    case flag(String)
    case environment(String)
    case file(String)
    case builtIn

    package var description: String {
        switch self {
        case .flag(let name): "flag \(name)"
        case .environment(let name): "environment \(name)"
        case .file(let path): "config file \(path)"
        case .builtIn: "default"
        }
    }

    /// The origin of a value looked up flag first, then environment, then file, else the default.
    static func of(
        flag: String?, _ flagName: String?, environment: [String: String], _ variable: String?, file: String?,
        path: String?
    ) -> SettingOrigin {
        if let flag, !flag.isEmpty, let flagName { return .flag(flagName) }
        if let variable,
            let value = environment[variable]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty
        {
            return .environment(variable)
        }
        if file != nil, let path { return .file(path) }
        return .builtIn
    }
}

/// Where each connection setting came from: flag, environment, the settings file, or the default.
package struct SettingOrigins: Sendable, Equatable {
    package var apiKey: SettingOrigin = .builtIn
    package var token: SettingOrigin = .builtIn
    package var baseURL: SettingOrigin = .builtIn
    package var endpoint: SettingOrigin = .builtIn
    package var model: SettingOrigin = .builtIn
    /// One per place headers came from (the file, flags), in that order.
    package var headers: [SettingOrigin] = []

    package init() {}
}
