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

/// A member of a store's state that has been read through dynamic member lookup: how to tell
/// whether it changed, and the signal through which Observation knows it.
///
/// `@unchecked Sendable`: both properties are constants; `changed` holds only key paths, which
/// are immutable values.
@usableFromInline
final class ObservedMember<State>: @unchecked Sendable {
  /// Registered when the member is read, reported when it changes.
  @usableFromInline let signal = MemberSignal()
  /// Whether the member differs between two states. Always `true` for a member that is not
  /// `Equatable`: it is reported after every action that reaches the reducer.
  @usableFromInline let changed: (State, State) -> Bool

  @usableFromInline init(changed: @escaping (State, State) -> Bool) {
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

/// The identity of one tracked member for Observation: an observable object of its own, with one
/// key path.
// Not a key path of the store (`\Store.[member: index]`): the registrar hashes the key path on
// every report, and hashing one with a subscript argument made each action observed through a
// member several times slower than one observed through `state`. This key path is a stored
// property of a non-generic class: formed once by the runtime, hashed as an offset.
@usableFromInline
final class MemberSignal: Observable, Sendable {
  @usableFromInline let registrar = ObservationRegistrar()
  /// The key path under which the member is registered; never read.
  @usableFromInline let member: Void = ()
  /// `\.member`, formed once: a key path literal is looked up by the runtime each time it is
  /// evaluated.
  static let memberKeyPath: KeyPath<MemberSignal, Void> & Sendable = \.member

  @usableFromInline init() {}

  /// Registers an Observation access to the member.
  @usableFromInline func access() {
    registrar.access(self, keyPath: Self.memberKeyPath)
  }

  /// Reports a change of the member.
  @usableFromInline func report() {
    let keyPath = Self.memberKeyPath
    registrar.willSet(self, keyPath: keyPath)
    registrar.didSet(self, keyPath: keyPath)
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
final class ObservedMembers<State>: @unchecked Sendable {
  private struct Table: Sendable {
    var byKey: [MemberKey: ObservedMember<State>] = [:]
    var list: [ObservedMember<State>] = []
  }

  /// Guards the table: readers on any thread add members, the processing thread takes the list.
  private let table = SanitizerVisibleMutex(Table())
  /// How many members the table holds, readable without its lock.
  private let count = Atomic<Int>(0)
  /// The list as the store's owner last took it: the owner takes the lock only when members
  /// were added since.
  @exclusivity(unchecked) private var owned: [ObservedMember<State>] = []

  @usableFromInline init() {}

  /// Whether any member is tracked, without taking the lock.
  @usableFromInline var isTracking: Bool { count.load(ordering: .acquiring) != 0 }

  /// The member for `key`, made by `make` the first time.
  @usableFromInline func member(
    for key: MemberKey, make: () -> ObservedMember<State>
  ) -> ObservedMember<State> {
    table.withLock { table in
      if let member = table.byKey[key] { return member }
      let member = make()
      table.byKey[key] = member
      table.list.append(member)
      count.store(table.list.count, ordering: .releasing)
      return member
    }
  }

  /// The tracked members, in the order they were first read. Call as the store's owner.
  @usableFromInline func forOwner() -> [ObservedMember<State>] {
    if owned.count != count.load(ordering: .acquiring) { owned = table.withLock { $0.list } }
    return owned
  }
}
