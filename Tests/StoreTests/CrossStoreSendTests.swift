import ChronicleClocks
import ChronicleStore
import ChronicleTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

/// A store's actions in the cross-store tests: `local` is sent by the test's threads and forwarded
/// to the next store in the ring as `forwarded`, which is not forwarded again.
enum Relay: Equatable, Sendable {
  case local
  case forwarded
}

/// How many of each action a store processed.
struct RelayCounts: Equatable, Sendable {
  var local = 0
  var forwarded = 0
}

/// The next store in a ring, set once every store exists.
final class StoreLink: Sendable {
  private let target = Mutex<Store<RelayCounts, Relay>?>(nil)
  func set(_ store: Store<RelayCounts, Relay>) { target.withLock { $0 = store } }
  var store: Store<RelayCounts, Relay>? { target.withLock { $0 } }
}

/// A store that forwards each `local` action to `link`'s store from its middleware, as apps wire
/// a child store notifying a parent. `inChain` runs inside the chain before forwarding.
func relayStore(
  forwardingTo link: StoreLink, inChain: @escaping @Sendable (Relay) -> Void = { _ in }
) -> Store<RelayCounts, Relay> {
  let forward = AnyMiddleware<RelayCounts, Relay>(name: "forward") { action, _, next in
    inChain(action)
    if action == .local { link.store?.send(.forwarded) }
    next(action)
  }
  return Store(initialState: RelayCounts(), middleware: [forward]) { state, action in
    switch action {
    case .local: state.local += 1
    case .forwarded: state.forwarded += 1
    }
    return .none
  }
}

/// `count` stores, each forwarding to the next, the last to the first.
func relayRing(of count: Int) -> [Store<RelayCounts, Relay>] {
  let links = (0..<count).map { _ in StoreLink() }
  let stores = links.map { relayStore(forwardingTo: $0) }
  for (index, link) in links.enumerated() { link.set(stores[(index + 1) % count]) }
  return stores
}

/// Runs `body(thread)` on `count` threads of their own (not tasks: the cooperative pool has one
/// thread per core, and these tests need more threads than cores) and returns when all are done.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let group = DispatchGroup()
  for index in 0..<count {
    group.enter()
    let thread = Thread {
      body(index)
      group.leave()
    }
    thread.start()
  }
  group.wait()
}

@Suite("Stores that send to each other")
struct CrossStoreSendTests {
  @Test func twoStoresSendingToEachOtherFromInsideTheirChainsAtOnceNeitherWaitsNorLoses() {
    // Each thread is inside its store's chain when it sends to the other store, which the other
    // thread is processing: before stores stopped waiting for each other this deadlocked (on
    // Linux: "Recursive call to lock Mutex").
    let bothInChains = DispatchGroup()
    bothInChains.enter()
    bothInChains.enter()
    let rendezvous: @Sendable (Relay) -> Void = { action in
      guard action == .local else { return }
      bothInChains.leave()
      bothInChains.wait()
    }
    let toB = StoreLink()
    let toA = StoreLink()
    let a = relayStore(forwardingTo: toB, inChain: rendezvous)
    let b = relayStore(forwardingTo: toA, inChain: rendezvous)
    toB.set(b)
    toA.set(a)
    onThreads(2) { index in (index == 0 ? a : b).send(.local) }
    #expect(a.state == RelayCounts(local: 1, forwarded: 1))
    #expect(b.state == RelayCounts(local: 1, forwarded: 1))
  }

  @Test func anActionLeftForABusyStoreIsProcessedByItsOwnerAfterTheCurrentAction() {
    // Thread 0 is inside `b`'s chain when thread 1, inside `a`'s chain, sends to `b`: the send
    // returns without waiting, and thread 0 processes the action once `b`'s own action is done.
    let order = Recorder<String>()
    let bInChain = DispatchSemaphore(value: 0)
    let aSendReturned = DispatchSemaphore(value: 0)
    let toB = StoreLink()
    let a = relayStore(forwardingTo: toB) { _ in bInChain.wait() }
    let b = relayStore(forwardingTo: StoreLink()) { action in
      order.append("b sees \(action)")
      if action == .local {
        bInChain.signal()
        aSendReturned.wait()
      }
    }
    toB.set(b)
    onThreads(2) { index in
      if index == 0 {
        b.send(.local)
      } else {
        a.send(.local)
        order.append("a.send returned")
        aSendReturned.signal()
      }
    }
    #expect(order.values == ["b sees local", "a.send returned", "b sees forwarded"])
    #expect(a.state == RelayCounts(local: 1, forwarded: 0))
    #expect(b.state == RelayCounts(local: 1, forwarded: 1))
  }

