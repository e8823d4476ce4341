import Foundation

let app = App(environment: ProcessInfo.processInfo.environment)
let status = await app.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
