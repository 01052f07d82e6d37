import ChronicleStore
import ChronicleTestSupport
import Foundation
import Observation
import Synchronization
import Testing

/// A feature with two independent fields, a child feature and a member that is not `Equatable`.
enum Panel {
  struct Child: Equatable, Sendable { var count = 0 }
  struct Tag: Sendable { var text = "" }

  struct State: Equatable, Sendable {
    var count = 0
    var title = ""
    var child = Child()
    var tag = Tag()

    static func == (lhs: State, rhs: State) -> Bool {
      lhs.count == rhs.count && lhs.title == rhs.title && lhs.child == rhs.child
    }
  }

  enum Action: Equatable, Sendable {
    case increment
    case rename(String)
    case child(ChildAction)
  }

  enum ChildAction: Equatable, Sendable { case increment }

  static func store() -> Store<State, Action> {
    Store(initialState: State()) { state, action in
      switch action {
      case .increment: state.count += 1
      case .rename(let title): state.title = title
      case .child(.increment): state.child.count += 1
      }
      return .none
    }
  }
}

/// Whether `onChange` of a `withObservationTracking` around `read` has fired.
final class Invalidation: Sendable {
  private let fired = Atomic<Int>(0)
  var count: Int { fired.load(ordering: .relaxed) }

  init(_ read: () -> Void) {
    withObservationTracking(read) { [fired] in fired.add(1, ordering: .relaxed) }
  }
}

@Suite struct MemberObservationTests {
  @Test func readingAMemberIsNotInvalidatedByAChangeToAnotherField() {
    let store = Panel.store()
    let invalidation = Invalidation { _ = store.count }
    store.send(.rename("new"))
    #expect(invalidation.count == 0)
  }

  @Test func readingAMemberIsInvalidatedByAChangeToIt() {
    let store = Panel.store()
    let invalidation = Invalidation { _ = store.count }
    store.send(.increment)
    #expect(invalidation.count == 1)
  }

  @Test func aMemberReadsTheCurrentValue() {
    let store = Panel.store()
    store.send(.increment)
    #expect(store.count == 1)
    #expect(store.child.count == 0)
  }

  @Test func readingTheWholeStateIsInvalidatedByAnyChange() {
    let store = Panel.store()
    let invalidation = Invalidation { _ = store.state.count }
    store.send(.rename("new"))
    #expect(invalidation.count == 1)
  }

  @Test func aMemberThatIsNotEquatableIsInvalidatedByAnyAction() {
    let store = Panel.store()
    let invalidation = Invalidation { _ = store.tag }
    store.send(.rename("new"))
    #expect(invalidation.count == 1)
  }

  @Test func aScopedMemberIsNotInvalidatedByAChangeOutsideIt() {
    let store = Panel.store()
    let child = store.scope(state: \.child, action: Panel.Action.child)
    let invalidation = Invalidation { _ = child.count }
    store.send(.increment)
    store.send(.rename("new"))
    #expect(invalidation.count == 0)
  }

  @Test func aScopedMemberIsInvalidatedByAChangeToIt() {
    let store = Panel.store()
    let child = store.scope(state: \.child, action: Panel.Action.child)
    let invalidation = Invalidation { _ = child.count }
    child.send(.increment)
    #expect(invalidation.count == 1)
    #expect(child.count == 1)
  }

  @Test func aScopedStoresWholeStateIsInvalidatedByAnyChange() {
    let store = Panel.store()
    let child = store.scope(state: \.child, action: Panel.Action.child)
    let invalidation = Invalidation { _ = child.state }
    store.send(.rename("new"))
    #expect(invalidation.count == 1)
  }

  @Test func replacingTheStateInvalidatesOnlyTheMembersItChanges() {
    let store = Panel.store()
    let count = Invalidation { _ = store.count }
    let title = Invalidation { _ = store.title }
    store.replaceState(Panel.State(count: 0, title: "new"))
    #expect(count.count == 0)
    #expect(title.count == 1)
  }

  @Test func sendsFromEightThreadsWhileMembersAreObservedLoseNoActionAndKeepReporting() {
    let store = Panel.store()
    let armed = Atomic<Int>(0)
    let fired = Atomic<Int>(0)
    @Sendable func arm() {
      armed.add(1, ordering: .relaxed)
      withObservationTracking {
        _ = store.count
      } onChange: {
        fired.add(1, ordering: .relaxed)
      }
    }
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for index in 0..<500 {
        if index.isMultiple(of: 50) { arm() }
        store.send(index.isMultiple(of: 2) ? .increment : .rename("\(thread)-\(index)"))
        _ = store.title
      }
    }
    // Every tracking was armed before an increment of its own thread followed: each fired once.
    #expect(store.count == 2000)
    #expect(fired.load(ordering: .relaxed) == armed.load(ordering: .relaxed))
    let after = Invalidation { _ = store.count }
    store.send(.rename("last"))
    #expect(after.count == 0)
    store.send(.increment)
    #expect(after.count == 1)
  }
}
