import ChronicleStore

/// The cancellation id that every timer, pending debounce and throttle window carries besides
/// its own, so that "cancel all timers" is one `cancel(id:)`. Implicit: journals leave it out.
struct TimerGroup: ImplicitEffectID, CustomStringConvertible {
  var description: String { "all timers" }
}

extension Effect {
  /// Tags a timer's effect: cancellable with `id`, and with every other timer of the store.
  func timer(id: EffectID, cancelInFlight: Bool) -> Effect {
    cancellable(id: id, cancelInFlight: cancelInFlight).cancellable(id: TimerGroup())
  }
}
