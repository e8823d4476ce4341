import Foundation

/// A Cloudflare-style worker running under Node 20 on 127.0.0.1 through `worker_host.mjs`, its
/// calls to api.openai.com sent to a local upstream (the project's `fake_openai.py`).
///
/// ```swift
/// let upstream = try await FakeOpenAIServer()
/// let worker = try await WorkerHost(seedWorkerUpstream: upstream)
/// // lessonplan generate … --endpoint worker.rootURL/lessonplan
/// ```
package final class WorkerHost: Sendable {
    /// Why the worker could not be started.
    package enum HostError: Error, CustomStringConvertible {
        case hostScriptNotFound
        case seedNotFound(searched: [String])

        package var description: String {
            switch self {
            case .hostScriptNotFound: "worker_host.mjs is missing from the TestSupport resources"
            case .seedNotFound(let searched):
                "the original demo (shared/seed/original-ios-demo.txt) was not found; looked at "
                    + searched.joined(separator: ", ") + "; set LESSONPLAN_SEED to its path"
            }
        }
    }

    /// What the worker is.
    package enum Source: Sendable {
        /// The original demo's worker, cut from the seed text at run time (the project keeps no copy).
        case seed(URL)
        /// An ES module exporting `default.fetch`.
        case module(URL)
    }

    private let child: LoopbackProcess

    /// The port on 127.0.0.1.
    package var port: Int { child.port }
    /// `http://127.0.0.1:<port>`.
    package var rootURL: URL { child.rootURL }

    /// Starts the worker with `env` as its environment and `upstream` standing in for api.openai.com.
    package init(_ source: Source, upstream: FakeOpenAIServer, env: [String: String] = [:]) async throws {
        guard let script = Bundle.module.url(forResource: "worker_host", withExtension: "mjs") else {
            throw HostError.hostScriptNotFound
        }
        _ = FakeOpenAIServer.loopbackBypassesProxies
        var arguments = [script.path]
        switch source {
        case .seed(let url): arguments += ["--seed", url.path]
        case .module(let url): arguments += ["--worker", url.path]
        }
        arguments += ["--upstream", upstream.rootURL.absoluteString, "--exit-with-stdin"]
        for (key, value) in env.sorted(by: { $0.key < $1.key }) { arguments += ["--env", "\(key)=\(value)"] }
        child = try await LoopbackProcess(
            program: "node", arguments: arguments, name: "worker_host.mjs",
            hint: "the worker tests need Node.js 20 (Debian's nodejs); run scripts/setup, which installs it.")
    }

    /// The original demo's worker with an upstream key, in front of `upstream`.
    package convenience init(seedWorkerUpstream upstream: FakeOpenAIServer) async throws {
        try await self.init(
            .seed(try Self.seedFile()), upstream: upstream, env: ["OPENAI_API_KEY": Self.upstreamKey])
    }

    /// The key the worker holds for the upstream (a Worker secret in real life), to check it goes nowhere else.
    package static let upstreamKey = "sk-worker.UPSTREAMKEY-1a2b3c"

    /// The original demo's text: `../shared/seed/original-ios-demo.txt` from the package directory
    /// (or from a further ancestor, for a git worktree nested one level deeper), or `LESSONPLAN_SEED`.
    package static func seedFile() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["LESSONPLAN_SEED"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var searched: [String] = []
        var directory = package.deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = directory.appending(path: "shared/seed/original-ios-demo.txt")
            searched.append(candidate.path)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw HostError.seedNotFound(searched: searched)
    }

    /// Whether the seed's text can be found, for tests that skip without it (a clone of the repository alone).
    package static var seedIsPresent: Bool {
        (try? seedFile()).map { FileManager.default.fileExists(atPath: $0.path) } ?? false
    }

    /// Whether a missing seed must fail rather than skip: `LESSONPLAN_REQUIRE_SEED=1`, which `.ci/run` sets.
    package static var seedIsRequired: Bool { ProcessInfo.processInfo.environment["LESSONPLAN_REQUIRE_SEED"] == "1" }

    /// Whether the seed's tests run: the seed is there, or it is required (and its absence then fails them).
    package static var seedTestsRun: Bool { seedIsPresent || seedIsRequired }

    /// The one line a skipped seed test reports: why, and how to run it.
    package static let seedSkipReason =
        "needs the original demo at ../shared/seed/original-ios-demo.txt beside the clone (absent here); "
        + "set LESSONPLAN_SEED to its path to run it"

    package func stop(wait: Bool = true) async {
        await child.stop(wait: wait)
    }
}
