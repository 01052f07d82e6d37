/// One numbered line of a live link (docs/formats/live-link.md): an NDJSON entry or effect line,
/// a `state` line or a `gap` marker, with the number the link gives it.
public struct LiveLine: Sendable, Hashable {
  /// The line's number: 1 for the first line a ``JournalLiveStream`` made, then one more for each.
  public let number: Int
  /// The line's UTF-8 JSON text, ending with `\n`.
  public let bytes: [UInt8]
  /// What the line is.
  public let kind: Kind

  /// What a numbered line holds.
  public enum Kind: String, Sendable, Hashable {
    /// `{"entry":{…}}`: an NDJSON entry line.
    case entry
    /// `{"effect":{…}}`: an NDJSON effect event line.
    case effect
    /// `{"state":{…}}`: the state after an entry, whole or as a patch.
    case state
    /// `{"gap":{…}}`: lines that were dropped here.
    case gap
  }

  /// Creates a line.
  public init(number: Int, bytes: [UInt8], kind: Kind) {
    self.number = number
    self.bytes = bytes
    self.kind = kind
  }

  /// The line's text, without its final newline.
  public var text: String { String(decoding: bytes.dropLast(bytes.last == 0x0A ? 1 : 0), as: UTF8.self) }
}

/// Where a connection resumes a live stream: the number of its first line (the hello's `next`),
/// and the gap line to send first when the stream no longer holds the line after the one the
/// inspector asked to resume after.
public struct LiveResume: Sendable, Hashable {
  /// The number of the first line the connection carries.
  public let next: Int
  /// A gap marker numbered `next`, standing for the lines the stream freed before the inspector
  /// had them; `nil` when nothing was lost.
  public let gap: LiveLine?
}

/// What a ``JournalLiveStream`` holds and has dropped.
public struct LiveStreamStatistics: Sendable, Hashable {
  /// The number of the last line made (0 before the first).
  public var lastNumber: Int
  /// The highest number acknowledged.
  public var acknowledged: Int
  /// Lines held (made and not yet acknowledged).
  public var heldLines: Int
  /// Entry lines among them.
  public var heldEntries: Int
  /// Bytes of the lines held.
  public var heldBytes: Int
  /// Lines dropped in total, as the stream's gap markers counted them.
  public var droppedLines: Int
  /// Entries among them.
  public var droppedEntries: Int
}
