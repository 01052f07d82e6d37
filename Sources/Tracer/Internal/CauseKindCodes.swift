import ChronicleLocks
import ChronicleStore

/// The two-byte codes under which entries and events store their cause's kind.
///
/// `Cause.Kind` is an open set of names, but an entry keeps no heap reference of its own: the
/// kinds the toolkit declares have fixed codes, compared rather than hashed on the tracer's hot
/// path; any other kind (an app's own, or one read from a file) gets the next free code the first
/// time the process meets it, for the rest of the process.
@usableFromInline
enum CauseKindCodes {
  /// The kinds with fixed codes, in code order.
  static let fixed = ["user", "effect", "middleware", "thunk", "timer", "stream", "replay", "inspector"]

  /// The code of the kinds met after the table filled up (65,529 other kinds), read back as
  /// ``overflowKind``.
  static let overflow = UInt16.max

  /// The kind an entry reads back when its kind arrived after the table filled up.
  static let overflowKind = Cause.Kind("unknown")

  /// Kinds other than the fixed ones, by code minus `fixed.count`, and their codes by name.
  private static let others = SanitizerVisibleMutex<(names: [String], codes: [String: UInt16])>(([], [:]))

  /// The code of `kind`, assigning one if it has none yet.
  @usableFromInline
  static func code(forOther kind: Cause.Kind) -> UInt16 {
    others.withLock { table in
      if let code = table.codes[kind.rawValue] { return code }
      guard fixed.count + table.names.count < Int(overflow) else { return overflow }
      let code = UInt16(fixed.count + table.names.count)
      table.names.append(kind.rawValue)
      table.codes[kind.rawValue] = code
      return code
    }
  }

  /// The kind stored under `code`.
  static func kind(for code: UInt16) -> Cause.Kind {
    if code < fixed.count { return Cause.Kind(fixed[Int(code)]) }
    if code == overflow { return overflowKind }
    return others.withLock { table in
      let index = Int(code) - fixed.count
      return index < table.names.count ? Cause.Kind(table.names[index]) : overflowKind
    }
  }
}

extension Cause.Kind {
  // Inlinable: the tracer stores the kind on every action. The fixed kinds are spelled out so
  // that the hot path neither looks them up nor hashes the name.
  /// The kind as entries store it.
  @inlinable
  var code: UInt16 {
    switch rawValue {
    case "user": 0
    case "effect": 1
    case "middleware": 2
    case "thunk": 3
    case "timer": 4
    case "stream": 5
    case "replay": 6
    case "inspector": 7
    default: CauseKindCodes.code(forOther: self)
    }
  }

  /// The kind stored under `code`.
  init(code: UInt16) {
    self = CauseKindCodes.kind(for: code)
  }
}
