/// Bounds on what an import accepts, so that a corrupt or hostile file fails with
/// ``JournalImportError/tooLarge(entry:field:limit:)`` or ``JournalImportError/tooDeep(entry:field:limit:)``
/// instead of exhausting memory or the stack.
public struct JournalImportLimits: Sendable, Hashable {
  /// The largest input, in bytes. Default 1 GiB.
  public var maxBytes: Int
  /// The largest NDJSON line, in bytes. Default 64 MiB.
  public var maxLineBytes: Int
  /// The deepest nesting of arrays and objects. Default 128.
  public var maxDepth: Int
  /// The longest string, in UTF-8 bytes. Default 16 MiB.
  public var maxStringBytes: Int
  /// The longest number, in characters. Default 64.
  public var maxNumberLength: Int
  /// The most entries. Default 10,000,000.
  public var maxEntries: Int

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

  var parser: JSONParser.Limits {
    JSONParser.Limits(maxDepth: maxDepth, maxStringBytes: maxStringBytes, maxNumberLength: maxNumberLength)
  }
}
