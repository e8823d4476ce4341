import Foundation
import Testing

@testable import LessonPlanCore
@testable import LessonPlanKit
@testable import LessonPlanModel

#if canImport(Glibc)
    import Glibc
#endif

/// The settings file: read only when private, every line understood, and below flags and the
/// environment. Real files in a temporary directory, real chmod.
@Suite struct SettingsFileTests {
    /// A fresh `$XDG_CONFIG_HOME` with `text` as `lessonplan/config`, at `mode`.
    func configHome(_ text: String, mode: mode_t = 0o600) throws -> (home: URL, file: URL) {
        let home = FileManager.default.temporaryDirectory.appending(path: "lessonplan-config-\(UUID().uuidString)")
        let folder = home.appending(path: "lessonplan")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: "config")
        try Data(text.utf8).write(to: file)
        #expect(chmod(file.path, mode) == 0)
        return (home, file)
    }

    func load(_ text: String, mode: mode_t = 0o600) throws -> SettingsFile? {
        let (home, _) = try configHome(text, mode: mode)
        defer { try? FileManager.default.removeItem(at: home) }
        return try SettingsFile.load(environment: ["XDG_CONFIG_HOME": home.path])
    }

    func refusal(_ text: String, mode: mode_t = 0o600) throws -> String? {
        do {
            _ = try load(text, mode: mode)
            return nil
        } catch let error as SettingsError {
            return error.message
        }
    }

    static let full = """
        # the school's proxy
        endpoint = https://plans.school.example/lessonplan

        token = tok-teacher-7-ABCDEFGH
        token_header = X-Teacher-Token
        model = gpt-5-mini
        base_url = https://gateway.example/v1
        api_key = sk-file.FILEKEY-123456
        header = X-Class: 7b
        header = X-Room: 12
        """

    @Test func everyKeyIsRead() throws {
        let file = try #require(try load(Self.full))
        #expect(file.endpoint == "https://plans.school.example/lessonplan")
        #expect(file.token == "tok-teacher-7-ABCDEFGH")
        #expect(file.tokenHeader == "X-Teacher-Token")
        #expect(file.model == "gpt-5-mini")
        #expect(file.baseURL == "https://gateway.example/v1")
        #expect(file.apiKey == "sk-file.FILEKEY-123456")
        #expect(file.headers == ["X-Class: 7b", "X-Room: 12"])
    }

    @Test func noFileIsNoSettings() throws {
        let home = FileManager.default.temporaryDirectory.appending(path: "lessonplan-none-\(UUID().uuidString)")
        #expect(try SettingsFile.load(environment: ["XDG_CONFIG_HOME": home.path]) == nil)
        #expect(
            SettingsFile.location(environment: ["HOME": "/home/t"]).path == "/home/t/.config/lessonplan/config")
        #expect(
            SettingsFile.location(environment: ["HOME": "/home/t", "XDG_CONFIG_HOME": "/x/conf"]).path
                == "/x/conf/lessonplan/config")
    }

    @Test func aFileOthersCanReadIsRefusedWithTheChmodToRun() throws {
        for mode: mode_t in [0o644, 0o640, 0o604, 0o660, 0o606] {
            let (home, file) = try configHome("model = m", mode: mode)
            defer { try? FileManager.default.removeItem(at: home) }
            do {
                _ = try SettingsFile.load(environment: ["XDG_CONFIG_HOME": home.path])
                Issue.record("mode \(String(mode, radix: 8)) was accepted")
            } catch {
                #expect(error.message.contains("chmod 600 \(file.path)"), "\(error.message)")
                #expect(error.message.contains("mode \(String(mode, radix: 8))"))
            }
        }
        #expect(try load("model = m", mode: 0o400)?.model == "m")
    }

    @Test func aDirectoryOrAnotherUsersFileIsRefused() throws {
        let home = FileManager.default.temporaryDirectory.appending(path: "lessonplan-dir-\(UUID().uuidString)")
        let folder = home.appending(path: "lessonplan/config")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        #expect(chmod(folder.path, 0o700) == 0)
        #expect(throws: SettingsError.self) { try SettingsFile.load(environment: ["XDG_CONFIG_HOME": home.path]) }
        // Ownership by another user cannot be arranged without root, so the check is tested on values.
        #expect(throws: SettingsError.self) {
            try SettingsFile.checkPrivate(mode: S_IFREG | 0o600, owner: getuid() + 1, user: getuid(), path: "/p")
        }
        #expect(throws: Never.self) {
            try SettingsFile.checkPrivate(mode: S_IFREG | 0o600, owner: getuid(), user: getuid(), path: "/p")
        }
    }

    @Test func unknownKeysAndMalformedLinesAreRefusedWithTheirLineNumber() throws {
        #expect(try refusal("# c\n\nmodle = x")?.contains("line 3, has the unknown key “modle”") == true)
        #expect(try refusal("model = a\njust words")?.contains("line 2, is not “KEY = value”") == true)
        #expect(try refusal("model =")?.contains("line 1, gives model no value") == true)
        #expect(try refusal("model = a\nmodel = b")?.contains("line 2, sets model again (first on line 1)") == true)
        #expect(try refusal("header = no colon")?.contains("line 1, has a header") == true)
        #expect(try refusal("token_header = X Teacher")?.contains("line 1, names no valid header") == true)
        #expect(try refusal("= value")?.contains("line 1, has no key") == true)
    }

    // MARK: - Precedence: flags > environment > file > defaults

    func file(_ text: String) throws -> SettingsFile {
        try SettingsFile.parse(text, path: "/home/t/.config/lessonplan/config")
    }

    @Test func theFileFillsWhatNothingElseSet() throws {
        let settings = try ResolvedSettings.resolve(
            flags: ConnectionFlags(), environment: ["HOME": "/home/t"], file: try file(Self.full))
        #expect(settings.model.model == "gpt-5-mini")
        #expect(settings.model.apiKey == "sk-file.FILEKEY-123456")
        #expect(settings.model.baseURL.absoluteString == "https://gateway.example/v1")
        #expect(settings.model.requestURL.absoluteString == "https://plans.school.example/lessonplan")
        #expect(settings.model.token == "tok-teacher-7-ABCDEFGH")
        #expect(settings.model.tokenHeader == "X-Teacher-Token")
        #expect(settings.model.extraHeaders == ["X-Class": "7b", "X-Room": "12"])
        let path = SettingOrigin.file("/home/t/.config/lessonplan/config")
        #expect(settings.origins.model == path && settings.origins.apiKey == path && settings.origins.endpoint == path)
        #expect(settings.origins.token == path && settings.origins.baseURL == path && settings.origins.headers == [path])
    }

    @Test func theEnvironmentBeatsTheFileAndFlagsBeatBoth() throws {
        var flags = ConnectionFlags()
        flags.model = "flag-model"
        flags.endpoint = "https://flag.example/lessonplan"
        flags.headers = ["X-Class: 9c"]
        let environment = [
            "HOME": "/home/t", "LESSONPLAN_MODEL": "env-model", "OPENAI_API_KEY": "sk-env.ENVKEY-654321",
            "OPENAI_BASE_URL": "https://env.example/v1", "LESSONPLAN_TOKEN": "tok-env-ZYXWVUTS",
        ]
        let settings = try ResolvedSettings.resolve(flags: flags, environment: environment, file: try file(Self.full))
        #expect(settings.model.model == "flag-model")
        #expect(settings.model.endpoint?.absoluteString == "https://flag.example/lessonplan")
        #expect(settings.model.extraHeaders == ["X-Class": "9c", "X-Room": "12"])
        #expect(settings.model.apiKey == "sk-env.ENVKEY-654321")
        #expect(settings.model.baseURL.absoluteString == "https://env.example/v1")
        #expect(settings.model.token == "tok-env-ZYXWVUTS")
        #expect(settings.origins.model == .flag("--model") && settings.origins.endpoint == .flag("--endpoint"))
        #expect(settings.origins.apiKey == .environment("OPENAI_API_KEY"))
        #expect(settings.origins.token == .environment("LESSONPLAN_TOKEN"))

        flags.model = nil
        let fromEnvironment = try ResolvedSettings.resolve(flags: flags, environment: environment, file: try file(Self.full))
        #expect(fromEnvironment.model.model == "env-model")
        #expect(fromEnvironment.origins.model == .environment("LESSONPLAN_MODEL"))

        let defaults = try ResolvedSettings.resolve(flags: ConnectionFlags(), environment: ["HOME": "/h"], file: nil)
        #expect(defaults.model.model == ModelSettings.defaultModel && defaults.origins.model == .builtIn)
    }

    @Test func theTokenGoesWhereTheProxyLooksAndIsNeverShown() throws {
        let settings = try ResolvedSettings.resolve(
            flags: ConnectionFlags(), environment: ["HOME": "/h"],
            file: try file("endpoint = https://p.example/lessonplan\ntoken = tok-teacher-7-ABCDEFGH"))
        let client = ModelClient(transport: CurlTransport(), settings: settings.model)
        #expect(client.request(instructions: "i", input: "x").headers["Authorization"] == "Bearer tok-teacher-7-ABCDEFGH")
        let rows = Dictionary(uniqueKeysWithValues: settings.summary(environment: [:]))
        #expect(rows["token"] == "…EFGH in Authorization: Bearer  (config file /home/t/.config/lessonplan/config)")
        #expect(!rows.values.contains { $0.contains("ABCD") })

        let named = try ResolvedSettings.resolve(
            flags: ConnectionFlags(), environment: ["HOME": "/h"], file: try file(Self.full))
        let headers = ModelClient(transport: CurlTransport(), settings: named.model).request(instructions: "i", input: "x").headers
        #expect(headers["X-Teacher-Token"] == "tok-teacher-7-ABCDEFGH")
        // With a token the personal key stays at home: it never goes to the school's proxy beside it.
        #expect(headers["Authorization"] == nil)
    }

    @Test func theTokenIsRefusedOverPlainHTTPToAnotherMachine() throws {
        let insecure = try file("endpoint = http://plans.school.example/lessonplan\ntoken = tok-teacher-7-ABCDEFGH")
        #expect(throws: SettingsError.self) {
            try ResolvedSettings.resolve(flags: ConnectionFlags(), environment: ["HOME": "/h"], file: insecure)
        }
        var flags = ConnectionFlags()
        flags.allowInsecure = true
        #expect(throws: Never.self) { try ResolvedSettings.resolve(flags: flags, environment: ["HOME": "/h"], file: insecure) }
    }

    @Test func localIgnoresTheFile() throws {
        var flags = ConnectionFlags()
        flags.local = true
        let settings = try ResolvedSettings.resolve(flags: flags, environment: ["HOME": "/h"], file: try file(Self.full))
        #expect(settings.model.endpoint == nil && settings.model.apiKey == nil && settings.model.token == nil)
    }
}
