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
  /// The bytes of `link.ndjson`: the complete lines stored.
  private(set) var linkLength = 0
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

  /// Stores numbered lines `first`, `first + 1`, … (`first` is after `last`).
  func append(_ lines: [LiveLine], first: UInt64) throws {
    // Each file's text is made in one buffer and written with one call: no string per line.
    var linkBytes: [UInt8] = []
    var journalBytes: [UInt8] = []
    linkBytes.reserveCapacity(lines.reduce(0) { $0 + $1.text.utf8.count + 32 })
    var newEntries = 0
    for (offset, line) in lines.enumerated() {
      linkBytes.append(contentsOf: #"{"n":"#.utf8)
      Self.appendDecimal(first + UInt64(offset), to: &linkBytes)
      linkBytes.append(contentsOf: #","line":"#.utf8)
      Self.append(line.text, to: &linkBytes)
      linkBytes.append(contentsOf: "}\n".utf8)
      if line.isJournalLine {
        if journalBytes.isEmpty { journalBytes.reserveCapacity(linkBytes.capacity) }
        Self.append(line.text, to: &journalBytes)
        journalBytes.append(UInt8(ascii: "\n"))
        if line.kind == "entry" { newEntries += 1 }
      }
    }
    try handle(&link, linkURL).write(contentsOf: linkBytes)
    if !journalBytes.isEmpty { try handle(&journal, journalURL).write(contentsOf: journalBytes) }
    last = first + UInt64(lines.count) - 1
    entries += newEntries
    linkLength += linkBytes.count
  }

  /// Appends the bytes of `text` with one copy (a line of a native string is contiguous; the
  /// generic copy of its UTF-8 view goes byte by byte).
  static func append(_ text: Substring, to bytes: inout [UInt8]) {
    if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
      bytes.append(contentsOf: text.utf8)
    }
  }

  /// Appends `value` in decimal digits.
  static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
    if value >= 10 { appendDecimal(value / 10, to: &bytes) }
    bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
  }

  private func handle(_ handle: inout FileHandle?, _ url: URL) throws -> FileHandle {
    if let handle { return handle }
    let opened = try FileHandle(forWritingTo: url)
    try opened.seekToEnd()
    handle = opened
    return opened
  }

  /// Reads the first `length` bytes of the `link.ndjson` at `url` a chunk at a time, handing
  /// `body` the complete lines of each chunk as `(number, line)` pairs; stops when `body` returns
  /// false. Returns whether every chunk was read and handed over. Touches no session: a page's
  /// past lines are read this way without the hub's lock.
  static func readLink(
    _ url: URL, length: Int, chunk: Int = 1 << 20, _ body: ([(UInt64, Substring)]) -> Bool
  ) -> Bool {
    guard let file = try? FileHandle(forReadingFrom: url) else { return false }
    defer { try? file.close() }
    var carried: [UInt8] = []
    var read = 0
    while read < length {
      guard let data = try? file.read(upToCount: min(chunk, length - read)), !data.isEmpty else {
        return false
      }
      read += data.count
      carried += data
      guard let end = carried.lastIndex(of: 0x0A) else { continue }
      let text = String(decoding: carried[...end], as: UTF8.self)
      carried.removeFirst(end + 1)
      guard body(parseLink(text).lines) else { return false }
    }
    return true
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
    // Split on the newline byte (not on Characters, which walks grapheme clusters).
    while let end = rest.utf8.firstIndex(of: UInt8(ascii: "\n")) {
      let line = rest[..<end]
      rest = rest[rest.utf8.index(after: end)...]
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
    linkLength = length
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
