import Foundation
import Testing

@testable import LessonPlanCore
@testable import LessonPlanKit
@testable import LessonPlanModel

/// `--header` and the key cannot smuggle headers, override framing, or double the credentials;
/// plain http with a key goes only to an address that really is this machine.
@Suite struct HeaderRulesTests {
    let key = ["OPENAI_API_KEY": "sk-test.SECRETKEY-9z8y7x6w5v", "HOME": "/home/t"]

    func resolve(headers: [String], environment: [String: String]? = nil) throws -> ResolvedSettings {
        var flags = ConnectionFlags()
        flags.headers = headers
        return try ResolvedSettings.resolve(flags: flags, environment: environment ?? key)
    }

    @Test(arguments: ["X-Token: abc\r\nHost: evil.example", "X-Token: abc\ndef", "X-Token: abc\rdef", "X-Token: a\u{0}b"])
    func aLineBreakInAHeaderValueIsRefusedWithoutQuotingTheValue(header: String) {
        #expect(
            throws: SettingsError(
                "--header “X-Token” has a line break or other control character in its value; give the value on one line.")
        ) { try resolve(headers: [header]) }
    }

    @Test func aTabInsideAValueIsAllowed() throws {
        #expect(try resolve(headers: ["X-Note: a\tb"]).model.extraHeaders == ["X-Note": "a\tb"])
    }

    @Test(arguments: ["sk-abc\nX-Injected: 1", "sk-abc\r\nX-Injected: 1", "sk-a\u{0}bc"])
    func aKeyWithALineBreakIsRefusedWithoutQuotingIt(bad: String) {
        #expect(
            throws: SettingsError(
                "OPENAI_API_KEY has a line break or other control character in it; set it to the key alone, on one line.")
        ) { try resolve(headers: [], environment: ["OPENAI_API_KEY": bad]) }
        // A trailing newline (from `$(cat keyfile)`) is only trimmed.
        #expect(throws: Never.self) { try resolve(headers: [], environment: ["OPENAI_API_KEY": "sk-abcdefgh\n"]) }
    }

    @Test(arguments: ["Host", "host", "CONTENT-LENGTH", "Transfer-Encoding", "connection"])
    func reservedNamesAreRefusedInAnyCase(name: String) {
        #expect(throws: SettingsError("--header “\(name)” is reserved: lessonplan sets it itself; leave it out.")) {
            try resolve(headers: ["\(name): x"])
        }
    }

    @Test func aNameGivenTwiceInAnyCaseKeepsTheLastOnly() throws {
        let headers = try resolve(headers: ["X-Token: one", "x-token: two"]).model.extraHeaders
        #expect(headers == ["x-token": "two"])
    }

    @Test func malformedHeadersNameOnlyTheNamePart() {
        #expect(throws: SettingsError("--header “X Token: …” has no valid header name before the colon.")) {
            try resolve(headers: ["X Token: secret-value"])
        }
        #expect(throws: SettingsError("--header “NoColon” must look like \"Name: value\".")) {
            try resolve(headers: ["NoColon"])
        }
    }

    @Test(arguments: ["authorization", "Authorization", "AUTHORIZATION", "aUtHoRiZaTiOn"])
    func anAuthorizationHeaderReplacesTheKeysOne(name: String) throws {
        let settings = try resolve(headers: ["\(name): Bearer proxy-token-123"]).model
        let request = ModelClient(transport: NeverTransport(), settings: settings).request(instructions: "i", input: "x")
        let authorizations = request.headers.filter { $0.key.lowercased() == "authorization" }
        #expect(authorizations.count == 1)
        #expect(authorizations.first?.value == "Bearer proxy-token-123")
        #expect(request.originOnlyHeaders.contains(name))
    }

    @Test func anAuthorizationHeaderStandsInForAMissingKey() throws {
        let settings = try resolve(headers: ["Authorization: Bearer proxy-token-123"], environment: ["HOME": "/h"]).model
        #expect(!settings.requiresKey)
        // …and is credentials like the key: not over plain http to another machine.
        #expect(throws: SettingsError.self) {
            try resolve(headers: ["Authorization: Bearer x"], environment: ["OPENAI_BASE_URL": "http://10.0.0.5/v1"])
        }
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("127.5.6.7", true), ("127.255.255.255", true), ("localhost", true), ("LocalHost", true),
        ("::1", true), ("[::1]", true), ("0:0:0:0:0:0:0:1", true), ("::ffff:127.0.0.1", true),
        ("127.attacker.example", false), ("127.0.0.1.nip.io", false), ("localhost.attacker.example", false),
        ("attacker.localhost.example", false), ("128.0.0.1", false), ("10.0.0.5", false), ("127.1", false),
        ("0x7f.0.0.1", false), ("::2", false), ("::ffff:10.0.0.1", false), ("", false), ("127.0.0.1 ", false),
    ])
    func loopbackIsAParsedAddress(host: String, loopback: Bool) {
        #expect(LoopbackAddress.isLoopback(host: host) == loopback, "\(host)")
    }

    @Test func aHostThatOnlyStartsWith127IsAnotherMachine() throws {
        for base in ["http://127.attacker.example/v1", "http://127.0.0.1.attacker.example:8080/v1", "http://localhost.attacker.example/v1"] {
            #expect(throws: SettingsError.self, "\(base)") {
                try resolve(headers: [], environment: key.merging(["OPENAI_BASE_URL": base]) { $1 })
            }
        }
        for base in ["http://127.0.0.1:8080/v1", "http://[::1]:8080/v1", "http://localhost:11434/v1", "http://127.8.9.10/v1"] {
            #expect(throws: Never.self, "\(base)") {
                try resolve(headers: [], environment: key.merging(["OPENAI_BASE_URL": base]) { $1 })
            }
        }
    }
}

/// A transport for tests that only build requests.
struct NeverTransport: HTTPTransport {
    func send(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
        throw TransportError.other("not sent")
    }
}