  @Test func twoStoresInACycleWithEightThreadsSendingTenThousandEachLoseNothing() {
    let stores = relayRing(of: 2)
    onThreads(8) { index in
      let store = stores[index % 2]
      for _ in 0..<10_000 { store.send(.local) }
    }
    #expect(stores.map(\.state) == Array(repeating: RelayCounts(local: 40_000, forwarded: 40_000), count: 2))
  }

  @Test func threeStoresInACycleWithEightThreadsSendingTenThousandEachLoseNothing() {
    let stores = relayRing(of: 3)
    onThreads(8) { index in
      let store = stores[index % 3]
      for _ in 0..<10_000 { store.send(.local) }
    }
    // Threads 0, 3, 6 send to the first store, 1, 4, 7 to the second, 2 and 5 to the third.
    #expect(stores[0].state == RelayCounts(local: 30_000, forwarded: 20_000))
    #expect(stores[1].state == RelayCounts(local: 30_000, forwarded: 30_000))
    #expect(stores[2].state == RelayCounts(local: 20_000, forwarded: 30_000))
  }
}

@Suite("What still waits across stores")
struct CrossStoreWaitTests {
  @Test func readingABusyStoresStateFromAnotherStoresChainWaitsForItsCurrentAction() {
    let read = Recorder<RelayCounts>()
    let bInChain = DispatchSemaphore(value: 0)
    let b = relayStore(forwardingTo: StoreLink()) { _ in bInChain.signal() }
    let reader = AnyMiddleware<Int, Int>(name: "reader") { action, _, next in
      bInChain.wait()
      read.append(b.state)
      next(action)
    }
    let a = Store(initialState: 0, middleware: [reader]) { (state: inout Int, action: Int) -> Effect<Int> in
      state += action
      return .none
    }
    onThreads(2) { index in
      if index == 0 { b.send(.local) } else { a.send(1) }
    }
    #expect(read.values == [RelayCounts(local: 1, forwarded: 0)])
  }

  @Test func cancellingFromAnotherStoresChainWhileTheStoreIsBusyTakesEffectAfterItsCurrentAction()
    async
  {
    let clock = TestClock()
    let order = Recorder<String>()
    let bInChain = DispatchSemaphore(value: 0)
    let cancelReturned = DispatchSemaphore(value: 0)
    let pause = AnyMiddleware<Int, String>(name: "pause") { action, _, next in
      if action == "pause" {
        bInChain.signal()
        cancelReturned.wait()
      }
      next(action)
      order.append("b processed \(action)")
    }
    let b = Store(initialState: 0, middleware: [pause]) {
      (state: inout Int, action: String) -> Effect<String> in
      guard action == "start" else { return .none }
      return .run { _ in try await clock.sleep(for: .seconds(60)) }.cancellable(id: "work")
    }
    b.send("start")
    #expect(b.pendingEffectCount == 1)
    let canceller = AnyMiddleware<Int, Int>(name: "canceller") { action, _, next in
      bInChain.wait()
      b.cancel(id: "work")
      order.append("cancel returned")
      cancelReturned.signal()
      next(action)
    }
    let a = Store(initialState: 0, middleware: [canceller]) { (_: inout Int, _: Int) -> Effect<Int> in .none }
    onThreads(2) { index in
      if index == 0 { b.send("pause") } else { a.send(1) }
    }
    #expect(order.values == ["b processed start", "cancel returned", "b processed pause"])
    await b.waitUntilIdle()
    #expect(b.pendingEffectCount == 0)
    #expect(b.runningEffectCount == 0)
  }
}
