// `chronicle`: reads exported journals (Journal JSON or NDJSON) without the app's types, and
// summarises, shows, diffs, filters and converts them. Exit status: 0 done, 1 a file could not be
// read or written, 2 the command line is wrong.
import ChronicleTracer
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
do {
  let command = try CLICommand(parsing: arguments)
  print(try command.run(), terminator: "")
} catch {
  FileHandle.standardError.write(Data("chronicle: \(error.description)\n".utf8))
  if case .usage = error { FileHandle.standardError.write(Data("\n\(CLICommand.usage)".utf8)) }
  exit(error.exitCode)
}
