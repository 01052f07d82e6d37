import ChronicleStore

extension Store {
  /// Cancels every timer started by the timer middleware, every action held by a debounce
  /// middleware and every throttle window. When this returns, none of their actions reaches the
  /// reducer.
  public func cancelAllTimers() {
    cancel(id: TimerGroup())
  }
}
