// swift-tools-version:6.0
import PackageDescription

// The release build is optimised for size: the REPL's resident memory is mostly the pages of code it runs, and
// smaller code is fewer pages (measured with scripts/bench: see docs/benchmarks.md).
let smallCode: [SwiftSetting] = [.unsafeFlags(["-Osize"], .when(configuration: .release))]

let package = Package(
    name: "LessonPlanBuilder",
    products: [
        .executable(name: "lessonplan", targets: ["lessonplan"])
    ],
    targets: [
        // The only C in the project: non-variadic shims over libedit and libcurl.
        .systemLibrary(
            name: "CEditLine",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // libcurl, driven directly: URLSession on Linux busy-polls while it waits and has no back-pressure.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // Build-time tool that turns the top-level prompts/ folder into Swift source.
        .executableTarget(name: "PromptEmbedder"),
        .plugin(
            name: "EmbedPrompts",
            capability: .buildTool(),
            dependencies: ["PromptEmbedder"]
        ),
        // The library is five targets, one way up, so the compiler refuses an arrow the wrong way; `package`
        // access lets a layer use what the ones above may not see from outside. Nothing in them prints.
        // The plan and its check, the prompts, quizzes and rubrics, standards, class lists, text utilities.
        .target(
            name: "LessonPlanCore",
            swiftSettings: smallCode,
            plugins: ["EmbedPrompts"]
        ),
        // The model's wire (Responses and Chat Completions, retries, the turn's state machine) and HTTP over
        // libcurl: the only target that links it.
        .target(
            name: "LessonPlanModel",
            dependencies: ["LessonPlanCore", "CCurl"],
            swiftSettings: smallCode
        ),
        // The transcript on disk (JSONL) and the sessions folder.
        .target(
            name: "LessonPlanStore",
            dependencies: ["LessonPlanCore", "LessonPlanModel"],
            swiftSettings: smallCode
        ),
        // Exports made from plain values: Markdown, HTML, pandoc's documents, quiz files for learning platforms.
        .target(
            name: "LessonPlanDocuments",
            dependencies: ["LessonPlanCore", "LessonPlanModel", "LessonPlanStore"],
            swiftSettings: smallCode
        ),
        // The engine, settings and slash commands: every decision about a session lives here.
        .target(
            name: "LessonPlanKit",
            dependencies: ["LessonPlanCore", "LessonPlanModel", "LessonPlanStore", "LessonPlanDocuments"],
            swiftSettings: smallCode
        ),
        // The terminal: the libedit line editor, Ctrl-C, the editor in the foreground, and the one door
        // (Console) through which text leaves for stdout and stderr. Its one client is the command line.
        .target(
            name: "Terminal",
            dependencies: ["LessonPlanCore", "LessonPlanModel", "LessonPlanStore", "LessonPlanDocuments", "LessonPlanKit", "CEditLine"],
            swiftSettings: smallCode
        ),
        // The command line: the subcommand table, flags and help, and each subcommand run at the terminal (the
        // REPL, generate, unit, resume, sessions, replay, export, results, class, doctor), wiring flags to the
        // library and the library to the terminal.
        .target(
            name: "LessonPlanCLI",
            dependencies: ["LessonPlanCore", "LessonPlanModel", "LessonPlanStore", "LessonPlanDocuments", "LessonPlanKit", "Terminal"],
            swiftSettings: smallCode
        ),
        // The thin executable: signals, then the command line's App, then the exit status.
        .executableTarget(
            name: "lessonplan",
            dependencies: ["LessonPlanCLI", "Terminal"],
            swiftSettings: smallCode
        ),
        // Writes scripts/bench's transcript fixtures through the tool's own writer; not installed.
        .executableTarget(
            name: "lessonplan-bench-fixture",
            dependencies: ["LessonPlanCore", "LessonPlanModel", "LessonPlanStore", "LessonPlanDocuments", "LessonPlanKit"]
        ),
        // The unit tests: one target for each library target, depending only on it and the targets below it, so the
        // compiler refuses a test that reaches above the layer it tests. Each runs in memory (a layout test keeps
        // them so). Their fixtures are layered the same way: CoreTestSupport, ModelTestSupport, StoreTestSupport,
        // and TestSupport (the engine's, the loopback servers and readers), which re-exports the three below it.
        .target(
            name: "CoreTestSupport",
            dependencies: ["LessonPlanCore"],
            path: "Tests/CoreTestSupport"
        ),
        .target(
            name: "ModelTestSupport",
            dependencies: ["LessonPlanCore", "LessonPlanModel", "CoreTestSupport"],
            path: "Tests/ModelTestSupport"
        ),
        .target(
            name: "StoreTestSupport",
            dependencies: ["LessonPlanCore", "LessonPlanModel", "LessonPlanStore"],
            path: "Tests/StoreTestSupport"
        ),
        .target(
            name: "TestSupport",
            dependencies: [
                "LessonPlanCore", "LessonPlanModel", "LessonPlanStore", "LessonPlanDocuments", "LessonPlanKit", "CoreTestSupport", "ModelTestSupport",
                "StoreTestSupport",
            ],
            path: "Tests/TestSupport",
            resources: [.copy("fake_openai.py"), .copy("worker_host.mjs")]
        ),
        .testTarget(
            name: "LessonPlanCoreTests",
            dependencies: ["LessonPlanCore", "CoreTestSupport"],
            // The good-plan corpus, read from the source tree by GoodPlanCorpusTests (plain text, not a resource).
            exclude: ["Plan/GoodPlans"]
        ),
        .testTarget(
            name: "LessonPlanModelTests",
            dependencies: ["LessonPlanCore", "LessonPlanModel", "CoreTestSupport", "ModelTestSupport"]
        ),
        .testTarget(
            name: "LessonPlanStoreTests",
            dependencies: ["LessonPlanCore", "LessonPlanModel", "LessonPlanStore", "CoreTestSupport", "StoreTestSupport"]
        ),
        .testTarget(
            name: "LessonPlanDocumentsTests",
            dependencies: ["LessonPlanCore", "LessonPlanModel", "LessonPlanStore", "LessonPlanDocuments", "CoreTestSupport"]
        ),
        .testTarget(
            name: "LessonPlanKitTests",
            dependencies: ["LessonPlanCore", "LessonPlanModel", "LessonPlanStore", "LessonPlanDocuments", "LessonPlanKit", "TestSupport"]
        ),
        .testTarget(
            name: "LessonPlanCLITests",
            dependencies: [
                "LessonPlanCore", "LessonPlanModel", "LessonPlanStore", "LessonPlanDocuments", "LessonPlanKit", "LessonPlanCLI", "TestSupport",
            ]
        ),
        // The library against real processes: the loopback model server, pandoc, LibreOffice, Chromium, Python
        // readers. EndToEndTests drives the binary.
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["LessonPlanCore", "LessonPlanModel", "LessonPlanStore", "LessonPlanDocuments", "LessonPlanKit", "TestSupport"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "LessonPlanCore", "LessonPlanModel", "LessonPlanStore", "LessonPlanDocuments", "LessonPlanKit", "TestSupport", "lessonplan",
            ]
        ),
    ]
)
