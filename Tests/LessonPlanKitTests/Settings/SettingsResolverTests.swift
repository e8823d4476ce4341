import Foundation
import Testing

@testable import LessonPlanCore
@testable import LessonPlanKit
@testable import LessonPlanModel

/// Flags over environment over defaults, and the settings that are refused.
@Suite struct SettingsResolverTests {
    let key = ["OPENAI_API_KEY": "sk-test.SECRETKEY-9z8y7x6w5v", "HOME": "/home/t"]

    func resolve(_ configure: (inout ConnectionFlags) -> Void = { _ in }, environment: [String: String]? = nil) throws
        -> ResolvedSettings
    {
        var flags = ConnectionFlags()
        configure(&flags)
        return try ResolvedSettings.resolve(flags: flags, environment: environment ?? key)
    }

    @Test func defaultsAreSensibleForASlowReasoningModel() throws {
        let settings = try resolve().model
        #expect(settings.idleTimeout == 180)
        #expect(settings.deadline == 600)
        #expect(settings.retryPolicy.maxRetries == 2)
        #expect(settings.requiresKey)
        #expect(settings.requestURL.absoluteString == "https://api.openai.com/v1/responses")
    }

    @Test func retriesAndDeadlineComeFromFlags() throws {
        let settings = try resolve {
            $0.maxRetries = "0"
            $0.deadline = "90"
        }.model
        #expect(settings.retryPolicy.maxRetries == 0)
        #expect(settings.deadline == 90)
        #expect(throws: SettingsError.self) { try resolve { $0.maxRetries = "11" } }
        #expect(throws: SettingsError.self) { try resolve { $0.maxRetries = "two" } }
        #expect(throws: SettingsError.self) { try resolve { $0.deadline = "0.5" } }
    }

    @Test func numericFlagsOutOfRangeNameTheFlagAndTheRange() {
        let cases: [(WritableKeyPath<ConnectionFlags, String?>, String, String)] = [
            (\.maxOutputTokens, "100", "--max-output-tokens “100” must be a whole number from 256 to 128000."),
            (\.maxOutputTokens, "many", "--max-output-tokens “many” must be a whole number from 256 to 128000."),
            (\.timeout, "0.5", "--timeout “0.5” must be a number of seconds from 1 to 3600."),
            (\.deadline, "90000", "--deadline “90000” must be a number of seconds from 1 to 86400."),
            (\.maxRetries, "11", "--max-retries “11” must be a whole number from 0 (no retries) to 10."),
        ]
        for (flag, text, message) in cases {
            #expect(throws: SettingsError(message)) { try resolve { $0[keyPath: flag] = text } }
        }
    }

    @Test func theKeyIsRefusedOverPlainHTTPToAnotherMachine() throws {
        let remote = key.merging(["OPENAI_BASE_URL": "http://10.0.0.5:8080/v1"]) { $1 }
        #expect(throws: SettingsError.self) { try resolve(environment: remote) }
        #expect(throws: SettingsError.self) { try resolve({ $0.endpoint = "http://proxy.school.example/lessonplan" }) }
        #expect(try resolve({ $0.allowInsecure = true }, environment: remote).model.apiKey != nil)
        // This machine, or no key at all, is fine over http.
        for base in ["http://127.0.0.1:8080/v1", "http://localhost:11434/v1", "http://[::1]:8080/v1"] {
            #expect(throws: Never.self) { try resolve(environment: key.merging(["OPENAI_BASE_URL": base]) { $1 }) }
        }
        #expect(throws: Never.self) { try resolve(environment: ["OPENAI_BASE_URL": "http://10.0.0.5:8080/v1"]) }
    }

    @Test func anEndpointMakesTheKeyOptional() throws {
        let settings = try resolve({ $0.endpoint = "https://worker.example/lessonplan" }, environment: [:]).model
        #expect(!settings.requiresKey)
        #expect(settings.requestURL.absoluteString == "https://worker.example/lessonplan")
    }

