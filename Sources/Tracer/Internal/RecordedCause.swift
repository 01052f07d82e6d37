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

  /// The cause of the action `context` is handling. The user's and an effect's without a label
  /// (most actions) are recognized where the store keeps them
  /// (`MiddlewareContext.causeIsUnlabeled(_:)`), without copying their strings: a retain and a
  /// release each, on every action. Any other cause is copied and its kind's code looked up.
  /// 0 and 1 are the codes `Cause.Kind.code` gives `.user` and `.effect`
  /// (``CauseKindCodes/fixed``).
  @inlinable @inline(__always)
  init<State, Action>(of context: MiddlewareContext<State, Action>) {
    let fixed: UInt16? =
      context.causeIsUnlabeled(.user) ? 0 : context.causeIsUnlabeled(.effect) ? 1 : nil
    if let fixed {
      let (parent, effect) = context.causeParentAndEffect
      self.init(kind: fixed, parent: parent, effect: effect, label: nil)
    } else {
      let cause = context.cause
      self.init(kind: cause.kind.code, parent: cause.parent, effect: cause.effect, label: cause.label)
    }
  }
}
