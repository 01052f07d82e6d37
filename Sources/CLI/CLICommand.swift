import ChronicleFormats
import Foundation

/// One `chronicle` command, parsed from the command line.
enum CLICommand {
  case help
  case summary(path: String, json: Bool)
  case show(path: String, index: Int, json: Bool)
  case diff(path: String, from: Int, to: Int)
  case filter(path: String, context: String?, text: String?, site: String?, json: Bool)
  case convert(input: String, output: String, format: ConversionFormat)
  case compare(String, String)
  case follow(path: String, count: Int?)
  case repair(input: String, output: String)

  /// What `convert --to` writes.
  enum ConversionFormat: String, CaseIterable {
    case json, ndjson, chrome, redux, html
  }

  static let usage = """
    usage: chronicle <command> [arguments]

    Reads journals exported by Chronicle's tracer (Journal JSON, NDJSON or a Redux DevTools
    import file, told apart by their content), without the app's types.

    commands:
      summary FILE [--json]              counts, contexts, time span and the slowest actions
      show FILE N [--json]               entry N: its action, cause, duration and state after
      diff FILE A B                      what changed in the state from before entry A to after entry B
      filter FILE [--context X] [--text Y] [--site F[:L]] [--json]
                                         the entries of context X whose action or state contains Y
      compare A B                        the first entry where journals A and B differ (action or state)
      follow FILE [--for N]              prints the entries of an NDJSON stream as they are appended,
                                         until Ctrl-C or N entries
      convert IN OUT --to FORMAT         writes IN as FORMAT: json, ndjson, chrome, redux or html
      repair FILE [OUT]                  cuts what a killed writer left after an NDJSON stream's
                                         complete lines (a torn line, a mapped sink's NUL bytes);
                                         writes OUT, or replaces FILE
      help                               this text (also --help, -h)

    --json prints one JSON object instead of text (its shape: README, "chronicle --json").

    Exit status: 0 done, 1 a file could not be read or written or has no such entry or context,
    2 a wrong command line. compare, as cmp and diff: 0 the same, 1 different, 2 trouble.

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
    func flag(_ flag: String) -> Bool {
      guard let at = rest.firstIndex(of: flag) else { return false }
      rest.remove(at: at)
      return true
    }
    func number(_ text: String) throws(CLIError) -> Int {
      guard let value = Int(text) else { throw .usage("\(text.debugDescription) is not an entry number") }
      return value
    }
    switch name {
    case "help", "--help", "-h":
      self = .help
    case "summary":
      let json = flag("--json")
      self = .summary(path: try positional(1)[0], json: json)
    case "show":
      let json = flag("--json")
      let values = try positional(2)
      self = .show(path: values[0], index: try number(values[1]), json: json)
    case "diff":
      let values = try positional(3)
      self = .diff(path: values[0], from: try number(values[1]), to: try number(values[2]))
    case "filter":
      let context = try option("--context")
      let text = try option("--text")
      let site = try option("--site")
      let json = flag("--json")
      self = .filter(path: try positional(1)[0], context: context, text: text, site: site, json: json)
    case "compare":
      let values = try positional(2)
      self = .compare(values[0], values[1])
    case "follow":
      let count = try option("--for").map { (text) throws(CLIError) -> Int in
        guard let count = Int(text), count >= 1 else {
          throw .usage("--for takes a number of entries, at least 1, not \(text.debugDescription)")
        }
        return count
      }
      self = .follow(path: try positional(1)[0], count: count)
    case "repair":
      if let unknown = rest.first(where: { $0.hasPrefix("--") }) { throw .usage("unknown option \(unknown)") }
      guard (1...2).contains(rest.count) else {
        throw .usage("repair takes 1 or 2 arguments, got \(rest.count)")
      }
      self = .repair(input: rest[0], output: rest.last ?? rest[0])
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

  /// The exit status for `error`: 2 for every error of `compare`, whose 1 means "different".
  func exitCode(for error: CLIError) -> Int32 {
    if case .compare = self { return 2 }
    return error.exitCode
  }

  /// Runs the command and returns what it prints and its exit status.
  func run() throws(CLIError) -> (output: String, status: Int32) {
    if case .compare(let first, let second) = self {
      let comparison = try Self.comparison(first, second)
      return (comparison.report, comparison.isSame ? 0 : 1)
    }
    return (try output(), 0)
  }

  /// What a command other than `compare` prints.
  private func output() throws(CLIError) -> String {
    switch self {
    case .help: return Self.usage
    case .summary(let path, let json):
      var summary = JournalSummary()
      summary.finish(
        try Self.scan(path) { document, position in
          summary.add(document.entries[position])
          return true
        })
      return json ? JournalJSONReport.summary(summary) : JournalReport.summary(summary)
    case .show(let path, let index, let json):
      var shown: String?
      var range: (first: Int, last: Int)?
      _ = try Self.scan(path) { document, position in
        let entry = document.entries[position]
        range = (range?.first ?? entry.index, entry.index)
        guard entry.index == index else { return true }
        shown =
          json
          ? JournalJSONReport.show(document, position: position)
          : JournalReport.show(document, position: position)
        return false
      }
      guard let shown else { throw .noSuchEntry(index, path: path, range: range.map { $0.first...$0.last }) }
      return shown
    case .diff(let path, let from, let to):
      let document = try Self.load(path)
      return JournalReport.diff(
        document, from: try Self.position(of: from, in: document, path: path),
        to: try Self.position(of: to, in: document, path: path))
    case .filter(let path, let context, let text, let site, let json):
      var matches: [JournalFileEntry] = []
      var contexts = Set<String>()
      let scan = try Self.scan(path) { document, position in
        if let context = document.entries[position].context { contexts.insert(context) }
        if JournalReport.matches(document, at: position, context: context, text: text, site: site) {
          matches.append(document.entries[position])
        }
        return true
      }
      if let context, !contexts.contains(context) {
        throw .noSuchContext(context, path: path, known: contexts.sorted())
      }
      return json
        ? JournalJSONReport.filter(total: scan.entryCount, matches: matches)
        : JournalReport.filter(total: scan.entryCount, matches: matches)
    case .compare(let first, let second): return try Self.comparison(first, second).report
    case .follow(let path, let count):
      try JournalFollower(path: path, count: count).run()
      return ""
    case .repair(let input, let output):
      return try JournalRepair(input: input, output: output).run()
    case .convert(let input, let output, let format):
      let document = try Self.load(input)
      // Every export is written beside the target and renamed over it, so a symbolic link there
      // is replaced rather than followed, and a failed write leaves the target as it was.
      let url = URL(fileURLWithPath: output)
      let data: Data? =
        switch format {
        case .json: document.journalJSON()
        case .ndjson: document.ndjson()
        case .chrome: document.chromeTrace()
        case .redux: nil  // streamed to the file, refused past what the extension can read
        case .html:
          Data(JournalViewer.html(for: document, title: URL(fileURLWithPath: input).lastPathComponent).utf8)
        }
      if let data {
        do {
          try data.write(to: url, options: .atomic)
        } catch {
          throw .cannotWrite(path: output, reason: (error as NSError).localizedDescription)
        }
      } else {
        do {
          try document.writeReduxDevTools(to: url)
        } catch {
          throw .cannotWrite(path: output, reason: error.description)
        }
      }
      return "wrote \(output) (\(format.rawValue), \(document.count) entries)\n"
    }
  }

  private static func comparison(_ first: String, _ second: String) throws(CLIError) -> JournalComparison {
    JournalComparison(try load(first), named: first, with: try load(second), named: second)
  }

  /// Reads the file at `path` entry by entry (see `JournalFile.scan`): an NDJSON stream is
  /// never held whole.
  private static func scan(
    _ path: String, visiting visit: (JournalFile, Int) -> Bool
  ) throws(CLIError) -> JournalFile.Scan {
    do {
      return try JournalFile.scan(contentsOf: URL(fileURLWithPath: path), visiting: visit)
    } catch {
      throw .badFile(path: path, error)
    }
  }

  private static func load(_ path: String) throws(CLIError) -> JournalFile {
    do {
      return try JournalFile(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw .badFile(path: path, error)
    }
  }

  /// The position in the document of the entry with journal index `index`.
  private static func position(
    of index: Int, in document: JournalFile, path: String
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
