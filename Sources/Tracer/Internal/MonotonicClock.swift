import CChronicleTicks
import Foundation
import Synchronization

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
/// read is the largest part of recording. On Linux `ContinuousClock.now` (it
/// reads `CLOCK_BOOTTIME`) costs more than `clock_gettime(CLOCK_MONOTONIC)`, and that more than
/// the CPU's invariant cycle counter (x86 TSC, ARM64 `CNTVCT_EL0`): `tracer/record`. So on Linux, where the kernel itself
/// keeps time with that counter, readings are ticks converted to `CLOCK_MONOTONIC` nanoseconds.
/// Elsewhere, or when the kernel does not trust the counter (its clock source is not `tsc` on
/// x86), the system clock is read directly.
///
/// The conversion rate is measured over 2 ms when the first journal is made, then refined against
/// the system clock over a baseline that grows fourfold each time (8 ms, 32 ms, ... after the
/// first reading), so that readings stay within about a microsecond of `CLOCK_MONOTONIC` however
/// long the process runs, and never go back.
@usableFromInline
package enum MonotonicClock {
  /// How to turn ticks into nanoseconds: an immutable value, replaced as a whole when refined.
  @usableFromInline
  final class Calibration: Sendable {
    /// The first simultaneous reading: the start of the baseline the rate is measured over.
    let firstTicks: UInt64
    let firstNanoseconds: Int64
    /// A tick reading and the nanoseconds it maps to.
    @usableFromInline let ticks: UInt64
    @usableFromInline let nanoseconds: Int64
    /// Nanoseconds per tick; 0 when the system clock is read instead.
    @usableFromInline let nanosecondsPerTick: Double
    /// The tick reading from which the rate is refined again.
    @usableFromInline let refineAtTicks: UInt64

    init(
      firstTicks: UInt64, firstNanoseconds: Int64, ticks: UInt64, nanoseconds: Int64,
      nanosecondsPerTick: Double, refineAtTicks: UInt64
    ) {
      self.firstTicks = firstTicks
      self.firstNanoseconds = firstNanoseconds
      self.ticks = ticks
      self.nanoseconds = nanoseconds
      self.nanosecondsPerTick = nanosecondsPerTick
      self.refineAtTicks = refineAtTicks
    }

    /// The nanoseconds `ticks` maps to.
    @inlinable @inline(__always)
    func nanoseconds(at ticks: UInt64) -> Int64 {
      // Signed: a reading on another core may be a few ticks behind this calibration's.
      nanoseconds &+ Int64(Double(Int64(bitPattern: ticks &- self.ticks)) * nanosecondsPerTick)
    }
  }

  /// Holds the current calibration, as the bits of an unretained reference; ``kept`` owns it.
  ///
  /// One object for the process, which each journal also holds (``Journal/clock``): the tracer
  /// reads the clock through that reference, without the lazy global's initialization check (a
  /// runtime call per read, two reads per action).
  @usableFromInline
  final class Source: Sendable {
    @usableFromInline let current = Atomic<UInt>(UInt(bitPattern: keep(measure()).toOpaque()))

    /// Nanoseconds now. Always inlined: the optimizer left it (and ``Calibration/nanoseconds(at:)``)
    /// a call of its own in the tracer's specialized path.
    @inlinable @inline(__always)
    func now() -> Int64 {
      let bits = current.load(ordering: .acquiring)
      return Unmanaged<Calibration>.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
        ._withUnsafeGuaranteedRef { calibration in
          guard calibration.nanosecondsPerTick > 0 else { return systemNow() }
          let ticks = chronicle_ticks()
          if ticks >= calibration.refineAtTicks { return refine(calibration, bits: bits) }
          return calibration.nanoseconds(at: ticks)
        }
    }
  }

  /// The process's clock.
  @usableFromInline static let source = Source()

  /// Every calibration made current, never released: a reader may still be using a replaced one.
  /// Refinement replaces one at fourfold intervals, so a process keeps a few dozen at most (about
  /// 20 after a day). Held here rather than leaked so that they stay reachable, and leak checkers
  /// (LeakSanitizer, Valgrind) do not report them.
  /// A ``JournalLock``, not a `Mutex`: two threads may refine at the same moment, and
  /// ThreadSanitizer does not see a `Mutex` order their sections.
  static let kept = JournalLock<[Calibration]>([])

  /// Adds `calibration` to ``kept`` and returns an unretained reference to it.
  private static func keep(_ calibration: Calibration) -> Unmanaged<Calibration> {
    kept.withLock { $0.append(calibration) }
    return Unmanaged.passUnretained(calibration)
  }

  /// Nanoseconds now.
  @inlinable
  package static func now() -> Int64 { source.now() }

  /// The calibration after `calibration`: the rate over the whole baseline so far, anchored at a
  /// fresh simultaneous reading (or where `calibration` maps it, if that is later, so that no
  /// reading goes back). Returns the time now.
  @usableFromInline @inline(never)
  static func refine(_ calibration: Calibration, bits: UInt) -> Int64 {
    let reading = simultaneousReading()
    guard let refined = refined(calibration, at: reading) else {
      return calibration.nanoseconds(at: reading.ticks)
    }
    // Kept before it is published, so that no reader can see it unowned; if another thread
    // refined first, it is kept for nothing, which happens at most once per refinement.
    let refinedBits = UInt(bitPattern: keep(refined).toOpaque())
    _ = source.current.compareExchange(expected: bits, desired: refinedBits, ordering: .acquiringAndReleasing)
    return refined.nanoseconds
  }

  /// `calibration` refined by a simultaneous `reading`: the rate over the whole baseline since its
  /// first reading, anchored at `reading` — or where `calibration` maps it, if that is later, so
  /// that no reading goes back, with the rate lowered until the next refinement so that the
  /// readings meet the system clock there — and refined again after three times the baseline.
  static func refined(
    _ calibration: Calibration, at reading: (ticks: UInt64, nanoseconds: Int64)
  ) -> Calibration? {
    let baseline = Int64(bitPattern: reading.ticks &- calibration.firstTicks)
    guard baseline > 0 else { return nil }
    let rate = Double(reading.nanoseconds &- calibration.firstNanoseconds) / Double(baseline)
    guard rate > 0.01, rate < 100 else { return nil }
    let anchor = max(reading.nanoseconds, calibration.nanoseconds(at: reading.ticks))
    let interval = UInt64(baseline) &* 3
    // Readings ahead of the system clock (a first rate measured too fast) slow down to meet it at
    // the next refinement, rather than keep the lead for the life of the process; at most to half
    // the rate, so that they still advance.
    let lead = Double(anchor &- reading.nanoseconds)
    return Calibration(
      firstTicks: calibration.firstTicks, firstNanoseconds: calibration.firstNanoseconds,
      ticks: reading.ticks, nanoseconds: anchor,
      nanosecondsPerTick: max(rate - lead / Double(interval), rate / 2),
      refineAtTicks: reading.ticks &+ interval)
  }

  /// The current calibration (for tests).
  static var calibration: Calibration {
    // `current` is set only to the bits of a calibration `keep` made, never to zero.
    guard let pointer = UnsafeRawPointer(bitPattern: source.current.load(ordering: .acquiring)) else {
      preconditionFailure("the clock holds no calibration")
    }
    return Unmanaged<Calibration>.fromOpaque(pointer).takeUnretainedValue()
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

  /// Measures the tick rate against the system clock over 2 ms, or returns a calibration that
  /// reads the system clock when ticks cannot be trusted.
  static func measure() -> Calibration {
    let system = Calibration(
      firstTicks: 0, firstNanoseconds: 0, ticks: 0, nanoseconds: 0, nanosecondsPerTick: 0, refineAtTicks: .max
    )
    guard ticksAreTrusted() else { return system }
    let start = simultaneousReading()
    var end = simultaneousReading()
    while end.nanoseconds &- start.nanoseconds < 2_000_000 { end = simultaneousReading() }
    let ticks = Int64(bitPattern: end.ticks &- start.ticks)
    guard ticks > 0 else { return system }
    let rate = Double(end.nanoseconds &- start.nanoseconds) / Double(ticks)
    // A rate outside 10 MHz ... 100 GHz is not a cycle counter.
    guard rate > 0.01, rate < 100 else { return system }
    return Calibration(
      firstTicks: start.ticks, firstNanoseconds: start.nanoseconds, ticks: end.ticks,
      nanoseconds: end.nanoseconds, nanosecondsPerTick: rate, refineAtTicks: end.ticks &+ UInt64(ticks) &* 3)
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
      let source = try? String(
        contentsOfFile: "/sys/devices/system/clocksource/clocksource0/current_clocksource", encoding: .utf8)
      return source?.trimmingCharacters(in: .whitespacesAndNewlines) == "tsc"
    #elseif os(Linux) && arch(arm64)
      return chronicle_ticks_available() != 0
    #else
      return false
    #endif
  }
}
