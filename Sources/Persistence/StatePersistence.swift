import ChronicleInspection
import ChronicleLocks
import ChronicleStore
import Foundation
import Synchronization

/// Saves a store's `Codable` state to a file after changes and restores it at launch.
///
/// ```swift
/// let persistence = StatePersistence<Todos.State>(key: "todos", directory: supportDirectory)
/// let restored = persistence.restore(default: Todos.State())
/// let store = Store(initialState: restored.state, reducer: Todos())
/// let saving = persistence.attach(to: store)
/// ```
///
/// - Writes are coalesced: after a change, the state is written once `interval` has passed on
///   `clock`, with whatever the state is then; a burst of actions costs one write.
/// - Writes are atomic: a temporary file in the same directory is written, flushed to disk and
///   renamed over the old one, so a crash leaves the old file or the new one, never half of one.
/// - The file name comes from `key` only, so it is the same on every launch.
/// - A corrupt, incompatible or too large file is moved aside (`<key>.json.bad-N`), never
///   overwritten, and ``restore(default:)`` returns the default state with the error.
/// - The file's size and kind are checked before anything is read: a file larger than
///   `maxFileBytes`, a FIFO, a directory or a symbolic link loop gives a typed error at once.
/// - Temporary files left by a process killed mid-write are deleted by the next save or restore.
/// - Sensitive values are kept: the file is the app's own, and a state restored after a restart
///   must equal the state saved. A ``/ChronicleInspection/Redacted`` property is written with its real value (not the
///   `"<redacted>"` every log and export shows) and restored as it was; a ``/ChronicleInspection/SensitiveValue``
///   type is written by its own `encode(to:)`. Protect the file as you would the secrets in it,
///   or keep secrets out of the persisted state (e.g. in the platform's keychain).
public final class StatePersistence<State: Codable & Sendable>: Sendable {
  /// The persisted file format's version; files of other versions are incompatible.
  public static var formatVersion: Int { 1 }

  /// The file the state is saved to.
  public let fileURL: URL
  private let interval: Duration
  private let clock: any Clock<Duration>
  private let typeName: String
  private let maxFileBytes: Int
  private let pending = SanitizerVisibleMutex<(state: State?, scheduled: Bool, lastError: PersistenceError?)>(
    (nil, false, nil))

