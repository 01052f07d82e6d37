/// What a ``Journal`` reports when it cannot keep within ``Journal/Configuration/maxBytes``: a
/// state alone is larger than the cap (see ``Journal/byteCapOverrun``).
public struct ByteCapOverrun: Sendable, Hashable {
  /// The index of the checkpoint whose state was found larger than the cap: the journal's first
  /// entry from then on.
  public let index: Int
  /// That state's size, as the journal counts it (``Journal/Configuration/stateSize``, or its
  /// own estimate).
  public let stateBytes: Int
  /// The cap.
  public let maxBytes: Int

  /// Creates a report.
  public init(index: Int, stateBytes: Int, maxBytes: Int) {
    self.index = index
    self.stateBytes = stateBytes
    self.maxBytes = maxBytes
  }
}
