import Foundation
import LessonPlanCLI

// A closed pipe is a write error with a sentence, not a silent death by SIGPIPE.
signal(SIGPIPE, SIG_IGN)
// A file-size limit (RLIMIT_FSIZE) must fail the write with EFBIG, which the transcript writer
// handles, instead of killing the process and the unsaved plan with it.
signal(SIGXFSZ, SIG_IGN)

let app = App(environment: ProcessInfo.processInfo.environment)
let status = await app.run(Array(CommandLine.arguments.dropFirst()))
// A reader that went away (`| head`) ends the run as SIGPIPE would, 141, whatever printing it stopped; any other
// failed write to stdout (a full disk) is 1.
if app.console.outputClosed, status == 0 || status == 1 { exit(141) }
exit(status == 0 && app.console.outputFailed ? 1 : status)
