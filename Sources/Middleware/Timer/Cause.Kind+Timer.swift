import ChronicleStore

extension Cause.Kind {
  /// Sent by a timer, debounce or throttle (``TimerMiddleware``, ``DebounceMiddleware``,
  /// ``ThrottleMiddleware``).
  @inlinable public static var timer: Cause.Kind { Cause.Kind("timer") }
}
