/// One effect lifecycle event as stored: fixed-size, strings as table codes.
@usableFromInline
struct EventRecord: Sendable {
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
  var causeKind: UInt8
  var phase: Phase

  enum Phase: UInt8, Sendable {
    case started, finished, cancelled, failed

    var name: String {
      switch self {
      case .started: "started"
      case .finished: "finished"
      case .cancelled: "cancelled"
      case .failed: "failed"
      }
    }

    init?(name: String) {
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

/// Interned lists of effect ids.
@usableFromInline
struct IDListTable: Sendable {
  private(set) var lists: [[String]] = []
  private var codes: [[String]: UInt32] = [:]
  @usableFromInline var byteCount = 0

  mutating func code(for list: [String]) -> UInt32 {
    if list.isEmpty { return 0 }
    if let code = codes[list] { return code }
    lists.append(list)
    let code = UInt32(lists.count)
    codes[list] = code
    byteCount += list.reduce(16) { $0 + $1.utf8.count + 16 }
    return code
  }

  func list(for code: UInt32) -> [String] {
    code == 0 ? [] : lists[Int(code) - 1]
  }
}
