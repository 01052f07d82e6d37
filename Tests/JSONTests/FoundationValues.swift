import Foundation

/// The Foundation values the encoder and decoder tests round-trip, made without force unwraps.
enum FoundationValues {
  /// `https://example.com/a?b=c`, and with the fragment `#d`.
  static let url = webURL("https://example.com/a?b=c")
  static let urlWithFragment = webURL("https://example.com/a?b=c#d")
  /// 12.345, exactly.
  static let decimal = Decimal(sign: .plus, exponent: -3, significand: 12_345)

  private static func webURL(_ text: String) -> URL {
    guard let url = URL(string: text) else { preconditionFailure("not a URL: \(text)") }
    return url
  }
}
