// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "LessonPlanBuilder",
    products: [
        .executable(name: "lessonplan", targets: ["lessonplan"]),
        .library(name: "LessonPlanKit", targets: ["LessonPlanKit"]),
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
        // Every decision lives here; nothing here prints.
        .target(
            name: "LessonPlanKit",
            dependencies: ["CCurl"],
            plugins: ["EmbedPrompts"]
        ),
        // The terminal: the libedit line editor, Ctrl-C, the editor in the foreground, and the one door
        // (Console) through which text leaves for stdout and stderr. Its one client is the executable.
        .target(
            name: "Terminal",
            dependencies: ["LessonPlanKit", "CEditLine"]
        ),
        // The thin executable: picks the subcommand, wires flags to the library and the library to the terminal.
        .executableTarget(
            name: "lessonplan",
            dependencies: ["LessonPlanKit", "Terminal"]
        ),
        // Writes scripts/bench's transcript fixtures through the tool's own writer; not installed.
        .executableTarget(
            name: "lessonplan-bench-fixture",
            dependencies: ["LessonPlanKit"]
        ),
        .target(
            name: "TestSupport",
            dependencies: ["LessonPlanKit"],
            path: "Tests/TestSupport",
            resources: [.copy("fake_openai.py"), .copy("worker_host.mjs")]
        ),
        .testTarget(
            name: "LessonPlanKitTests",
            dependencies: ["LessonPlanKit", "TestSupport"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["LessonPlanKit", "TestSupport", "lessonplan"]
        ),
    ]
)
