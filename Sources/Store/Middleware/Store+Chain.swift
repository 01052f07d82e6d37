import Foundation

extension Store {
  /// Passes `action` to middleware `index`, whose `next` continues at `index + 1`.
  // Not inlined into `process` (and so into every `send`); `passOn` inlines its body instead.
  @inlinable @inline(never)
  func callMiddleware(_ action: Action, at index: Int) {
    continueChain(action, at: index)
  }

  /// What `callMiddleware` does. Always inlined into `passOn`, so that each middleware's `next`
  /// costs one call, not two.
  @inlinable @inline(__always)
  func continueChain(_ action: Action, at index: Int) {
    if index == handlers.count {
      let effect = reduce(action)
      if !effect.isNone { startReducerEffect(effect, context: storage.pointee.currentContext) }
      return
    }
    let next = MiddlewareNext(store: self, index: index, sequence: storage.pointee.sequence)
    handlers[index]._withUnsafeGuaranteedRef {
      $0.handle(action, MiddlewareContext(store: self, middlewareIndex: index), next)
    }
  }

  /// What `MiddlewareNext` does: continue the chain after middleware `index`, once, and only
  /// for the action it was given for.
  @inlinable
  func passOn(_ action: Action, from index: Int, sequence: UInt64) {
    guard storage.pointee.sequence == sequence else { return }
    if index < 64 {
      let bit: UInt64 = 1 << UInt64(index)
      if storage.pointee.passedLevels & bit != 0 { return }
      storage.pointee.passedLevels |= bit
    } else if !passDeep(index, sequence: sequence) {
      return
    }
    continueChain(action, at: index + 1)
  }

  /// Marks middleware `index` (past the 64th) as having called `next` for the action with
  /// `sequence`; `false` when it already had.
  @usableFromInline
  func passDeep(_ index: Int, sequence: UInt64) -> Bool {
    if storage.pointee.passedDeepLevels.sequence != sequence {
      storage.pointee.passedDeepLevels = (sequence, [])
    }
    return storage.pointee.passedDeepLevels.levels.insert(index).inserted
  }

  /// Metadata of the action being processed; the timestamp is read from the clock once, lazily.
  // Inlinable: unspecialized, each call looked up generic metadata (`tracer/record`).
  @inlinable
  func currentMetadata() -> ActionMetadata {
    let storage = self.storage
    let timestamp: Date
    if let existing = storage.pointee.currentTimestamp {
      timestamp = existing
    } else {
      timestamp = Date()
      storage.pointee.currentTimestamp = timestamp
    }
    return ActionMetadata(
      sequence: storage.pointee.sequence,
      timestamp: timestamp,
      context: storage.pointee.currentContext,
      cause: storage.pointee.currentCause,
      site: capturesCallSites ? storage.pointee.currentSite : nil,
      effectSite: capturesCallSites ? storage.pointee.currentEffectSite : nil
    )
  }
}
