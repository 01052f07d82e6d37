import ChronicleStore
import Foundation

/// One journal entry as stored: fixed-size, without heap references of its own.
///
/// Strings and call sites are codes into the journal's tables, times are integer nanoseconds, so
/// an entry of a one-byte action takes 64 bytes (checked by a test). The field order is the layout
/// order: 8-byte fields first, the action last, so a small action packs into the tail padding.
///
/// The wall time is not stored: a recorded entry's is the journal's origin wall time plus
/// ``time``. An imported entry whose wall time says otherwise is flagged ``EntryFlags/wallTimeApart``
/// and its wall time kept in ``JournalContent/wallTimes``.
@usableFromInline
struct EntryRecord<Action> {
  /// The store's sequence number.
  @usableFromInline var sequence: UInt64
  /// Monotonic nanoseconds since the journal's origin, when the tracer received the action.
  @usableFromInline var time: Int64
  /// The sequence number of the cause's parent; 0 when there is none.
  @usableFromInline var parent: UInt64
  /// The serial number of the effect that sent the action; 0 when there is none.
  @usableFromInline var effect: UInt64
  /// Nanoseconds spent in the rest of the chain and the reducer, saturated.
  @usableFromInline var chainNanos: UInt32
  /// Nanoseconds spent in the reducer, saturated; `unknownDuration` without a probe.
  @usableFromInline var reducerNanos: UInt32
  /// Nanoseconds from `time` to the start of the reducer; `unknownDuration` without a probe.
  @usableFromInline var reducerOffsetNanos: UInt32
  /// Code of the context label in the journal's string table.
  @usableFromInline var context: UInt32
  /// Code of the cause's label in the journal's string table.
  @usableFromInline var causeLabel: UInt32
  /// Code of the action's call sites in the journal's ``SiteTable``; 0 when there is none.
  @usableFromInline var site: UInt32
  /// The cause's kind, as its code in ``CauseKindCodes``.
  @usableFromInline var causeKind: UInt16
  @usableFromInline var flags: EntryFlags
  @usableFromInline var action: Action

  @inlinable
  init(
    sequence: UInt64, time: Int64, parent: UInt64, effect: UInt64, chainNanos: UInt32,
    reducerNanos: UInt32, reducerOffsetNanos: UInt32, context: UInt32, causeLabel: UInt32, site: UInt32 = 0,
    causeKind: UInt16, flags: EntryFlags, action: Action
  ) {
    self.sequence = sequence
    self.time = time
    self.site = site
    self.parent = parent
    self.effect = effect
    self.chainNanos = chainNanos
    self.reducerNanos = reducerNanos
    self.reducerOffsetNanos = reducerOffsetNanos
    self.context = context
    self.causeLabel = causeLabel
    self.causeKind = causeKind
    self.flags = flags
    self.action = action
  }

  @inlinable static var unknownDuration: UInt32 { EntryNumbers.unknownDuration }

  /// `nanoseconds` as a stored duration: clamped to 0 ... 2^32 - 2 (about 4.3 s).
  @inlinable
  static func duration(_ nanoseconds: Int64) -> UInt32 {
    UInt32(clamping: min(max(nanoseconds, 0), Int64(UInt32.max - 1)))
  }
}

/// Facts about an entry, one bit each.
@usableFromInline
struct EntryFlags: OptionSet, Sendable {
  @usableFromInline var rawValue: UInt8
  @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }
  /// A later middleware stopped the action: the reducer did not run.
  @inlinable static var stopped: EntryFlags { EntryFlags(rawValue: 1) }
  /// The entry's wall time is not the origin's plus its time: it is in ``JournalContent/wallTimes``.
  @inlinable static var wallTimeApart: EntryFlags { EntryFlags(rawValue: 2) }
}

extension EntryRecord: Sendable where Action: Sendable {}

extension EntryRecord where Action: Sendable {
  /// The entry as ``JournalEntry`` shows it, given what its codes stand for: the one place a
  /// stored entry becomes a public one, for snapshots and exports (``JournalContent/entry(at:)``)
  /// and for sinks (the tracer's hand-off, under the journal's lock).
  ///
  /// - Parameters:
  ///   - index: The entry's position in the journal.
  ///   - wallNanos: Its wall time in nanoseconds since `originWallNanos`.
  ///   - sites: The journal's call sites, which its `site` code is read in.
  @inlinable
  func journalEntry(
    at index: Int, wallNanos: Int64, originWallNanos: Int64, context: String?, cause: Cause,
    sites: SiteTable
  ) -> JournalEntry<Action> {
    let unknown = Self.unknownDuration
    return JournalEntry(
      index: index,
      sequence: sequence,
      wallTime: Date(timeIntervalSince1970: (Double(originWallNanos) + Double(wallNanos)) / 1e9),
      time: .nanoseconds(time),
      context: context,
      cause: cause,
      action: action,
      outcome: flags.contains(.stopped) ? .stopped : .reduced,
      chainDuration: .nanoseconds(Int64(chainNanos)),
      reducerDuration: reducerNanos == unknown ? nil : .nanoseconds(Int64(reducerNanos)),
      reducerOffset: reducerOffsetNanos == unknown ? nil : .nanoseconds(Int64(reducerOffsetNanos)),
      site: sites.site(for: site),
      effectSite: sites.effectSite(for: site)
    )
  }
}
