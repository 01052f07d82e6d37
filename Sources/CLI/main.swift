// `chronicle`: reads exported journals (Journal JSON, NDJSON or Redux DevTools) without the app's
// types, and summarises, shows, diffs, filters, compares, follows and converts them. Exit status:
// 0 done, 1 a file could not be read or written, 2 the command line is wrong; `compare` exits as
// cmp does (0 the same, 1 different, 2 trouble).
import ChronicleFormats
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let command: CLICommand
do {
  command = try CLICommand(parsing: arguments)
} catch {
  FileHandle.standardError.write(Data("chronicle: \(error.description)\n\n\(CLICommand.usage)".utf8))
  exit(error.exitCode)
}
do {
  let result = try command.run()
  print(result.output, terminator: "")
  exit(result.status)
} catch {
  FileHandle.standardError.write(Data("chronicle: \(error.description)\n".utf8))
  if case .usage = error { FileHandle.standardError.write(Data("\n\(CLICommand.usage)".utf8)) }
  exit(command.exitCode(for: error))
}
