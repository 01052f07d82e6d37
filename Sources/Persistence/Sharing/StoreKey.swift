import ChronicleStore

/// A typed name for a store shared through a ``StoreRegistry``.
///
/// ```swift
/// extension StoreKey where State == Session.State, Action == Session.Action {
///   static let session = StoreKey("session")
/// }
/// ```
public struct StoreKey<State: Sendable, Action: Sendable>: Hashable, Sendable, CustomStringConvertible {
  /// The key's name; together with the State and Action types it identifies the store.
  public let name: String

  /// Creates a key.
  public init(_ name: String) { self.name = name }

  public var description: String { name }

  var erased: ErasedStoreKey {
    ErasedStoreKey(name: name, types: ObjectIdentifier(Store<State, Action>.self))
  }
}

struct ErasedStoreKey: Hashable, Sendable {
  let name: String
  let types: ObjectIdentifier
}
