#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Nanoseconds from a monotonic clock, read directly.
///
/// `ContinuousClock.now` costs about 65 ns on Linux (it reads `CLOCK_BOOTTIME`); `CLOCK_MONOTONIC`
/// costs about 25 ns, and the tracer reads it twice per action.
@usableFromInline
enum MonotonicClock {
  @inlinable
  static func now() -> Int64 {
    #if canImport(Darwin)
      return Int64(clock_gettime_nsec_np(CLOCK_UPTIME_RAW))
    #else
      var time = timespec()
      clock_gettime(CLOCK_MONOTONIC, &time)
      return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    #endif
  }
}
