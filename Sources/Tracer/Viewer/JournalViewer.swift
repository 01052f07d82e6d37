import Foundation

/// Writes the HTML journal viewer: one self-contained file (inline CSS and JavaScript, nothing
/// loaded from the network) that lists the entries with their context, cause and duration,
/// filters them by text and by context, and shows the selected entry's action, its state as a
/// collapsible tree and its diff from the previous state, with a time slider.
///
/// The page stays responsive with 100,000 entries: it renders only the rows on screen, and keeps
/// full states every ``fullStateInterval`` entries plus each entry's changes, rebuilding a state
/// only when it is shown. Open it with any browser; `#select=N` in the address selects entry
/// `N`, `#filter=text` fills the filter and `#cause=N` jumps to the entry that caused entry `N`.
public enum JournalViewer {
  /// How many entries apart the page stores full states; states in between are rebuilt from
  /// the nearest one and the entries' changes.
  public static let fullStateInterval = 256

  /// The viewer page for `document`, as HTML text.
  public static func html(for document: JournalDocument, title: String = "Chronicle journal") -> String {
    let data = ViewerData.make(document, title: title, interval: fullStateInterval)
    let serialized = JSONWriter.serialize(data)
    // The data sits in a <script> element: escaping `<` keeps `</script>` in a value from ending it.
    // Written into one buffer: the data is as large as the journal.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(serialized.count + serialized.count / 64)
    for byte in serialized {
      if byte == UInt8(ascii: "<") {
        bytes.append(contentsOf: #"\u003c"#.utf8)
      } else {
        bytes.append(byte)
      }
    }
    return ViewerPage.html(title: title, data: String(decoding: bytes, as: UTF8.self))
  }

  /// Writes the viewer page for `document` to `url`, replacing the file.
  ///
  /// The export is written to a new file beside `url` and renamed over it: a symbolic link at
  /// `url` is replaced rather than followed, and a failed export leaves the old file as it was.
  public static func write(
    _ document: JournalDocument, to url: URL, title: String = "Chronicle journal"
  ) throws(JournalExportError) {
    var stream = try ExportStream(creating: url)
    stream.writer.bytes = Array(html(for: document, title: title).utf8)
    try stream.finish()
  }
}

extension JournalSnapshot {
  /// The journal as an HTML viewer page (see ``JournalViewer``), with every state; states and
  /// actions pass through `redaction`, so redacted values show as `<redacted>`.
  public func htmlViewer(redaction: Redaction = .default, title: String = "Chronicle journal") -> Data {
    let (document, shownTitle) = viewerDocument(redaction: redaction, title: title)
    return Data(JournalViewer.html(for: document, title: shownTitle).utf8)
  }

  /// Writes the journal's HTML viewer page to `url` (see ``htmlViewer(redaction:title:)``).
  public func writeHTMLViewer(
    to url: URL, redaction: Redaction = .default, title: String = "Chronicle journal"
  ) throws(JournalExportError) {
    let (document, shownTitle) = viewerDocument(redaction: redaction, title: title)
    try JournalViewer.write(document, to: url, title: shownTitle)
  }

  /// The journal as a document for the viewer, read back from its Journal JSON: values nested
  /// deeper than the parser reads are cut with a marker. Should the journal hold what its own
  /// format refuses (a time out of range after an import), the page is empty and its title says
  /// why: the viewer never traps.
  private func viewerDocument(redaction: Redaction, title: String) -> (JournalDocument, String) {
    let json = journalJSON(options: ExportOptions(redaction: redaction, states: .everyEntry))
    do {
      return (try JournalDocument(data: json, limits: .ownExport), title)
    } catch {
      let empty = JournalDocument(emptyWithMeta: .object([]))
      return (empty, "\(title) (cannot be shown: \(error.description))")
    }
  }
}
