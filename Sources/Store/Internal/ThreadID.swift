#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Android)
  import Android
#endif

/// Identifies the calling thread, so the store can tell a re-entrant `send` (from a middleware,
/// reducer, subscriber or effect running on the thread that is processing) from a concurrent one.
@usableFromInline
enum ThreadID {
  /// A non-zero number unique among running threads. Reading it is a register load, which is
  /// why the hot path uses it rather than a thread-local or a task-local.
  @inlinable
  static var current: UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #elseif canImport(Glibc)
      UInt(pthread_self())
    #else
      UInt(bitPattern: Int(bitPattern: pthread_self()))
    #endif
  }
}
