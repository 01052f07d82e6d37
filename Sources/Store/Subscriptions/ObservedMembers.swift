import ChronicleLocks
import Observation
import Synchronization

/// What identifies a member read through dynamic member lookup: the path of the scope it was
/// read through (`nil` when read on the store itself) and its key path within that scope.
///
/// `@unchecked Sendable`: key paths are immutable values.
@usableFromInline
struct MemberKey: Hashable, @unchecked Sendable {
  @usableFromInline let scope: AnyKeyPath?
  @usableFromInline let member: AnyKeyPath

  @usableFromInline init(_ member: AnyKeyPath, in scope: AnyKeyPath? = nil) {
    self.scope = scope
    self.member = member
  }
}

/// A member of a store's state that has been read through dynamic member lookup: the key path of
/// the store under which Observation knows it, and how to tell whether it changed.
///
/// `@unchecked Sendable`: both properties are constants; `changed` holds only a key path, an
/// immutable value, or an offset.
@usableFromInline
final class ObservedMember<Owner: AnyObject, State>: @unchecked Sendable {
  /// Registered with the store's registrar when the member is read, reported when it changes.
  // A key path of the store, not of an object per member: a tracking that reads several members
  // then installs its observer with one registrar, not one per member. Observation's one-shot
  // tracking can fire again, or stay installed, when a change arrives while it installs
  // (swiftlang/swift#82774); with one registrar per member that happened in 1 of 15 runs of this
  // suite's 8-thread test, with the store's registrar in 1 of 30.
  @usableFromInline let keyPath: KeyPath<Owner, Void>
  /// Whether the member differs between two states. Always `true` for a member that is not
  /// `Equatable`: it is reported after every action that reaches the reducer.
  @usableFromInline let changed: (State, State) -> Bool

  @usableFromInline init(keyPath: KeyPath<Owner, Void>, changed: @escaping (State, State) -> Bool) {
    self.keyPath = keyPath
    self.changed = changed
  }

  /// Whether the `Equatable` member at `keyPath` differs between two states.
  ///
  /// A member stored in the state's own memory (a stored property of a struct, or of a struct
  /// in it) is read at its offset: applying a key path costs tens of nanoseconds, twice per
  /// action; a read at an offset costs what reading the property does. Other members go through
  /// their key path.
  // Inlinable so that the comparison is specialized for the client's State and Value.
  @inlinable
  static func comparing<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> (State, State) -> Bool {
    guard let offset = MemoryLayout<State>.offset(of: keyPath) else {
      return { $0[keyPath: keyPath] != $1[keyPath: keyPath] }
    }
    return { previous, current in
      withUnsafeBytes(of: previous) { previous in
        withUnsafeBytes(of: current) { current in
          // The state's memory is bound to `State`, and so to the types of its stored
          // properties, at their offsets.
          previous.baseAddress.unsafelyUnwrapped.advanced(by: offset)
            .assumingMemoryBound(to: Value.self).pointee
            != current.baseAddress.unsafelyUnwrapped.advanced(by: offset)
            .assumingMemoryBound(to: Value.self).pointee
        }
      }
    }
  }
}

/// The members of a store's state that have been read through dynamic member lookup: after each
/// action the store reports, one by one, those whose value changed.
///
/// A member stays tracked once read: Observation gives no signal when the last observer of a key
/// path goes away, and comparing a member nobody observes costs one comparison per action.
///
/// `@unchecked Sendable`: `table` guards the members; `owned`, a copy of the list, is only touched
/// by the thread processing the store, under the store's lock.
@usableFromInline
final class ObservedMembers<Owner: AnyObject, State>: @unchecked Sendable {
  private struct Table: Sendable {
    var byKey: [MemberKey: ObservedMember<Owner, State>] = [:]
    var list: [ObservedMember<Owner, State>] = []
  }

  /// Guards the table: readers on any thread add members, the processing thread takes the list.
  private let table = SanitizerVisibleMutex(Table())
  /// How many members the table holds, readable without its lock.
  @usableFromInline let count = Atomic<Int>(0)
  /// The list as the store's owner last took it: the owner takes the lock only when members
  /// were added since.
  @exclusivity(unchecked) private var owned: [ObservedMember<Owner, State>] = []

  @usableFromInline init() {}

  /// Whether any member is tracked, without taking the lock.
  // Inlinable: `reduce` asks on every action of an observed store.
  @inlinable var isTracking: Bool { count.load(ordering: .acquiring) != 0 }

  /// The member for `key`, made the first time by `make` from its position in the table (which
  /// names the key path it is registered under).
  @usableFromInline func member(
    for key: MemberKey, make: (Int) -> ObservedMember<Owner, State>
  ) -> ObservedMember<Owner, State> {
    table.withLock { table in
      if let member = table.byKey[key] { return member }
      let member = make(table.list.count)
      table.byKey[key] = member
      table.list.append(member)
      count.store(table.list.count, ordering: .releasing)
      return member
    }
  }

  /// The tracked members, in the order they were first read. Call as the store's owner.
  @usableFromInline func forOwner() -> [ObservedMember<Owner, State>] {
    if owned.count != count.load(ordering: .acquiring) { owned = table.withLock { $0.list } }
    return owned
  }
}
