import ChronicleStore

/// What an entry keeps of its action's cause: the kind as its code (``CauseKindCodes``), the
/// parent and effect with 0 for none, and the label, which the journal interns under its lock.
@usableFromInline
struct RecordedCause {
  @usableFromInline let kind: UInt16
  @usableFromInline let parent: UInt64
  @usableFromInline let effect: UInt64
  @usableFromInline let label: String?

  @inlinable
  init(kind: UInt16, parent: UInt64?, effect: UInt64?, label: String?) {
    self.kind = kind
    self.parent = parent ?? 0
    self.effect = effect ?? 0
    self.label = label
  }

  /// The cause of the action `context` is handling. A cause without a label whose kind is the
  /// user's or an effect's (most actions) is recognized by its representation
  /// (`MiddlewareContext.causeWords`), without copying its strings: a retain and
  /// a release each, on every action. Any other is copied and its kind looked up.
  @inlinable @inline(__always)
  init<State, Action>(of context: MiddlewareContext<State, Action>) {
    if let words = context.causeWords, words.label == Self.noLabel, let kind = Self.fixedCode(words.kind) {
      let (parent, effect) = context.causeParentAndEffect
      self.init(kind: kind, parent: parent, effect: effect, label: nil)
    } else {
      let cause = context.cause
      self.init(kind: cause.kind.code, parent: cause.parent, effect: cause.effect, label: cause.label)
    }
  }

  /// The code of the kind whose representation is `words`, for the two kinds most actions have;
  /// `nil` for any other.
  @inlinable @inline(__always)
  static func fixedCode(_ words: (UInt, UInt)) -> UInt16? {
    if words == unsafeBitCast(Cause.Kind.user, to: (UInt, UInt).self) { return 0 }
    if words == unsafeBitCast(Cause.Kind.effect, to: (UInt, UInt).self) { return 1 }
    return nil
  }

  /// The representation of a missing label.
  @inlinable static var noLabel: (UInt, UInt) { unsafeBitCast(String?.none, to: (UInt, UInt).self) }
}
