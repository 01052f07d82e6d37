import ChronicleFormats
import Foundation

/// Why a `chronicle` command failed, in words for the terminal.
enum CLIError: Error, CustomStringConvertible {
  /// The command line is wrong: an unknown command or option, a missing or bad argument.
  case usage(String)
  /// An input file is not a journal this tool reads.
  case badFile(path: String, JournalImportError)
  /// An output file could not be written.
  case cannotWrite(path: String, reason: String)
  /// An entry number outside the journal.
  case noSuchEntry(Int, path: String, range: ClosedRange<Int>?)
  /// A context no entry of the journal has; `known` lists those it has.
  case noSuchContext(String, path: String, known: [String])

  /// 2 for a wrong command line, 1 for files.
  var exitCode: Int32 {
    if case .usage = self { return 2 }
    return 1
  }

  var description: String {
    switch self {
    case .usage(let message): message
    case .badFile(let path, .unreadableFile(_, let errno)):
      "cannot read \(path): \(String(cString: strerror(errno)))"
    case .badFile(let path, .notARegularFile): "cannot read \(path): not a regular file"
    case .badFile(let path, let error): "\(path): \(error.description)"
    case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
    case .noSuchEntry(let index, let path, let range):
      "\(path) has no entry \(index)"
        + (range.map { " (entries \($0.lowerBound)…\($0.upperBound))" } ?? " (it is empty)")
    case .noSuchContext(let context, let path, let known):
      "\(path) has no context \(context.debugDescription)"
        + (known.isEmpty
          ? " (its entries have none)"
          : " (contexts: \(known.map(\.debugDescription).joined(separator: ", ")))")
    }
  }
}
