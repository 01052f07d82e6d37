import ChronicleTracer
import Foundation

/// One `chronicle` command, parsed from the command line.
enum CLICommand {
  case help
  case summary(path: String)
  case show(path: String, index: Int)
  case diff(path: String, from: Int, to: Int)
  case filter(path: String, context: String?, text: String?)
  case convert(input: String, output: String, format: ConversionFormat)

  /// What `convert --to` writes.
  enum ConversionFormat: String, CaseIterable {
    case json, ndjson, chrome, redux, html
  }

  static let usage = """
    usage: chronicle <command> [arguments]

    Reads journals exported by Chronicle's tracer (Journal JSON or NDJSON), without the app's types.

    commands:
      summary FILE                       counts, contexts, time span and the slowest actions
      show FILE N                        entry N: its action, cause, duration and state after
      diff FILE A B                      what changed in the state from before entry A to after entry B
      filter FILE [--context X] [--text Y]
                                         the entries of context X whose action, type or cause contains Y
      convert IN OUT --to FORMAT         writes IN as FORMAT: json, ndjson, chrome, redux or html
      help                               this text (also --help, -h)

    Exit status: 0 done, 1 a file could not be read or written, 2 a wrong command line.

    """

  init(parsing arguments: [String]) throws(CLIError) {
    guard let name = arguments.first else { throw .usage("no command given") }
    var rest = Array(arguments.dropFirst())
    func option(_ flag: String) throws(CLIError) -> String? {
      guard let at = rest.firstIndex(of: flag) else { return nil }
      guard at + 1 < rest.count else { throw .usage("\(flag) needs a value") }
      defer { rest.removeSubrange(at...(at + 1)) }
      return rest[at + 1]
    }
    func positional(_ count: Int) throws(CLIError) -> [String] {
      if let unknown = rest.first(where: { $0.hasPrefix("--") }) { throw .usage("unknown option \(unknown)") }
      guard rest.count == count else {
        throw .usage("\(name) takes \(count) argument\(count == 1 ? "" : "s"), got \(rest.count)")
      }
      return rest
    }
    func number(_ text: String) throws(CLIError) -> Int {
      guard let value = Int(text) else { throw .usage("\(text.debugDescription) is not an entry number") }
      return value
    }
    switch name {
    case "help", "--help", "-h":
      self = .help
    case "summary":
      self = .summary(path: try positional(1)[0])
    case "show":
      let values = try positional(2)
      self = .show(path: values[0], index: try number(values[1]))
    case "diff":
      let values = try positional(3)
      self = .diff(path: values[0], from: try number(values[1]), to: try number(values[2]))
    case "filter":
      let context = try option("--context")
      let text = try option("--text")
      self = .filter(path: try positional(1)[0], context: context, text: text)
    case "convert":
      guard let to = try option("--to") else { throw .usage("convert needs --to FORMAT") }
      guard let format = ConversionFormat(rawValue: to) else {
        let known = ConversionFormat.allCases.map(\.rawValue).joined(separator: ", ")
        throw .usage("unknown format \(to.debugDescription) (known: \(known))")
      }
      let values = try positional(2)
      self = .convert(input: values[0], output: values[1], format: format)
    default:
      throw .usage("unknown command \(name.debugDescription)")
    }
  }

  /// Runs the command and returns what it prints.
  func run() throws(CLIError) -> String {
    switch self {
    case .help: return Self.usage
    case .summary(let path): return JournalReport.summary(try Self.load(path))
    case .show(let path, let index):
      let document = try Self.load(path)
      return JournalReport.show(document, position: try Self.position(of: index, in: document, path: path))
    case .diff(let path, let from, let to):
      let document = try Self.load(path)
      return JournalReport.diff(
        document, from: try Self.position(of: from, in: document, path: path),
        to: try Self.position(of: to, in: document, path: path))
    case .filter(let path, let context, let text):
      return JournalReport.filter(try Self.load(path), context: context, text: text)
    case .convert(let input, let output, let format):
      let document = try Self.load(input)
      let data: Data =
        switch format {
        case .json: document.journalJSON()
        case .ndjson: document.ndjson()
        case .chrome: document.chromeTrace()
        case .redux: document.reduxDevTools()
        case .html:
          Data(JournalViewer.html(for: document, title: URL(fileURLWithPath: input).lastPathComponent).utf8)
        }
      do {
        // Atomic: written beside the target and renamed over it, so a symbolic link there is
        // replaced rather than followed, and a failed write leaves the target as it was.
        try data.write(to: URL(fileURLWithPath: output), options: .atomic)
      } catch {
        throw .cannotWrite(path: output, reason: (error as NSError).localizedDescription)
      }
      return "wrote \(output) (\(format.rawValue), \(document.count) entries)\n"
    }
  }

  private static func load(_ path: String) throws(CLIError) -> JournalDocument {
    do {
      return try JournalDocument(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw .badFile(path: path, error)
    }
  }

  /// The position in the document of the entry with journal index `index`.
  private static func position(
    of index: Int, in document: JournalDocument, path: String
  ) throws(CLIError) -> Int {
    guard let first = document.entries.first, let last = document.entries.last else {
      throw .noSuchEntry(index, path: path, range: nil)
    }
    guard (first.index...last.index).contains(index) else {
      throw .noSuchEntry(index, path: path, range: first.index...last.index)
    }
    return index - first.index
  }
}
