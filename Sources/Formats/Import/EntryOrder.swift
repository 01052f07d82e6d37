import ChronicleJSON

/// The order of the entries, checked the same way by every loader: consecutive indices,
/// increasing sequence numbers, times that never go backwards.
@usableFromInline
struct EntryOrder {
  /// The index the next entry must have, once known.
  @usableFromInline private(set) var nextIndex: Int?
  private var previousSequence: UInt64?
  private var previousTime: Int64?

  /// Requires the next entry to have index `index` (the file's `firstIndex`, or a stream's
  /// branch or reset).
  @usableFromInline
  mutating func expect(index: Int) { nextIndex = index }

  /// Checks `fields`, the entry at `ordinal` in the file, against the entries before it.
  @usableFromInline
  func check(
    _ fields: EntryFields, ordinal: Int, path: @autoclosure () -> FieldPath
  ) throws(JournalImportError) {
    if let nextIndex, fields.index != nextIndex {
      let path = path()
      throw .invalidValue(
        entry: ordinal, field: path.appending("index").description,
        reason: "expected index \(nextIndex) after the previous entry, found \(fields.index)")
    }
    if let previousSequence {
      if fields.sequence == previousSequence {
        throw .duplicateSequence(entry: ordinal, sequence: fields.sequence)
      }
      if fields.sequence < previousSequence {
        throw .sequenceOutOfOrder(entry: ordinal, sequence: fields.sequence, previous: previousSequence)
      }
    }
    if let previousTime, fields.time < previousTime {
      let path = path()
      throw .invalidValue(
        entry: ordinal, field: path.appending("time").description,
        reason: "monotonic time goes backwards (\(fields.time) after \(previousTime))")
    }
  }

  /// Records `fields` as the last entry read.
  @usableFromInline
  mutating func accept(_ fields: EntryFields) {
    previousSequence = fields.sequence
    previousTime = fields.time
    nextIndex = fields.index + 1
  }
}
