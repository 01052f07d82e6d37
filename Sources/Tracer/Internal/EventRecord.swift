/// One effect lifecycle event as stored: fixed-size, strings as table codes.
///
/// Only its ``Phase`` is `package`: the importers read an event's phase by name.
@usableFromInline
package struct EventRecord: Sendable {
  var effect: UInt64
  /// The sequence number of the cause's parent; 0 when there is none.
  var parent: UInt64
  /// Monotonic nanoseconds since the journal's origin.
  var time: Int64
  /// Entries recorded before the event.
  var position: Int64
  var label: UInt32
  /// Code of the id list in the journal's id-list table.
  var ids: UInt32
  /// Code of the failure message in the string table; 0 unless the phase is `failed`.
  var failure: UInt32
  /// The cause's kind, as its code in ``CauseKindCodes``.
  var causeKind: UInt16
  var phase: Phase

  init(
    effect: UInt64, parent: UInt64, time: Int64, position: Int64, label: UInt32, ids: UInt32, failure: UInt32,
    causeKind: UInt16, phase: Phase
  ) {
    self.effect = effect
    self.parent = parent
    self.time = time
    self.position = position
    self.label = label
    self.ids = ids
    self.failure = failure
    self.causeKind = causeKind
    self.phase = phase
  }

  package enum Phase: UInt8, Sendable {
    case started, finished, cancelled, failed

    package var name: String {
      switch self {
      case .started: "started"
      case .finished: "finished"
      case .cancelled: "cancelled"
      case .failed: "failed"
      }
    }

    package init?(name: String) {
      switch name {
      case "started": self = .started
      case "finished": self = .finished
      case "cancelled": self = .cancelled
      case "failed": self = .failed
      default: return nil
      }
    }
  }
}

/// Interned lists of effect ids, freed like ``StringTable``'s strings when the events that refer
/// to them are committed.
@usableFromInline
struct IDListTable: Sendable {
  /// The lists by code - 1; a freed slot holds [].
  private(set) var lists: [[String]] = []
  private var codes: [[String]: UInt32] = [:]
  /// By code - 1: the latest position (entries recorded before the event) of an event referring
  /// to the list, or `Int.min` once freed.
  private var lastUse: [Int] = []
  private var freeCodes: [UInt32] = []
  @usableFromInline var byteCount = 0

  /// The number of lists held.
  var count: Int { codes.count }

  /// The code of `list`, interning it; 0 for the empty list.
  ///
  /// - Parameter position: The position of the event that refers to it; `Int.max` keeps the list
  ///   for the journal's life.
  mutating func code(for list: [String], at position: Int) -> UInt32 {
    if list.isEmpty { return 0 }
    if let code = codes[list] {
      lastUse[Int(code) - 1] = max(lastUse[Int(code) - 1], position)
      return code
    }
    let code: UInt32
    if let reused = freeCodes.popLast() {
      code = reused
      lists[Int(code) - 1] = list
      lastUse[Int(code) - 1] = position
    } else {
      lists.append(list)
      lastUse.append(position)
      code = UInt32(lists.count)
    }
    codes[list] = code
    byteCount += Self.size(of: list)
    return code
  }

  func list(for code: UInt32) -> [String] {
    code == 0 ? [] : lists[Int(code) - 1]
  }

  /// Frees the lists last referred to before `start`, the journal's first remaining position.
  mutating func release(before start: Int) {
    guard !codes.isEmpty else { return }
    for slot in lastUse.indices where lastUse[slot] < start && lastUse[slot] != .min {
      codes[lists[slot]] = nil
      byteCount -= Self.size(of: lists[slot])
      lists[slot] = []
      lastUse[slot] = .min
      freeCodes.append(UInt32(slot + 1))
    }
    if codes.isEmpty {
      self = IDListTable()
    }
  }

  private static func size(of list: [String]) -> Int {
    list.reduce(16) { $0 + $1.utf8.count + 16 }
  }
}
