/// An entry's numbers as the journal stores them: what the formats write of an entry as numbers
/// (a Chrome trace's spans and flows, the viewer's rows), read without building its
/// ``JournalEntry`` (no string, no date, no action).
///
/// Usable from inlinable code: the tracer's recording stores ``unknownDuration``, and
/// ``JournalSnapshot/entryNumbers(at:)`` is inlined in the exporters' loops.
@usableFromInline
package struct EntryNumbers: Sendable {
  /// The duration stored when none was measured (without a probe, or absent from a file).
  @inlinable package static var unknownDuration: UInt32 { .max }

  /// The store's sequence number.
  package var sequence: UInt64
  /// Monotonic nanoseconds since the journal's origin.
  package var time: Int64
  /// Nanoseconds spent in the rest of the chain and the reducer, saturated.
  package var chainNanos: UInt32
  /// Nanoseconds spent in the reducer, saturated; ``unknownDuration`` without a probe.
  package var reducerNanos: UInt32
  /// Nanoseconds from `time` to the start of the reducer; ``unknownDuration`` without a probe.
  package var reducerOffsetNanos: UInt32
  /// The sequence number of the cause's parent; 0 when there is none.
  package var parent: UInt64
  /// The serial number of the effect that sent the action; 0 when there is none.
  package var effect: UInt64

  @usableFromInline
  init(
    sequence: UInt64, time: Int64, chainNanos: UInt32, reducerNanos: UInt32, reducerOffsetNanos: UInt32,
    parent: UInt64, effect: UInt64
  ) {
    self.sequence = sequence
    self.time = time
    self.chainNanos = chainNanos
    self.reducerNanos = reducerNanos
    self.reducerOffsetNanos = reducerOffsetNanos
    self.parent = parent
    self.effect = effect
  }
}
