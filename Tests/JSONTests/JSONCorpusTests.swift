import Foundation
import Testing

@testable import ChronicleJSON

/// The corpus in `Corpus/`: JSON files named for what the parser must do with them, in the manner
/// of JSONTestSuite (`y_` accepted, `n_` refused, `i_` where RFC 8259 leaves the choice to us),
/// each with its expected outcome in `Corpus/manifest.tsv`. Both readers of JSON text, the tree
/// parser and the tape, must give each file the outcome the manifest names: the same error at
/// the same byte offset.
@Suite struct JSONCorpusTests {
  /// The limits every file is read with (the manifest says so too).
  static let limits = JSONParser.Limits(maxDepth: 128, maxStringBytes: 64, maxNumberLength: 64)

  struct Case: CustomTestStringConvertible, Sendable {
    let file: String
    let expectation: String
    var testDescription: String { file }
  }

  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Corpus")

  static let cases: [Case] = {
    guard
      let manifest = try? String(
        contentsOf: directory.appendingPathComponent("manifest.tsv"), encoding: .utf8)
    else { return [] }
    return manifest.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      return Case(file: String(fields[0]), expectation: String(fields[1]))
    }
  }()

  static func describe(_ failure: JSONParser.Failure) -> String {
    let problem =
      switch failure.problem {
      case .unexpectedEnd: "unexpectedEnd"
      case .unexpectedByte(let byte):
        "unexpectedByte(0x\(String(byte, radix: 16, uppercase: true).leftPadded))"
      case .invalidUTF8: "invalidUTF8"
      case .invalidEscape: "invalidEscape"
      case .invalidNumber: "invalidNumber"
      case .duplicateKey(let key): "duplicateKey(\(key))"
      case .trailingData: "trailingData"
      case .tooDeep(let limit): "tooDeep(\(limit))"
      case .stringTooLong(let limit): "stringTooLong(\(limit))"
      case .numberTooLong(let limit): "numberTooLong(\(limit))"
      }
    return "reject \(problem) @\(failure.offset)"
  }

  /// What the tree parser does with `bytes`: `accept`, or the failure.
  static func parsed(_ bytes: [UInt8]) -> String {
    do throws(JSONParser.Failure) {
      _ = try JSONParser.parse(bytes, limits: limits)
      return "accept"
    } catch {
      return describe(error)
    }
  }

  /// What the tape reader does with `bytes`, read as a whole document.
  static func taped(_ bytes: [UInt8]) -> String {
    bytes.withUnsafeBufferPointer { buffer in
      var parser = JSONParser(bytes: buffer, limits: limits)
      let tape = JSONTape()
      do throws(JSONParser.Failure) {
        parser.skipWhitespace()
        try tape.read(&parser)
        try parser.finish()
        return "accept"
      } catch {
        return describe(error)
      }
    }
  }

  /// The bytes of a corpus file, read with read(2): Foundation's `Data(contentsOf:)` leaks its
  /// 4 KiB buffer when the file is empty (LeakSanitizer, Swift 6.3 on Linux), as `n_empty.json` is.
  static func bytes(of file: String) throws -> [UInt8] {
    let path = directory.appendingPathComponent(file).path
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = read(descriptor, &chunk, chunk.count)
      guard count >= 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path]) }
      if count == 0 { return bytes }
      bytes += chunk[..<count]
    }
  }

  @Test func manifestNamesEveryFileOfTheCorpus() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).filter {
      $0.hasSuffix(".json")
    }
    #expect(Set(files) == Set(Self.cases.map(\.file)))
    #expect(Self.cases.count == files.count)
    #expect(Self.cases.allSatisfy { $0.expectation == "accept" || $0.expectation.hasPrefix("reject ") })
    #expect(Self.cases.filter { $0.file.hasPrefix("y_") }.allSatisfy { $0.expectation == "accept" })
    #expect(Self.cases.filter { $0.file.hasPrefix("n_") }.allSatisfy { $0.expectation.hasPrefix("reject ") })
  }

  @Test(arguments: cases) func parserGivesTheManifestsOutcome(_ corpusCase: Case) throws {
    #expect(Self.parsed(try Self.bytes(of: corpusCase.file)) == corpusCase.expectation)
  }

  @Test(arguments: cases) func tapeGivesTheManifestsOutcome(_ corpusCase: Case) throws {
    #expect(Self.taped(try Self.bytes(of: corpusCase.file)) == corpusCase.expectation)
  }

  /// The path of a failure (`[0].a`), as the tree parser and the tape report it.
  static func failurePaths(_ bytes: [UInt8]) -> (parser: String?, tape: String?) {
    var parserPath: String?
    do throws(JSONParser.Failure) {
      _ = try JSONParser.parse(bytes, limits: limits)
    } catch {
      parserPath = error.path.description
    }
    let tapePath: String? = bytes.withUnsafeBufferPointer { buffer in
      var parser = JSONParser(bytes: buffer, limits: limits)
      do throws(JSONParser.Failure) {
        parser.skipWhitespace()
        try JSONTape().read(&parser)
        try parser.finish()
        return nil
      } catch {
        return error.path.description
      }
    }
    return (parserPath, tapePath)
  }

  @Test func tapeAndParserNameTheSamePathForEveryRefusal() throws {
    var refused = 0
    for corpusCase in Self.cases where corpusCase.expectation != "accept" {
      let paths = Self.failurePaths(try Self.bytes(of: corpusCase.file))
      #expect(paths.parser != nil, "\(corpusCase.file)")
      #expect(paths.tape == paths.parser, "\(corpusCase.file)")
      refused += 1
    }
    #expect(refused > 60)
    // Nested places, which the corpus's small files name only a few of.
    let nested = #"{"a":[1,{"b":[true,{"c\u0064":[nul]}]}]}"#
    #expect(Self.failurePaths(Array(nested.utf8)).tape == "a[1].b[1].cd[0]")
    #expect(Self.failurePaths(Array(nested.utf8)).parser == "a[1].b[1].cd[0]")
  }
}

extension String {
  /// Two hex digits.
  fileprivate var leftPadded: String { count < 2 ? "0" + self : self }
}
