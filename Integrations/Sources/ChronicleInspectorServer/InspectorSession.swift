import Foundation

/// What an app said about itself in its hello, kept in the session's `instance.json`.
struct InstanceInfo {
  var id: String
  var name: String
  var host: String
  var pid: Int
  var store: String
  var stateType: String
  var actionType: String
  var allows: [String]
  /// The NDJSON header's `meta`, as JSON text.
  var metaJSON: String

  /// The instance as the page's `instances` line lists it.
  func listing(connected: Bool, entries: Int) -> [String: Any] {
    [
      "id": id, "name": name, "host": host, "pid": pid, "store": store, "state": stateType,
      "action": actionType, "connected": connected, "allows": allows, "entries": entries,
    ]
  }

  var json: String {
    JSONText.encode(
      [
        "id": id, "name": name, "host": host, "pid": pid, "store": store, "state": stateType,
        "action": actionType, "allows": allows,
      ] as [String: Any]
    ).dropLast() + ",\"meta\":" + metaJSON + "}"
  }

  init(
    id: String, name: String, host: String, pid: Int, store: String, stateType: String,
    actionType: String, allows: [String], metaJSON: String
  ) {
    self.id = id
    self.name = name
    self.host = host
    self.pid = pid
    self.store = store
    self.stateType = stateType
    self.actionType = actionType
    self.allows = allows
    self.metaJSON = metaJSON
  }

  /// Reads `instance.json` back.
  init?(json data: Data) {
    guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let id = object["id"] as? String, let meta = object["meta"]
    else { return nil }
    self.init(
      id: id, name: object["name"] as? String ?? "", host: object["host"] as? String ?? "",
      pid: JSONText.integer(object["pid"]) ?? 0, store: object["store"] as? String ?? "",
      stateType: object["state"] as? String ?? "?", actionType: object["action"] as? String ?? "?",
      allows: object["allows"] as? [String] ?? [], metaJSON: JSONText.encode(meta))
  }
}

/// Failures writing or reading a session's files.
struct SessionStorageError: Error, CustomStringConvertible {
  let description: String
}

/// One app instance's session on disk: `instance.json`, `journal.ndjson` (the NDJSON stream that
/// `chronicle` and `Journal.loadNDJSON` read) and `link.ndjson` (every numbered line with its
/// number: `{"n":N,"line":L}`).
///
/// Each batch of lines is written to `link.ndjson` first, then its entry and effect lines to
/// `journal.ndjson`, each file with one `write(2)`; only then is the batch acknowledged. A
/// session reopened after a crash drops a torn last line and makes the journal hold exactly the
/// entry and effect lines of `link.ndjson`, so the journal and the resume point agree.
final class InspectorSession {
  let folder: URL
  private(set) var info: InstanceInfo
  /// The last numbered line stored (0: none).
  private(set) var last: UInt64 = 0
  /// The entry lines stored.
  private(set) var entries = 0
  private var link: FileHandle?
  private var journal: FileHandle?

  var linkURL: URL { folder.appendingPathComponent("link.ndjson") }
  var journalURL: URL { folder.appendingPathComponent("journal.ndjson") }

  /// A new session for `info` in `folder`, with its header written.
  init(creating info: InstanceInfo, in folder: URL) throws {
    self.folder = folder
    self.info = info
    let manager = FileManager.default
    try manager.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(info.json.utf8).write(to: folder.appendingPathComponent("instance.json"), options: .atomic)
    try Data(Self.header(info.metaJSON).utf8).write(to: journalURL, options: .atomic)
    try Data().write(to: linkURL, options: .atomic)
  }

  /// The session stored in `folder`, repaired after a crash as the type's comment says; `nil`
  /// when the folder holds no session.
  init?(reopening folder: URL) {
    guard let data = try? Data(contentsOf: folder.appendingPathComponent("instance.json")),
      let info = InstanceInfo(json: data)
    else { return nil }
    self.folder = folder
    self.info = info
    guard (try? repair()) != nil else { return nil }
  }

  static func header(_ metaJSON: String) -> String {
    #"{"format":"chronicle.journal.ndjson","version":1,"meta":"# + metaJSON + "}\n"
  }

