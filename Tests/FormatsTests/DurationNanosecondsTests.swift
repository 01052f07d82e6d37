import Testing

@testable import ChronicleFormats

/// `nanoseconds(_:)`: the durations and times every entry line writes.
@Suite struct DurationNanosecondsTests {
  @Test func wholeNanosecondsRoundedTowardZeroOnBothSidesOfSixtyFourBitAttoseconds() {
    // 9.223372036854775807 s is the most attoseconds 64 bits hold.
    let cases: [(Duration, Int64)] = [
      (.zero, 0),
      (.nanoseconds(1), 1),
      (.nanoseconds(-1), -1),
      (.init(secondsComponent: 0, attosecondsComponent: 999_999_999), 0),
      (.init(secondsComponent: 0, attosecondsComponent: -999_999_999), 0),
      (.init(secondsComponent: 0, attosecondsComponent: 1_999_999_999), 1),
      (.init(secondsComponent: 9, attosecondsComponent: 223_372_036_854_775_807), 9_223_372_036),
      (.init(secondsComponent: 9, attosecondsComponent: 223_372_036_854_775_808), 9_223_372_036),
      (.init(secondsComponent: -9, attosecondsComponent: -223_372_036_854_775_809), -9_223_372_036),
      (.seconds(10) + .nanoseconds(7), 10_000_000_007),
      (.seconds(-10) - .nanoseconds(7), -10_000_000_007),
      (.seconds(86_400 * 365) + .nanoseconds(123_456_789), 31_536_000_123_456_789),
    ]
    for (duration, expected) in cases {
      #expect(nanoseconds(duration) == expected, "\(duration)")
    }
  }
}
