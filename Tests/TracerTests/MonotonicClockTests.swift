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

  @Test func theCurrentCalibrationIsHeldByAStaticSoLeakCheckersSeeItReachable() {
    _ = MonotonicClock.now()
    let current = MonotonicClock.calibration
    #expect(MonotonicClock.kept.withLock { kept in kept.contains { $0 === current } })
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

  @Test func refiningMeasuresTheRateOverTheWholeBaselineAndNeverGoesBack() throws {
    // A counter whose true rate is 0.5 ns per tick: nanoseconds = (ticks - 1,000) / 2.
    func truth(_ ticks: UInt64) -> (ticks: UInt64, nanoseconds: Int64) { (ticks, Int64(ticks - 1_000) / 2) }
    // Calibrated with a rate twice too fast: it maps ticks 101,000 to 100,000 ns, not 50,000.
    let fast = MonotonicClock.Calibration(
      firstTicks: 1_000, firstNanoseconds: 0, ticks: 3_000, nanoseconds: 1_000, nanosecondsPerTick: 1.0,
      refineAtTicks: 7_000)
    #expect(fast.nanoseconds(at: 101_000) == 99_000)
    let refined = try #require(MonotonicClock.refined(fast, at: truth(101_000)))
    #expect(refined.nanoseconds == 99_000)  // where `fast` had got to: no going back
    #expect(refined.refineAtTicks == 101_000 + 300_000)
    // The 49,000 ns lead is taken back over the next 300,000 ticks: the rate is lowered from 0.5
    // by 49,000 / 300,000, and the readings meet the system clock at the next refinement.
    #expect(abs(refined.nanosecondsPerTick - (0.5 - 49_000.0 / 300_000.0)) < 1e-12)
    #expect(abs(refined.nanoseconds(at: 401_000) - truth(401_000).nanoseconds) <= 1)
    #expect(refined.nanoseconds(at: 251_000) - truth(251_000).nanoseconds == 24_500)
    // Refined again there, it keeps the true rate.
    let met = try #require(MonotonicClock.refined(refined, at: truth(401_000)))
    #expect(met.nanosecondsPerTick == 0.5)
    #expect(abs(met.nanoseconds - truth(401_000).nanoseconds) <= 1)
    // A lead larger than the interval can take back: the rate is halved, never less.
    let farAhead = MonotonicClock.Calibration(
      firstTicks: 1_000, firstNanoseconds: 0, ticks: 3_000, nanoseconds: 1_000_000, nanosecondsPerTick: 1.0,
      refineAtTicks: 7_000)
    let halved = try #require(MonotonicClock.refined(farAhead, at: truth(101_000)))
    #expect(halved.nanosecondsPerTick == 0.25)
    // Calibrated too slow, it lags: refining moves it forward to the system clock.
    let slow = MonotonicClock.Calibration(
      firstTicks: 1_000, firstNanoseconds: 0, ticks: 3_000, nanoseconds: 1_000, nanosecondsPerTick: 0.25,
      refineAtTicks: 7_000)
    let caughtUp = try #require(MonotonicClock.refined(slow, at: truth(101_000)))
    #expect(caughtUp.nanoseconds == 50_000)
    #expect(caughtUp.nanosecondsPerTick == 0.5)
    // A reading before the baseline began, or a rate that is no counter's, refines nothing.
    #expect(MonotonicClock.refined(slow, at: (ticks: 500, nanoseconds: 0)) == nil)
    #expect(MonotonicClock.refined(slow, at: (ticks: 2_000, nanoseconds: 1_000_000)) == nil)
  }
}
