import Foundation
import LessonPlanCLI

// A closed pipe is a write error with a sentence, not a silent death by SIGPIPE.
signal(SIGPIPE, SIG_IGN)
// A file-size limit (RLIMIT_FSIZE) must fail the write with EFBIG, which the transcript writer
// handles, instead of killing the process and the unsaved plan with it.
signal(SIGXFSZ, SIG_IGN)
// One malloc arena, not one per thread: the tool's few threads (the transfer, the cooperative pool) allocate little,
// and every arena glibc adds keeps pages of its own (0.6-0.8 MiB of a REPL's peak, measured by scripts/bench).
// (glibc's mallopt is looked up by name: its header, malloc.h, is not in the Glibc module. M_ARENA_MAX is -8.)
if let mallopt = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
    _ = unsafeBitCast(mallopt, to: (@convention(c) (Int32, Int32) -> Int32).self)(-8, 1)
}

let app = App(environment: ProcessInfo.processInfo.environment)
let status = await app.run(Array(CommandLine.arguments.dropFirst()))
// A reader that went away (`| head`) ends the run as SIGPIPE would, 141, whatever printing it stopped; any other
// failed write to stdout (a full disk) is 1.
if app.console.outputClosed, status == 0 || status == 1 { exit(141) }
exit(status == 0 && app.console.outputFailed ? 1 : status)
