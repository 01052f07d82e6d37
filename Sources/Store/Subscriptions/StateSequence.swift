/// An async sequence of a store's states (or of a part of them) for one or many consumers.
///
/// Each iterator subscribes on creation with its own unbounded buffer, so every consumer sees
/// every element in order, however slowly it consumes. Iteration ends when the store is
/// released; breaking out of a loop ends that consumer's subscription.
public struct StateSequence<Element: Sendable>: AsyncSequence, Sendable {
  let subscribe: @Sendable (AsyncStream<Element>.Continuation) -> StoreSubscription?

  init(subscribe: @escaping @Sendable (AsyncStream<Element>.Continuation) -> StoreSubscription?) {
    self.subscribe = subscribe
  }

  public func makeAsyncIterator() -> Iterator {
    let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
    let subscription = subscribe(continuation)
    continuation.onTermination = { _ in subscription?.cancel() }
    return Iterator(base: stream.makeAsyncIterator(), subscription: subscription)
  }

  /// Iterates a ``StateSequence``.
  public struct Iterator: AsyncIteratorProtocol {
    var base: AsyncStream<Element>.Iterator
    let subscription: StoreSubscription?

    public mutating func next() async -> Element? {
      await base.next()
    }

    public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
      await base.next(isolation: actor)
    }
  }
}