  /// Updates what the instance says about itself (a reconnecting app may allow other commands).
  func update(_ newInfo: InstanceInfo) {
    guard newInfo.allows != info.allows || newInfo.name != info.name || newInfo.pid != info.pid else {
      return
    }
    var kept = newInfo
    kept.metaJSON = info.metaJSON
    info = kept
    try? Data(info.json.utf8).write(to: folder.appendingPathComponent("instance.json"), options: .atomic)
  }

  /// Stores numbered lines `first`, `first + 1`, … (`first` is `last + 1`).
  func append(_ lines: [LiveLine], first: UInt64) throws {
    var linkText = ""
    var journalText = ""
    var newEntries = 0
    for (offset, line) in lines.enumerated() {
      linkText += #"{"n":"# + String(first + UInt64(offset)) + #","line":"# + line.text + "}\n"
      if line.isJournalLine {
        journalText += line.text + "\n"
        if line.kind == "entry" { newEntries += 1 }
      }
    }
    try handle(&link, linkURL).write(contentsOf: Data(linkText.utf8))
    if !journalText.isEmpty { try handle(&journal, journalURL).write(contentsOf: Data(journalText.utf8)) }
    last = first + UInt64(lines.count) - 1
    entries += newEntries
  }

  private func handle(_ handle: inout FileHandle?, _ url: URL) throws -> FileHandle {
    if let handle { return handle }
    let opened = try FileHandle(forWritingTo: url)
    try opened.seekToEnd()
    handle = opened
    return opened
  }

  /// The numbered lines from `from` on, as `(number, line)` pairs read from `link.ndjson`.
  func storedLines(from: UInt64) -> [(UInt64, Substring)] {
    guard let data = try? Data(contentsOf: linkURL) else { return [] }
    return Self.parseLink(String(decoding: data, as: UTF8.self)).lines.filter { $0.0 >= from }
  }

  /// Closes the files (a later append reopens them).
  func close() {
    try? link?.close()
    try? journal?.close()
    link = nil
    journal = nil
  }

  /// The complete lines of a `link.ndjson` text, and the length of the text they fill.
  static func parseLink(_ text: String) -> (lines: [(UInt64, Substring)], length: Int) {
    var lines: [(UInt64, Substring)] = []
    var length = 0
    var rest = Substring(text)
    let prefix = #"{"n":"#
    let middle = #","line":"#
    while let end = rest.firstIndex(of: "\n") {
      let line = rest[..<end]
      rest = rest[rest.index(after: end)...]
      guard line.hasPrefix(prefix), line.hasSuffix("}"),
        let split = line.range(of: middle),
        let number = UInt64(line[line.index(line.startIndex, offsetBy: prefix.count)..<split.lowerBound])
      else { break }
      lines.append((number, line[split.upperBound..<line.index(before: line.endIndex)]))
      length += line.utf8.count + 1
    }
    return (lines, length)
  }

  /// Drops a torn last line of `link.ndjson`, then makes `journal.ndjson` hold exactly its entry
  /// and effect lines after the header.
  private func repair() throws {
    let linkText = String(decoding: (try? Data(contentsOf: linkURL)) ?? Data(), as: UTF8.self)
    let (lines, length) = Self.parseLink(linkText)
    if length != linkText.utf8.count {
      let file = try FileHandle(forWritingTo: linkURL)
      try file.truncate(atOffset: UInt64(length))
      try file.close()
    }
    last = lines.last?.0 ?? 0
    let journalLines = lines.map(\.1).filter { $0.hasPrefix(#"{"entry":"#) || $0.hasPrefix(#"{"effect":"#) }
    entries = journalLines.count { $0.hasPrefix(#"{"entry":"#) }
    // The journal is rewritten only when it differs from what the link holds: a crash between
    // the two writes of a batch, or a torn line.
    let expected = Self.header(info.metaJSON) + journalLines.map { $0 + "\n" }.joined()
    let current = (try? Data(contentsOf: journalURL)) ?? Data()
    if current != Data(expected.utf8) {
      try Data(expected.utf8).write(to: journalURL, options: .atomic)
    }
  }
}
