/// The ranges of the numbers in the journal formats (docs/formats/journal-json.md, "Number
/// ranges"). Every loader — the typed importers and ``JournalFile`` — refuses a number
/// outside its range with ``JournalImportError/numberOutOfRange(entry:field:value:)``, so that
/// nothing computed from an imported journal (a next index, a span's end, a difference of two
/// times, a wall time as a `Date`) can overflow.
enum JournalNumberRange {
  /// The largest entry index, position, sequence number and effect id: 2^53 − 1, the largest
  /// integer a JavaScript number (the viewer's) holds exactly, and far enough from `Int.max` that
  /// a next index or a count never overflows.
  static let maxCount = (1 << 53) - 1
  /// The largest magnitude of a time, monotonic or wall-clock, in nanoseconds: 2^62 − 1 (wall
  /// times from 1823 to 2116), so that the difference of any two times fits in `Int64`.
  static let maxTime: Int64 = (1 << 62) - 1

  static var indices: ClosedRange<Int> { 0...maxCount }
  static var sequences: ClosedRange<UInt64> { 1...UInt64(maxCount) }
  static var times: ClosedRange<Int64> { -maxTime...maxTime }
  /// A call site's line: from 1, and within `UInt32`, as `CallSite` keeps it.
  static var siteLines: ClosedRange<Int> { 1...Int(UInt32.max) }
}
