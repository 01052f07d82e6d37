import ChronicleLocks
import ChronicleStore
import Synchronization

/// Stores that several parts of an app share, looked up by a typed key.
///
/// ```swift
/// StoreRegistry.shared.register(sessionStore, for: .session)
/// StoreRegistry.shared.store(for: .session)?.send(.logout)
/// ```
///
/// Tests replace a registered store for their own duration with
/// ``withOverride(_:for:operation:)``: the override is task-local, so tests running in parallel
/// each see their own store under the same key and never the other's.
public final class StoreRegistry: Sendable {
  /// The registry of the process.
  public static let shared = StoreRegistry()

  private let stores = SanitizerVisibleMutex<[ErasedStoreKey: any Sendable]>([:])

  @TaskLocal static var overrides: [ErasedStoreKey: any Sendable] = [:]

  /// Creates an empty registry.
  public init() {}

  /// Registers `store` under `key`, replacing any store registered there.
  public func register<State, Action>(_ store: Store<State, Action>, for key: StoreKey<State, Action>) {
    stores.withLock { $0[key.erased] = store }
  }

  /// Removes the store registered under `key`; returns it, or `nil` if there was none.
  @discardableResult
  public func unregister<State, Action>(_ key: StoreKey<State, Action>) -> Store<State, Action>? {
    stores.withLock { $0.removeValue(forKey: key.erased) } as? Store<State, Action>
  }

  /// The store under `key`: the current task's override if there is one, else the registered
  /// store, else `nil`.
  public func store<State, Action>(for key: StoreKey<State, Action>) -> Store<State, Action>? {
    if let overridden = Self.overrides[key.erased] { return overridden as? Store<State, Action> }
    return stores.withLock { $0[key.erased] } as? Store<State, Action>
  }

  /// Sends `action` to the store under `key`. Returns `false` if no store is registered there.
  ///
  /// The call site (`fileID`, `line`, `function`: leave the defaults) is the action's
  /// ``/ChronicleStore/ActionMetadata/site``.
  @discardableResult
  public func send<State, Action>(
    _ action: Action, to key: StoreKey<State, Action>, context: String? = nil,
    fileID: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
  )
    -> Bool
  {
    guard let store = store(for: key) else { return false }
    store.send(action, context: context, fileID: fileID, line: line, function: function)
    return true
  }

  /// Runs `operation` with `store` standing in for whatever is registered under `key`, in this
  /// task and the tasks it creates. Other tasks are not affected.
  public func withOverride<State, Action, Result>(
    _ store: Store<State, Action>,
    for key: StoreKey<State, Action>,
    operation: () async throws -> Result
  ) async rethrows -> Result {
    var overrides = Self.overrides
    overrides[key.erased] = store
    return try await Self.$overrides.withValue(overrides, operation: operation)
  }
}
