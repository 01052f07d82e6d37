import ChronicleJSON
import ChronicleTracer

/// The bytes of a document as an importer reads them: all of a buffer in memory, or a file read
/// block by block, holding only the bytes from the value being read on.
///
/// A parser reads ``bytes``; when a value runs past their end before the file's, the importer
/// calls ``refill(keepingFrom:)``, which drops what was read before that value and appends the
/// next block, and reads the value again. A file's memory is then the largest value in it plus a
/// block, whatever the number of entries.
final class DocumentWindow {
  /// The bytes held, from document offset ``base`` on.
  private(set) var bytes: UnsafeBufferPointer<UInt8>
  /// The document offset of the first byte held.
  private(set) var base = 0
  /// Whether the document has no bytes beyond ``bytes``.
  private(set) var atEnd: Bool
  private let source: BlockSource?
  private var owned: UnsafeMutablePointer<UInt8>?
  private var capacity = 0
  private let blockSize: Int
  /// The bytes the next refill reads: doubled while one value keeps running past the end, so
  /// that reading a value of n bytes again after each block costs O(n) in all.
  private var nextRead: Int
  private let limit: Int

  /// A window over `bytes`, which holds the whole document.
  init(whole bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    atEnd = true
    source = nil
    blockSize = 0
    nextRead = 0
    limit = .max
  }

  /// A window over the file of `source`, read `blockSize` bytes at a time; more than `limit`
  /// bytes in all is ``JournalImportError/tooLarge(entry:field:limit:)``.
  init(_ source: BlockSource, blockSize: Int, limit: Int) {
    bytes = UnsafeBufferPointer(start: nil, count: 0)
    atEnd = false
    self.source = source
    self.blockSize = max(1, blockSize)
    nextRead = max(1, blockSize)
    self.limit = limit
  }

  deinit { owned?.deallocate() }

  /// Drops the bytes before `keep` (an index into ``bytes``) and appends the next block; returns
  /// how many bytes were dropped. At the end of the document, sets ``atEnd`` and appends nothing.
  func refill(keepingFrom keep: Int) throws(JournalImportError) -> Int {
    guard let source, !atEnd else { return 0 }
    let block = try source.read(upTo: nextRead)
    if block.isEmpty {
      atEnd = true
      return 0
    }
    let kept = bytes.count - keep
    if base + bytes.count + block.count > limit {
      throw .tooLarge(entry: nil, field: "(document)", limit: limit)
    }
    let needed = kept + block.count
    if needed > capacity || owned == nil {
      let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: max(needed, capacity * 2, blockSize))
      if let owned, kept > 0 { grown.update(from: owned + keep, count: kept) }
      owned?.deallocate()
      owned = grown
      capacity = max(needed, capacity * 2, blockSize)
    } else if let owned, kept > 0, keep > 0 {
      // The ranges overlap: copyMemory moves them as memmove does.
      UnsafeMutableRawPointer(owned).copyMemory(from: owned + keep, byteCount: kept)
    }
    guard let owned else { return 0 }
    block.withUnsafeBufferPointer { block in
      if let start = block.baseAddress { (owned + kept).update(from: start, count: block.count) }
    }
    base += keep
    bytes = UnsafeBufferPointer(start: owned, count: needed)
    nextRead = keep == 0 && kept > 0 ? nextRead * 2 : blockSize
    return keep
  }
}

/// Where a ``DocumentWindow`` reads its blocks.
protocol BlockSource: AnyObject {
  /// Up to `count` more bytes; empty at the end.
  func read(upTo count: Int) throws(JournalImportError) -> [UInt8]
}

/// A file's blocks, read with ``FileInput``.
final class FileBlocks: BlockSource {
  private let file: FileInput

  init(_ file: consuming FileInput) { self.file = file }

  func read(upTo count: Int) throws(JournalImportError) -> [UInt8] { try file.read(upTo: count) }
}

/// A parser over a ``DocumentWindow``: a step that runs past the window's end before the
/// document's is run again after a refill, so that the steps read the document as one buffer.
/// A step's failure is the import's error, its byte offset counted from the document's start.
struct WindowedParser {
  let window: DocumentWindow
  var parser: JSONParser

  init(_ window: DocumentWindow, limits: JSONParser.Limits) {
    self.window = window
    parser = JSONParser(bytes: window.bytes, limits: limits)
  }

  /// Runs `body` on the parser, from where it is, until the window holds what it reads.
  mutating func step<Result>(
    _ body: (inout JSONParser) throws(JSONParser.Failure) -> Result
  ) throws(JournalImportError) -> Result {
    while true {
      let saved = parser
      do throws(JSONParser.Failure) {
        return try body(&parser)
      } catch {
        // Every other failure is one the whole document has at the same place: the parser
        // decides from the bytes before it.
        guard error.problem == .unexpectedEnd, !window.atEnd else {
          throw JournalImportError(error, byteOffset: window.base)
        }
        parser = saved
        try refill()
      }
    }
  }

  /// Reads the value at the parser's position onto `tape` and returns where it started, or
  /// `nil` (the parser where it was) when the tape does not take it.
  mutating func readTape(_ tape: JSONTape) throws(JournalImportError) -> Int? {
    while true {
      let start = parser.position
      do throws(JSONParser.Failure) {
        try tape.read(&parser)
        return start
      } catch {
        guard error.problem == .unexpectedEnd, !window.atEnd else { return nil }
        try refill()
      }
    }
  }

  /// Whether the next value (after whitespace) begins with `byte`.
  mutating func peek(_ byte: UInt8) throws(JournalImportError) -> Bool {
    try step { parser throws(JSONParser.Failure) in
      parser.skipWhitespace()
      guard parser.position < parser.bytes.count else { throw parser.failure(.unexpectedEnd) }
      return parser.bytes[parser.position] == byte
    }
  }

  /// Checks that only whitespace follows, to the end of the document.
  mutating func finish() throws(JournalImportError) {
    while true {
      parser.skipWhitespace()
      if parser.position == parser.bytes.count && !window.atEnd {
        try refill()
        continue
      }
      do throws(JSONParser.Failure) {
        try parser.finish()
        return
      } catch {
        throw JournalImportError(error, byteOffset: window.base)
      }
    }
  }

  /// Drops what the parser has read and appends the next block.
  private mutating func refill() throws(JournalImportError) {
    let dropped = try window.refill(keepingFrom: parser.position)
    parser.rebase(onto: window.bytes, dropped: dropped)
  }
}