  /// Creates a persistence for the state saved under `key` in `directory`.
  ///
  /// - Parameters:
  ///   - key: A stable name; letters, digits, `-`, `_` and `.` are kept, other characters become `_`.
  ///   - directory: Where the file lives; created if missing.
  ///   - interval: How long to wait after a change before writing.
  ///   - clock: The clock that measures `interval` (a `TestClock` in tests).
  ///   - typeName: The state type's name recorded in the file and checked on restore; defaults
  ///     to the fully qualified name. Pass a fixed name to keep files valid across a module rename.
  ///   - maxFileBytes: The largest file ``restore(default:)`` reads; a larger one is refused
  ///     before reading. Default 64 MiB.
  public init(
    key: String, directory: URL, coalescing interval: Duration = .milliseconds(500),
    clock: any Clock<Duration> = ContinuousClock(), typeName: String? = nil, maxFileBytes: Int = 64 << 20
  ) {
    let safe = String(key.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" })
    self.fileURL = directory.appendingPathComponent(safe + ".json")
    self.interval = interval
    self.clock = clock
    self.typeName = typeName ?? String(reflecting: State.self)
    self.maxFileBytes = maxFileBytes
  }

  /// The result of ``restore(default:)``.
  public struct Restored: Sendable {
    /// The restored state, or the default.
    public var state: State
    /// Why the file could not be used; `nil` when it was restored or did not exist.
    public var error: PersistenceError?
  }

  /// Reads the saved state. A missing file gives `default` without error; a bad one gives
  /// `default` with the error, after moving the file aside when it is ours to keep (corrupt,
  /// incompatible or too large).
  public func restore(default defaultState: State) -> Restored {
    AtomicFile.removeAbandonedTemporaries(of: fileURL)
    let data: Data
    do {
      switch try AtomicFile.read(fileURL, limit: maxFileBytes) {
      case .missing: return Restored(state: defaultState)
      case .data(let contents): data = contents
      }
    } catch .tooLarge(let bytes, let limit) {
      return Restored(
        state: defaultState,
        error: PersistenceError(
          reason: .tooLarge(bytes: bytes, limit: limit), file: fileURL, keptAt: keepAside()))
    } catch {
      return Restored(state: defaultState, error: PersistenceError(reason: error, file: fileURL))
    }
    do {
      return Restored(state: try decode(data))
    } catch let reason as PersistenceError.Reason {
      return Restored(
        state: defaultState, error: PersistenceError(reason: reason, file: fileURL, keptAt: keepAside()))
    } catch {
      let reason = PersistenceError.Reason.corrupt("\(error)")
      return Restored(
        state: defaultState, error: PersistenceError(reason: reason, file: fileURL, keptAt: keepAside()))
    }
  }

  private struct Envelope: Codable {
    var format: String
    var version: Int
    var type: String
    var state: State
  }

  private struct Header: Decodable {
    var format: String
    var version: Int
    var type: String
  }

  private func decode(_ data: Data) throws -> State {
    let decoder = JSONDecoder()
    decoder.userInfo[.keepsRedactedValues] = true
    let header: Header
    do {
      header = try decoder.decode(Header.self, from: data)
    } catch {
      throw PersistenceError.Reason.corrupt(Self.describe(error))
    }
    let expected = "chronicle.state v\(Self.formatVersion) of \(typeName)"
    let found = "\(header.format) v\(header.version) of \(header.type)"
    guard header.format == "chronicle.state", header.version == Self.formatVersion, header.type == typeName
    else {
      throw PersistenceError.Reason.incompatible(expected: expected, found: found)
    }
    do {
      return try decoder.decode(Envelope.self, from: data).state
    } catch {
      throw PersistenceError.Reason.corrupt(Self.describe(error))
    }
  }

  private static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    func path(_ context: DecodingError.Context) -> String {
      context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
    switch error {
    case .dataCorrupted(let context): return "invalid JSON at \(path(context)): \(context.debugDescription)"
    case .keyNotFound(let key, let context): return "missing \(path(context)).\(key.stringValue)"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      return "wrong type at \(path(context)): \(context.debugDescription)"
    @unknown default: return "\(error)"
    }
  }

  /// Moves the bad file to the first free `<file>.bad-N`.
  private func keepAside() -> URL? {
    var index = 1
    while true {
      let candidate = URL(fileURLWithPath: fileURL.path + ".bad-\(index)")
      if !FileManager.default.fileExists(atPath: candidate.path) {
        return (try? FileManager.default.moveItem(at: fileURL, to: candidate)) == nil ? nil : candidate
      }
      index += 1
    }
  }

  /// Writes `state` now, atomically.
  public func save(_ state: State) throws(PersistenceError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.userInfo[.keepsRedactedValues] = true
    let data: Data
    do {
      data = try encoder.encode(
        Envelope(format: "chronicle.state", version: Self.formatVersion, type: typeName, state: state))
    } catch {
      throw PersistenceError(reason: .io("cannot encode: \(error)"), file: fileURL)
    }
    try AtomicFile.write(data, to: fileURL)
  }

  /// Saves the store's state after it changes, coalesced over `interval`, until the returned
  /// token is cancelled. Saving runs as an effect of the store, so ``/ChronicleStore/Store/waitUntilIdle()``
  /// waits for a pending write, and a store that is released writes its last state first.
  public func attach<Action: Sendable>(to store: Store<State, Action>) -> StoreSubscription {
    store.observe(immediately: false) { [weak store, weak self] state in
      guard let self, let store else { return }
      let schedule = self.pending.withLock { pending in
        pending.state = state
        defer { pending.scheduled = true }
        return !pending.scheduled
      }
      if schedule {
        // The kind ChronicleMiddleware declares as `.timer`: a delayed save is a timer, and
        // persistence does not depend on the middlewares for its name.
        store.run(
          self.writeAfterInterval(), as: Cause.Kind("timer"),
          label: "persist \(self.fileURL.lastPathComponent)")
      }
    }
  }

  private func writeAfterInterval<Action: Sendable>() -> Effect<Action> {
    .run { [self] _ in
      // Cancelled (the store was released): write at once rather than lose the last changes.
      try? await clock.sleep(for: interval)
      flushPending()
    }
  }

  /// Writes the pending state now, if any.
  public func flushPending() {
    guard
      let state = pending.withLock({ pending -> State? in
        defer { (pending.state, pending.scheduled) = (nil, false) }
        return pending.state
      })
    else { return }
    do {
      try save(state)
    } catch {
      pending.withLock { $0.lastError = error }
    }
  }

  /// The error of the last coalesced write that failed, if any.
  public var lastError: PersistenceError? { pending.withLock { $0.lastError } }
}
