// A child process for StoreTests' LeakSanitizer test: a store runs an effect, then the process
// exits, with the store still alive (`alive`, a global as in an app) or released before (`released`).
//
// Usage: LeakProbe alive|released
//
// An effect's `send` holds the store weakly, and a weak reference gives the store a side table
// in the Swift runtime, which the store frees when it is released. While the store lives, the
// only pointer to that table is kept encoded in the store's reference count, where LeakSanitizer
// cannot see it: at exit it reports the 32 bytes of a live store's table as leaked.
import ChronicleStore
import Foundation

struct Loader: Reducer {
  enum Action: Equatable, Sendable { case load, loaded }

  func reduce(into state: inout Int, action: Action) -> Effect<Action> {
    switch action {
    case .load: return .run { send in await send(.loaded) }
    case .loaded:
      state += 1
      return .none
    }
  }
}

let arguments = CommandLine.arguments
guard arguments.count == 2, ["alive", "released"].contains(arguments[1]) else {
  FileHandle.standardError.write(Data("usage: LeakProbe alive|released\n".utf8))
  exit(2)
}

/// Runs the effect in a store; returns the store when it is to stay alive until exit.
func run(keeping: Bool) async -> Store<Int, Loader.Action>? {
  let store = Store(initialState: 0, reducer: Loader())
  store.send(.load)
  await store.waitUntilIdle()
  print(store.state)
  return keeping ? store : nil
}

let kept = await run(keeping: arguments[1] == "alive")
withExtendedLifetime(kept) {}
exit(0)
