import ChronicleStore
import Synchronization
import Tracing

/// The spans the tracing middleware still needs: the recent actions' (to link the actions they
/// cause) and the running effects' (to end them and to parent the actions they send).
final class SpanBook: Sendable {
  private struct Effect {
    var span: any Span
    /// The span of the action that started the effect, kept for as long as the effect runs
    /// (the recent actions may have forgotten it).
    var parent: ServiceContext?
  }

  private struct Book {
    var actions: [UInt64: ServiceContext] = [:]
    /// The sequence numbers in `actions`, oldest at `oldest`, used as a ring.
    var order: [UInt64] = []
    var oldest = 0
    var effects: [UInt64: Effect] = [:]
  }

  private let capacity: Int
  private let book = Mutex(Book())

  init(capacity: Int) { self.capacity = max(capacity, 1) }

  func remember(action sequence: UInt64, context: ServiceContext) {
    book.withLock { book in
      if book.order.count < capacity {
        book.order.append(sequence)
      } else {
        book.actions[book.order[book.oldest]] = nil
        book.order[book.oldest] = sequence
        book.oldest = (book.oldest + 1) % capacity
      }
      book.actions[sequence] = context
    }
  }

  func action(_ sequence: UInt64) -> ServiceContext? {
    book.withLock { $0.actions[sequence] }
  }

  /// The parent of an action's span (the running effect that sent it) and the span of the action
  /// that caused it, to link.
  func parent(ofActionCausedBy cause: Cause) -> (parent: ServiceContext?, cause: ServiceContext?) {
    book.withLock { book in
      let effect = cause.effect.flatMap { book.effects[$0] }
      let causing = cause.parent.flatMap { book.actions[$0] } ?? effect?.parent
      return (effect?.span.context, causing)
    }
  }

  func remember(effect serial: UInt64, span: any Span, parent: ServiceContext?) {
    book.withLock { $0.effects[serial] = Effect(span: span, parent: parent) }
  }

  func forget(effect serial: UInt64) -> (any Span)? {
    book.withLock { $0.effects.removeValue(forKey: serial)?.span }
  }
}
