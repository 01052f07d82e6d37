extension Store {
  /// Feeds the elements of an async sequence into the store as actions, e.g. notifications, a
  /// socket, a file watcher.
  ///
  /// ```swift
  /// let binding = store.bind(prices, id: "prices") { .priceChanged($0) }
  /// ```
  ///
  /// Each action carries a `.stream` cause labelled with `id`. The binding ends when the sequence
  /// ends, when the returned token is cancelled or released, when `cancel(id:)` is called with
  /// `id`, or when the store is released. An error thrown by the sequence ends it and is reported
  /// to middlewares as a failed effect.
  ///
  /// - Parameters:
  ///   - sequence: The source of elements.
  ///   - id: The binding's cancellation id and cause label.
  ///   - context: The context label its actions carry.
  ///   - transform: Turns an element into an action, or `nil` to skip it.
  public func bind<Source: AsyncSequence & Sendable>(
    _ sequence: Source,
    id: String,
    context: String? = nil,
    transform: @escaping @Sendable (Source.Element) -> Action?
  ) -> StoreSubscription {
    let effect = Effect<Action>.run { send in
      for try await element in sequence {
        if let action = transform(element) { await send(action) }
      }
    }
    run(effect.cancellable(id: id), as: .stream, label: id, context: context)
    return StoreSubscription { [weak self] in self?.cancel(id: id) }
  }
}