    @Test func localUsesTheOfflineServerWithoutTheKey() throws {
        let settings = try resolve({ $0.local = true }, environment: key.merging(["LESSONPLAN_MODEL": "gpt-5.2"]) { $1 }).model
        #expect(settings.isLocal)
        #expect(!settings.requiresKey)
        #expect(settings.apiKey == nil)
        #expect(settings.model == ModelSettings.localModel)
        #expect(settings.maxOutputTokens == 2048)
        #expect(
            try resolve(
                {
                    $0.local = true
                    $0.maxOutputTokens = "4000"
                }, environment: [:]
            ).model.maxOutputTokens == 4000)
        // Structured by default, over Chat Completions: llama-server enforces a schema only there.
        #expect(settings.structured && settings.api == .chat)
        #expect(settings.requestURL.absoluteString == "http://127.0.0.1:8012/v1/chat/completions")
        let freeText = try resolve(
            {
                $0.local = true
                $0.freeText = true
            }, environment: [:]
        ).model
        #expect(!freeText.structured && freeText.requestURL.absoluteString == "http://127.0.0.1:8012/v1/responses")
        let chosen = try resolve(
            {
                $0.local = true
                $0.api = "responses"
            }, environment: [:]
        ).model
        #expect(chosen.structured && chosen.api == .responses)
        let hosted = try resolve({ $0.structured = true }, environment: key).model
        let plain = try resolve(environment: key).model
        #expect(hosted.structured && hosted.api == .responses && !plain.structured)
        #expect(throws: SettingsError.self) {
            try resolve {
                $0.structured = true
                $0.freeText = true
            }
        }
        let moved = try resolve({ $0.local = true }, environment: ["LESSONPLAN_LOCAL_PORT": "9123"]).model
        #expect(moved.baseURL.absoluteString == "http://127.0.0.1:9123/v1")
        #expect(moved.slowNotice == ModelSettings.localSlowNotice && plain.slowNotice == nil)
        #expect(moved.localDeathFile?.path.hasSuffix("local-model/llama-server.died") == true)
        for port in ["abc", "0", "65536", "-1"] {
            #expect(throws: SettingsError.self, "LESSONPLAN_LOCAL_PORT=\(port)") {
                try resolve({ $0.local = true }, environment: ["LESSONPLAN_LOCAL_PORT": port])
            }
        }
        #expect(throws: SettingsError.self) {
            try resolve {
                $0.local = true
                $0.endpoint = "http://127.0.0.1:1/x"
            }
        }
    }

    @Test func doctorShowsTheKeyMaskedAndTheProxyWithoutCredentials() throws {
        let environment = key.merging([
            "HTTPS_PROXY": "http://teacher:hunter2@proxy.school.example:3128", "NO_PROXY": "intranet.example",
        ]) { $1 }
        let rows = Dictionary(uniqueKeysWithValues: try resolve(environment: environment).summary(environment: environment))
        #expect(rows["API key"] == "sk-…6w5v  (environment OPENAI_API_KEY)")
        #expect(rows["proxy"] == "HTTPS_PROXY=http://proxy.school.example:3128")
        #expect(rows.values.allSatisfy { !$0.contains("SECRETKEY") && !$0.contains("hunter2") })
        let bypass = environment.merging(["NO_PROXY": "localhost,.openai.com"]) { $1 }
        let direct = Dictionary(uniqueKeysWithValues: try resolve(environment: bypass).summary(environment: bypass))
        #expect(direct["proxy"] == "HTTPS_PROXY=http://proxy.school.example:3128, but api.openai.com is in NO_PROXY: direct")
        // libcurl ignores upper-case HTTP_PROXY for http:// URLs.
        let plain = ["OPENAI_BASE_URL": "http://127.0.0.1:8080/v1", "HTTP_PROXY": "http://proxy:3128"]
        #expect(Dictionary(uniqueKeysWithValues: try resolve(environment: plain).summary(environment: plain))["proxy"] == "none")
        #expect(Dictionary(uniqueKeysWithValues: try resolve(environment: [:]).summary(environment: [:]))["API key"] == "not set")
    }

    /// `--local` asks for the model the install stamp names, and `doctor` says which one is installed; a stamp line
    /// the script does not write (an unknown choice, a name with a path or an escape in it) names nothing.
    @Test func localUsesAndDoctorNamesTheInstalledOfflineModel() throws {
        let home = FileManager.default.temporaryDirectory.appending(path: "lp-stamp-\(UUID().uuidString)")
        let folder = home.appending(path: "local-model")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["LESSONPLAN_HOME": home.path]
        let none = try resolve({ $0.local = true }, environment: environment)
        #expect(none.model.model == ModelSettings.localModel)
        #expect(
            Dictionary(uniqueKeysWithValues: none.summary(environment: environment))["offline"]
                == "not installed (scripts/local-model install)")

        let stamp = folder.appending(path: "install.stamp")
        try Data("model: 1.5b Qwen2.5-Coder-1.5B-Instruct\nxllamacpp==1\n".utf8).write(to: stamp)
        let qwen = try resolve({ $0.local = true }, environment: environment)
        #expect(qwen.model.model == "Qwen2.5-Coder-1.5B-Instruct")
        let rows = Dictionary(uniqueKeysWithValues: qwen.summary(environment: environment))
        #expect(rows["offline"] == "Qwen2.5-Coder-1.5B-Instruct, installed (scripts/local-model install --model 1.5b)")
        #expect(rows["model"] == "Qwen2.5-Coder-1.5B-Instruct (the offline model, --local)")
        // A hosted run still sends its own model, and doctor still names what is installed offline.
        let hosted = try resolve(environment: environment.merging(key) { $1 })
        #expect(hosted.model.model == ModelSettings.defaultModel)
        #expect(Dictionary(uniqueKeysWithValues: hosted.summary(environment: [:]))["offline"]?.hasPrefix("Qwen2.5") == true)

        for line in ["model: 3b Qwen", "model: 1.5b ../../etc/passwd", "model: 1.5b Qwen\u{1B}[2J", "model: 1.5b a b", "Qwen"] {
            try Data((line + "\n").utf8).write(to: stamp)
            #expect(OfflineModel.installed(in: home) == nil, "\(line)")
            #expect(try resolve({ $0.local = true }, environment: environment).model.model == ModelSettings.localModel)
        }
    }
}
