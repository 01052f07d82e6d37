import ChronicleJSON
import ChronicleTracer

/// Bounds on what an import accepts, so that a corrupt or hostile file fails with
/// ``JournalImportError/tooLarge(entry:field:limit:)`` or ``JournalImportError/tooDeep(entry:field:limit:)``
/// instead of exhausting memory or the stack.
public struct JournalImportLimits: Sendable, Hashable {
  /// The largest input, in bytes. Default 1 GiB.
  public var maxBytes: Int
  /// The largest NDJSON line, in bytes. Default 64 MiB.
  public var maxLineBytes: Int
  /// The deepest nesting of arrays and objects. Default 128; at most 512, the depth every
  /// parser stops at whatever this says (a larger value acts as 512), so that no import can
  /// exhaust a thread's stack.
  public var maxDepth: Int
  /// The longest string, in UTF-8 bytes. Default 16 MiB.
  public var maxStringBytes: Int
  /// The longest number, in characters. Default 64.
  public var maxNumberLength: Int
  /// The most entries. Default 10,000,000.
  public var maxEntries: Int
  /// Whether values nested deeper than ``maxDepth`` are cut (replaced by a marker) rather than
  /// refused: for the viewer, which shows the library's own exports whatever their depth.
  var cutsTooDeep = false

  /// Creates limits.
  public init(
    maxBytes: Int = 1 << 30, maxLineBytes: Int = 64 << 20, maxDepth: Int = 128,
    maxStringBytes: Int = 16 << 20, maxNumberLength: Int = 64, maxEntries: Int = 10_000_000
  ) {
    self.maxBytes = maxBytes
    self.maxLineBytes = maxLineBytes
    self.maxDepth = maxDepth
    self.maxStringBytes = maxStringBytes
    self.maxNumberLength = maxNumberLength
    self.maxEntries = maxEntries
  }

  /// The defaults.
  public static var `default`: JournalImportLimits { JournalImportLimits() }

  /// For reading the library's own exports back (the viewer): no size limits, and values nested
  /// deeper than the parser's maximum cut with a marker instead of refused.
  static var ownExport: JournalImportLimits {
    var limits = JournalImportLimits(
      maxBytes: .max, maxLineBytes: .max, maxDepth: JSONParser.maxSupportedDepth, maxStringBytes: .max,
      maxNumberLength: .max, maxEntries: .max)
    limits.cutsTooDeep = true
    return limits
  }

  var parser: JSONParser.Limits {
    JSONParser.Limits(
      maxDepth: maxDepth, maxStringBytes: maxStringBytes, maxNumberLength: maxNumberLength,
      cutsTooDeep: cutsTooDeep)
  }
}
