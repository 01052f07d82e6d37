/// One running effect instance: a `.run` operation or a concatenation, each with its own task.
///
/// `@unchecked Sendable`: `isCancelled` and `task` are read and written only while holding the
/// owning store's lock (on the thread that is processing); everything else is immutable.
@usableFromInline
final class EffectRecord: @unchecked Sendable {
  let serial: UInt64
  /// Cancellation ids that apply, innermost first.
  let ids: [EffectID]
  /// The concatenation this effect runs in, if any; cancelling it cancels this one.
  let parent: EffectRecord?
  /// The cause given to every action the effect sends.
  let cause: Cause
  /// The context label its actions inherit.
  let context: String?
  /// Where the effect was created: the effect site of the actions it sends.
  let site: CallSite?
  @usableFromInline var isCancelled = false
  var task: Task<Void, Never>?

  init(
    serial: UInt64, ids: [EffectID], parent: EffectRecord?, cause: Cause, context: String?, site: CallSite?
  ) {
    self.serial = serial
    self.ids = ids
    self.parent = parent
    self.cause = cause
    self.context = context
    self.site = site
  }

  /// Whether this effect or a concatenation it runs in was cancelled.
  @usableFromInline
  var isCancelledInChain: Bool {
    var record: EffectRecord? = self
    while let current = record {
      if current.isCancelled { return true }
      record = current.parent
    }
    return false
  }
}
