import Foundation

/// `otlp_receiver.py` (beside this file) run as a child process: an OTLP/HTTP endpoint on
/// 127.0.0.1 that decodes what it receives with the OpenTelemetry project's own protobuf
/// definitions and writes each request as a line of JSON.
final class OTLPReceiver {
  /// Why the receiver cannot run here, or `nil` when it can: it needs python3 with the
  /// `opentelemetry-proto` package.
  static let unavailability: String? = {
    let check = Process()
    check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    check.arguments = ["python3", "-c", "import opentelemetry.proto.collector.trace.v1.trace_service_pb2"]
    check.standardOutput = FileHandle.nullDevice
    check.standardError = FileHandle.nullDevice
    do {
      try check.run()
      check.waitUntilExit()
    } catch {
      return "python3 is not installed (\(error))"
    }
    if check.terminationStatus == 127 { return "python3 is not installed" }
    if check.terminationStatus != 0 {
      return "python3 cannot import opentelemetry-proto: python3 -m pip install opentelemetry-proto"
    }
    return nil
  }()

  private let process = Process()
  private let input = Pipe()
  private let outputFile: URL
  /// The endpoint to point an OTLP/HTTP trace exporter at.
  let endpoint: String

  init() throws {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("otlp_receiver.py")
    outputFile = FileManager.default.temporaryDirectory
      .appendingPathComponent("otlp-\(UUID().uuidString).jsonl")
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, outputFile.path]
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    // Its first line is its port: read up to the line break (a blocking read, which returns as
    // soon as the receiver is listening, or at its end if it could not start).
    var firstLine = Data()
    while !firstLine.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      firstLine.append(chunk)
    }
    let port = String(decoding: firstLine, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard let number = Int(port) else { throw ReceiverError.noPort(port) }
    endpoint = "http://127.0.0.1:\(number)/v1/traces"
  }

  /// Every request received so far, decoded.
  func requests() throws -> [ExportTraceServiceRequest] {
    let text = try String(contentsOf: outputFile, encoding: .utf8)
    return try text.split(separator: "\n").map {
      try JSONDecoder().decode(ExportTraceServiceRequest.self, from: Data($0.utf8))
    }
  }

  /// Ends the receiver: it exits when its standard input closes.
  func stop() {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    try? FileManager.default.removeItem(at: outputFile)
  }

  enum ReceiverError: Error {
    case noPort(String)
  }
}

// The JSON form of the OTLP messages, as google.protobuf.json_format writes them (camelCase names,
// 64-bit integers as strings, bytes in base64), reduced to what the test reads.

struct ExportTraceServiceRequest: Decodable {
  var resourceSpans: [ResourceSpans] = []

  var spans: [OTLPSpan] { resourceSpans.flatMap { $0.scopeSpans ?? [] }.flatMap { $0.spans ?? [] } }
}

struct ResourceSpans: Decodable {
  var scopeSpans: [ScopeSpans]?
}

struct ScopeSpans: Decodable {
  var spans: [OTLPSpan]?
}

struct OTLPSpan: Decodable {
  var traceId: String
  var spanId: String
  var parentSpanId: String?
  var name: String
  var kind: String?
  var attributes: [KeyValue]?
  var links: [OTLPLink]?
  var events: [OTLPEvent]?
  var status: OTLPStatus?

  /// The attributes as text, each value as written in its JSON form.
  var attributeTexts: [String: String] { KeyValue.texts(attributes) }
}

struct OTLPLink: Decodable {
  var traceId: String
  var spanId: String
  var attributes: [KeyValue]?
}

struct OTLPEvent: Decodable {
  var name: String
  var attributes: [KeyValue]?
}

struct OTLPStatus: Decodable {
  var code: String?
  var message: String?
}

struct KeyValue: Decodable {
  var key: String
  var value: AnyValue

  static func texts(_ attributes: [KeyValue]?) -> [String: String] {
    Dictionary((attributes ?? []).map { ($0.key, $0.value.text) }, uniquingKeysWith: { $1 })
  }
}

struct AnyValue: Decodable {
  var stringValue: String?
  var intValue: String?
  var boolValue: Bool?
  var arrayValue: ArrayValue?

  struct ArrayValue: Decodable {
    var values: [AnyValue]?
  }

  var text: String {
    if let stringValue { return stringValue }
    if let intValue { return intValue }
    if let boolValue { return "\(boolValue)" }
    if let arrayValue { return "[" + (arrayValue.values ?? []).map(\.text).joined(separator: ", ") + "]" }
    return "?"
  }
}
