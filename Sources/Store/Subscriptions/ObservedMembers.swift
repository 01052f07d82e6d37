import Observation
import Synchronization

/// What identifies a member read through dynamic member lookup: the path of the scope it was
/// read through (`nil` when read on the store itself) and its key path within that scope.
///
/// `@unchecked Sendable`: key paths are immutable values.
@usableFromInline
struct MemberKey: Hashable, @unchecked Sendable {
  let scope: AnyKeyPath?
  let member: AnyKeyPath

  init(_ member: AnyKeyPath, in scope: AnyKeyPath? = nil) {
    self.scope = scope
    self.member = member
  }
}

/// A member of a store's state that has been read through dynamic member lookup: the key path of
/// the store under which it is registered with Observation, and how to tell whether it changed.
///
/// `@unchecked Sendable`: both properties are constants; `changed` holds only key paths, which
/// are immutable values.
@usableFromInline
final class ObservedMember<Subject: AnyObject, State>: @unchecked Sendable {
  /// The key path of the subject under which Observation knows the member: registered when the
  /// member is read, reported when it changes.
  let keyPath: KeyPath<Subject, Void>
  /// Whether the member differs between two states. Always `true` for a member that is not
  /// `Equatable`: it is reported after every action that reaches the reducer.
  let changed: (State, State) -> Bool

  init(keyPath: KeyPath<Subject, Void>, changed: @escaping (State, State) -> Bool) {
    self.keyPath = keyPath
    self.changed = changed
  }
}

/// The members of a store's state that have been read through dynamic member lookup: after each
/// action the store reports, one by one, those whose value changed.
///
/// A member stays tracked once read: Observation gives no signal when the last observer of a key
/// path goes away, and comparing a member nobody observes costs one comparison per action.
@usableFromInline
final class ObservedMembers<Subject: AnyObject, State>: Sendable {
  private struct Table: Sendable {
    var byKey: [MemberKey: ObservedMember<Subject, State>] = [:]
    var list: [ObservedMember<Subject, State>] = []
  }

  /// Guards the table: readers on any thread add members, the processing thread takes the list.
  private let table = SanitizerVisibleMutex(Table())
  /// How many members the table holds, readable without its lock.
  private let count = Atomic<Int>(0)

  @usableFromInline init() {}

  /// Whether any member is tracked, without taking the lock.
  @usableFromInline var isTracking: Bool { count.load(ordering: .acquiring) != 0 }

  /// The member for `key`, made the first time from its position in the table (the index of the
  /// key path it is registered under) by `make`.
  func member(
    for key: MemberKey, make: (Int) -> ObservedMember<Subject, State>
  ) -> ObservedMember<Subject, State> {
    table.withLock { table in
      if let member = table.byKey[key] { return member }
      let member = make(table.list.count)
      table.byKey[key] = member
      table.list.append(member)
      count.store(table.list.count, ordering: .releasing)
      return member
    }
  }

  /// The tracked members, in the order they were first read.
  var all: [ObservedMember<Subject, State>] { table.withLock { $0.list } }
}
