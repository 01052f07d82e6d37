import Foundation

/// A value printed as one token and compared with its own `==`: the standard library's strings,
/// numbers and `Bool`, and the Foundation values whose mirrors tell nothing useful.
///
/// ``TypeFacts`` finds the conformance once per type; printing or comparing a value then takes no
/// cast, where `String(describing:)` and `as? any Equatable` each cost several casts to protocols.
protocol LeafValue: Equatable, SendableMetatype {
  /// The text printed for the value, as ``ValueDump`` documents it.
  var leafText: String { get }
}

extension LeafValue {
  /// The text printed for `value`, which must be of this type.
  static func text(of value: Any) -> String {
    Reflection.value(value, as: Self.self).leafText
  }

  /// `a == b`, for `a` of this type; `nil` when `b` is of another type.
  static func areEqual(_ a: Any, _ b: Any) -> Bool? {
    let a = Reflection.value(a, as: Self.self)
    if type(of: b) == Self.self { return a == Reflection.value(b, as: Self.self) }
    // A cast also finds a value of this type in an optional or an `AnyHashable`.
    guard let b = b as? Self else { return nil }
    return a == b
  }
}

// Quoted and escaped.

extension String: LeafValue {
  var leafText: String { debugDescription }
}

extension Substring: LeafValue {
  var leafText: String { String(self).debugDescription }
}

extension Character: LeafValue {
  var leafText: String { String(self).debugDescription }
}

// Without parts: printed with their `description`, which is what `String(describing:)` returns for
// them, written directly for the integers.

extension Bool: LeafValue {
  var leafText: String { description }
}

extension Int: LeafValue {
  var leafText: String { decimalText }
}

extension Int8: LeafValue {
  var leafText: String { decimalText }
}

extension Int16: LeafValue {
  var leafText: String { decimalText }
}

extension Int32: LeafValue {
  var leafText: String { decimalText }
}

extension Int64: LeafValue {
  var leafText: String { decimalText }
}

extension Int128: LeafValue {
  var leafText: String { decimalText }
}

extension UInt: LeafValue {
  var leafText: String { decimalText }
}

extension UInt8: LeafValue {
  var leafText: String { decimalText }
}

extension UInt16: LeafValue {
  var leafText: String { decimalText }
}

extension UInt32: LeafValue {
  var leafText: String { decimalText }
}

extension UInt64: LeafValue {
  var leafText: String { decimalText }
}

extension UInt128: LeafValue {
  var leafText: String { decimalText }
}

extension Float: LeafValue {
  var leafText: String { description }
}

extension Double: LeafValue {
  var leafText: String { description }
}

extension FixedWidthInteger {
  /// `description`, written straight into the string: the standard library's conversion goes
  /// through a general radix conversion and costs several times more.
  fileprivate var decimalText: String {
    // 39 digits for the magnitude of an Int128, and a sign; written from the end, on the stack.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { bytes in
      var magnitude = self.magnitude
      var start = bytes.count
      repeat {
        start -= 1
        bytes.initializeElement(at: start, to: UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10))
        magnitude /= 10
      } while magnitude != 0
      if self < 0 {
        start -= 1
        bytes.initializeElement(at: start, to: UInt8(ascii: "-"))
      }
      return String(decoding: UnsafeMutableBufferPointer(rebasing: bytes[start...]), as: UTF8.self)
    }
  }
}

// Foundation values, by what identifies them.

extension Date: LeafValue {
  var leafText: String { "Date(\(formatted(.iso8601WithFractionalSeconds)))" }
}

extension UUID: LeafValue {
  var leafText: String { "UUID(\(uuidString))" }
}

extension URL: LeafValue {
  var leafText: String { "URL(\(absoluteString))" }
}

extension Data: LeafValue {
  var leafText: String { "Data(\(count) \(count == 1 ? "byte" : "bytes"))" }
}

extension Decimal: LeafValue {
  var leafText: String { description }
}

extension FormatStyle where Self == Date.ISO8601FormatStyle {
  /// `2024-05-01T09:30:00.250Z`: a fixed format, unaffected by the locale of the machine.
  fileprivate static var iso8601WithFractionalSeconds: Date.ISO8601FormatStyle {
    Date.ISO8601FormatStyle(includingFractionalSeconds: true)
  }
}
