import CChronicleTicks

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Nanoseconds from a monotonic clock: the tracer's timeline.
///
/// The tracer reads the time twice per action (before and after the rest of the chain), so the
/// read is the largest part of recording. `ContinuousClock.now` costs about 65 ns on Linux (it
/// reads `CLOCK_BOOTTIME`) and `clock_gettime(CLOCK_MONOTONIC)` about 28 ns; the CPU's invariant
/// cycle counter (x86 TSC, ARM64 `CNTVCT_EL0`) about 11 ns. So on Linux, where the kernel itself
/// keeps time with that counter, readings are ticks converted to `CLOCK_MONOTONIC` nanoseconds
/// with a rate measured once per process (over 2 ms, when the first journal is made). Elsewhere,
/// or when the kernel does not trust the counter (its clock source is not `tsc` on x86), the
/// system clock is read directly.
@usableFromInline
enum MonotonicClock {
  /// How to turn ticks into nanoseconds.
  @usableFromInline
  struct Calibration: Sendable {
    /// A tick reading, and `CLOCK_MONOTONIC` at that moment.
    @usableFromInline let ticks: UInt64
    @usableFromInline let nanoseconds: Int64
    /// Nanoseconds per tick; 0 when the system clock is read instead.
    @usableFromInline let nanosecondsPerTick: Double
  }

  @usableFromInline static let calibration = measureCalibration()

  @inlinable
  static func now() -> Int64 {
    let calibration = self.calibration
    guard calibration.nanosecondsPerTick > 0 else { return systemNow() }
    // Signed: a reading on another core may be a few ticks behind the calibration's.
    let elapsed = Int64(bitPattern: chronicle_ticks() &- calibration.ticks)
    return calibration.nanoseconds &+ Int64(Double(elapsed) * calibration.nanosecondsPerTick)
  }

  /// The system's monotonic clock, in nanoseconds.
  @inlinable
  static func systemNow() -> Int64 {
    #if canImport(Darwin)
      return Int64(clock_gettime_nsec_np(CLOCK_UPTIME_RAW))
    #else
      var time = timespec()
      clock_gettime(CLOCK_MONOTONIC, &time)
      return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    #endif
  }

  /// Measures the tick rate against the system clock, or returns a calibration that reads the
  /// system clock when ticks cannot be trusted.
  static func measureCalibration() -> Calibration {
    let system = Calibration(ticks: 0, nanoseconds: 0, nanosecondsPerTick: 0)
    guard ticksAreTrusted() else { return system }
    let start = simultaneousReading()
    var end = simultaneousReading()
    while end.nanoseconds &- start.nanoseconds < 2_000_000 { end = simultaneousReading() }
    let ticks = Int64(bitPattern: end.ticks &- start.ticks)
    guard ticks > 0 else { return system }
    let rate = Double(end.nanoseconds &- start.nanoseconds) / Double(ticks)
    // A rate outside 10 MHz ... 100 GHz is not a cycle counter.
    guard rate > 0.01, rate < 100 else { return system }
    return Calibration(ticks: end.ticks, nanoseconds: end.nanoseconds, nanosecondsPerTick: rate)
  }

  /// A tick reading and the system clock at the same moment: the tick between two clock readings
  /// that are closest together of five tries, paired with their midpoint (within ~10 ns).
  static func simultaneousReading() -> (ticks: UInt64, nanoseconds: Int64) {
    var best: (ticks: UInt64, nanoseconds: Int64, spread: Int64) = (0, 0, .max)
    for _ in 0..<5 {
      let before = systemNow()
      let ticks = chronicle_ticks()
      let after = systemNow()
      if after &- before < best.spread { best = (ticks, before &+ (after &- before) / 2, after &- before) }
    }
    return (best.ticks, best.nanoseconds)
  }

  /// Whether the cycle counter is a clock: on Linux the kernel's choice of clock source says so
  /// (it rejects an unstable TSC); on ARM64 the virtual counter always is one.
  static func ticksAreTrusted() -> Bool {
    #if os(Linux) && (arch(x86_64) || arch(i386))
      guard let file = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r") else {
        return false
      }
      defer { fclose(file) }
      var buffer = [CChar](repeating: 0, count: 32)
      guard fgets(&buffer, Int32(buffer.count), file) != nil else { return false }
      let end = buffer.firstIndex(of: 0) ?? buffer.count
      let name = String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      return name.trimmingNewline == "tsc"
    #elseif os(Linux) && arch(arm64)
      return chronicle_ticks_available() != 0
    #else
      return false
    #endif
  }
}

extension String {
  fileprivate var trimmingNewline: Substring {
    var text = self[...]
    while let last = text.last, last == "\n" || last == " " { text = text.dropLast() }
    return text
  }
}
