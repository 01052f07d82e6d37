import Foundation
import Testing

@testable import ChronicleTracer

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Monotonic clock")
struct MonotonicClockTests {
  @Test func readingsFollowTheSystemMonotonicClock() {
    // Each reading must fall between two system readings taken around it, give or take the
    // calibration's error over the time since it was measured (well under 50 µs here).
    for _ in 0..<1_000 {
      let before = MonotonicClock.systemNow()
      let reading = MonotonicClock.now()
      let after = MonotonicClock.systemNow()
      #expect(reading >= before - 50_000)
      #expect(reading <= after + 50_000)
    }
  }

  @Test func readingsNeverGoBackOnAThreadAndAdvanceWithTime() {
    var previous = MonotonicClock.now()
    let start = previous
    for _ in 0..<100_000 {
      let reading = MonotonicClock.now()
      #expect(reading >= previous)
      previous = reading
    }
    let systemStart = MonotonicClock.systemNow()
    while MonotonicClock.systemNow() - systemStart < 1_000_000 {}
    #expect(MonotonicClock.now() - start >= 1_000_000)
  }

  @Test func calibrationUsesTheCycleCounterWhereTheKernelTrustsIt() {
    let calibration = MonotonicClock.calibration
    #if os(Linux) && arch(x86_64)
      let source =
        (try? String(
          contentsOfFile: "/sys/devices/system/clocksource/clocksource0/current_clocksource", encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines)
      #expect((calibration.nanosecondsPerTick > 0) == (source == "tsc"))
    #endif
    if calibration.nanosecondsPerTick > 0 {
      // A cycle counter runs between 10 MHz and 100 GHz.
      #expect(calibration.nanosecondsPerTick > 0.01 && calibration.nanosecondsPerTick < 100)
    }
  }
}
