import Observation
import Synchronization

/// A member of a state that an Observation access was registered for: how to tell whether it
/// changed, and how to register and report it under its own key path.
///
/// `@unchecked Sendable`: every property is a constant; the closures hold key paths, which are
/// immutable values.
@usableFromInline
final class ObservedMember<Subject: AnyObject, State>: @unchecked Sendable {
  /// Whether the member differs between two states. Always `true` for a member that is not
  /// `Equatable`: it is reported on every change of state.
  @usableFromInline let changed: (State, State) -> Bool
  /// Registers an Observation access to the member.
  @usableFromInline let access: (Subject) -> Void
  /// Reports a change of the member (`willSet` then `didSet`).
  @usableFromInline let report: (Subject) -> Void

  init(
    changed: @escaping (State, State) -> Bool, access: @escaping (Subject) -> Void,
    report: @escaping (Subject) -> Void
  ) {
    self.changed = changed
    self.access = access
    self.report = report
  }
}

/// The members of a state that have been read through dynamic member lookup: the ones whose
/// changes are reported to Observation one by one. A member stays tracked once read; only its
/// key path identifies it, so reading it again costs a dictionary look-up.
@usableFromInline
final class ObservedMembers<Subject: AnyObject, State>: Sendable {
  private struct Table {
    var byKeyPath: [AnyKeyPath: ObservedMember<Subject, State>] = [:]
    var list: [ObservedMember<Subject, State>] = []
  }

  /// Guards the table: readers on any thread add members, the processing thread takes the list.
  private let table = SanitizerVisibleMutex(Table())
  private let count = Atomic<Int>(0)

  @usableFromInline init() {}

  /// Whether any member is tracked, without taking the lock.
  @usableFromInline var isTracking: Bool { count.load(ordering: .acquiring) != 0 }

  /// The tracked members, in the order they were first read.
  @usableFromInline var all: [ObservedMember<Subject, State>] { table.withLock { $0.list } }

  /// The member for `keyPath`, made by `make` the first time.
  func member(
    for keyPath: AnyKeyPath, make: () -> ObservedMember<Subject, State>
  ) -> ObservedMember<Subject, State> {
    table.withLock { table in
      if let member = table.byKeyPath[keyPath] { return member }
      let member = make()
      table.byKeyPath[keyPath] = member
      table.list.append(member)
      count.store(table.list.count, ordering: .releasing)
      return member
    }
  }

  /// Reports every tracked member that differs between `previous` and `current` on `subject`.
  func reportChanges(from previous: State, to current: State, on subject: Subject) {
    for member in all where member.changed(previous, current) { member.report(subject) }
  }
}
