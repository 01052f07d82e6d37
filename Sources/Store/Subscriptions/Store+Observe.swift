/// A value remembered between notifications of one observer.
///
/// `@unchecked Sendable`: read and written only by the store's processing thread under its lock,
/// which is also why the dynamic exclusivity check is switched off.
@usableFromInline
final class LastValue<Value>: @unchecked Sendable {
  @exclusivity(unchecked) @usableFromInline var value: Value?

  @usableFromInline init() {}
}

extension Store {
  /// Calls `onChange` with a part of the state, now (if `immediately`) and after every action
  /// that changes it.
  ///
  /// ```swift
  /// let subscription = store.observe(\.count) { count in print("count is", count) }
  /// ```
  ///
  /// `value` is usually a key path literal (`\.count`), which Swift turns into a function; it is
  /// a function rather than a `KeyPath` because applying a `KeyPath` costs more per action (`send/1-observer`).
  /// Callbacks run on the thread that processed the action, in order, one at a time; actions
  /// they send are queued. Observing or cancelling from inside a callback is allowed.
  ///
  /// - Parameters:
  ///   - value: The part of the state to observe.
  ///   - immediately: Call `onChange` with the current value before returning.
  ///   - removeDuplicates: Skip values equal to the last one delivered.
  ///   - onChange: The callback.
  /// - Returns: A token; the subscription ends when it is cancelled or released.
  // Inlinable so the comparison closure is specialized for `Value` in the client.
  @inlinable
  public func observe<Value: Equatable & Sendable>(
    _ value: @escaping @Sendable (State) -> Value,
    immediately: Bool = true,
    removeDuplicates: Bool = true,
    onChange: @escaping @Sendable (Value) -> Void
  ) -> StoreSubscription {
    let last = LastValue<Value>()
    return addObserver(immediately: immediately) { state in
      let current = value(state)
      if removeDuplicates, let previous = last.value, previous == current { return }
      last.value = current
      onChange(current)
    } prime: { state in
      last.value = value(state)
    }
  }

  /// Calls `onChange` with the whole state, now (if `immediately`) and after every action that
  /// reaches the reducer (repeats included, so it works for any state, `Equatable` or not).
  public func observe(
    immediately: Bool = true,
    onChange: @escaping @Sendable (State) -> Void
  ) -> StoreSubscription {
    addObserver(immediately: immediately, notify: onChange)
  }

  /// Every state the store moves to, for every consumer: each `for await` loop gets its own
  /// unbounded buffer, starts with the current state, and sees every later state in order.
  ///
  /// The sequence finishes when the store is released.
  public var states: StateSequence<State> {
    StateSequence { [weak self] continuation in
      guard let self else {
        continuation.finish()
        return nil
      }
      return self.addObserver(immediately: true, notify: { continuation.yield($0) }) {
        continuation.finish()
      }
    }
  }

  /// The distinct values of a part of the state, for every consumer, starting with the current one.
  public func values<Value: Equatable & Sendable>(
    of value: @escaping @Sendable (State) -> Value
  ) -> StateSequence<Value> {
    StateSequence { [weak self] continuation in
      guard let self else {
        continuation.finish()
        return nil
      }
      let last = LastValue<Value>()
      return self.addObserver(
        immediately: true,
        notify: { state in
          let current = value(state)
          if let previous = last.value, previous == current { return }
          last.value = current
          continuation.yield(current)
        },
        finish: { continuation.finish() })
    }
  }

  @usableFromInline
  func addObserver(
    immediately: Bool,
    notify: @escaping @Sendable (State) -> Void,
    prime: (State) -> Void = { _ in },
    finish: (@Sendable () -> Void)? = nil
  ) -> StoreSubscription {
    let observer = StateObserver<State>(notify: notify, finish: finish)
    withProcessing {
      storage.pointee.addObserver(observer)
      if immediately { notify(storage.pointee.state) } else { prime(storage.pointee.state) }
    }
    return StoreSubscription { [weak self] in
      self?.removeObserver(observer)
    }
  }

  private func addObserver(
    immediately: Bool,
    notify: @escaping @Sendable (State) -> Void,
    finish: @escaping @Sendable () -> Void
  ) -> StoreSubscription {
    addObserver(immediately: immediately, notify: notify, prime: { _ in }, finish: finish)
  }

  private func removeObserver(_ observer: StateObserver<State>) {
    withProcessing {
      observer.isActive = false
      if storage.pointee.notifyDepth > 0 {
        storage.pointee.observersNeedCompaction = true
      } else {
        storage.pointee.removeObservers { $0 === observer }
      }
    }
  }

  @usableFromInline
  func compactObservers() {
    storage.pointee.observersNeedCompaction = false
    storage.pointee.removeObservers { !$0.isActive }
  }

  // Inlinable: unspecialized, each call looked up generic metadata twice (`send/1-observer`).
  // Never inlined: it is called from three places in `process`, which is always inlined into
  // `send`, and inlined copies of it made `send/1-observer` slower.
  @inlinable @inline(never)
  func notifyObservers() {
    // No copy of the array (that costs a retain and release per action): observers added by a
    // callback are appended past `count`, and removals wait for the round to end.
    let storage = self.storage
    let count = storage.pointee.observerRefs.count
    let state = storage.pointee.state
    storage.pointee.notifyDepth += 1
    var index = 0
    while index < count {
      // Read anew each time: a callback may add observers, which replaces the array.
      storage.pointee.observerRefs[index]._withUnsafeGuaranteedRef { observer in
        if observer.isActive { observer.notify(state) }
      }
      index += 1
    }
    storage.pointee.notifyDepth -= 1
    if storage.pointee.notifyDepth == 0 && storage.pointee.observersNeedCompaction { compactObservers() }
  }
}
