import ChronicleJSON
import ChronicleTracer
import Foundation

/// Reads the fields of one JSON object of an imported file, turning every problem into a
/// ``JournalImportError`` that names the field.
///
/// Paths are built only for errors: an entry reads a dozen fields, and a path appended to for
/// each would cost an array each.
struct FieldReader {
  /// The path of the object, or of its parent when `key` is set.
  private let basePath: FieldPath
  /// The object's key in its parent, for a reader made by ``object(_:)``.
  private let key: String?
  private let members: [JSONMember]
  /// The members' positions by key, for large objects only: most are small enough to scan.
  private let positions: [String: Int]?

  /// Where the object is.
  var path: FieldPath { key.map { basePath.appending($0) } ?? basePath }

  init(_ value: JSONValue, path: FieldPath) throws(JournalImportError) {
    try self.init(value, basePath: path, key: nil)
  }

  private init(_ value: JSONValue, basePath: FieldPath, key: String?) throws(JournalImportError) {
    guard case .object(let members) = value else {
      let path = key.map { basePath.appending($0) } ?? basePath
      throw .wrongType(
        entry: path.entryIndex, field: path.description, expected: "object", found: value.typeName)
    }
    self.basePath = basePath
    self.key = key
    self.members = members
    if members.count > 16 {
      var positions: [String: Int] = [:]
      for (position, member) in members.enumerated() { positions[member.key] = position }
      self.positions = positions
    } else {
      positions = nil
    }
  }

  func contains(_ key: String) -> Bool { optional(key) != nil }

  /// The value of `key`, `nil` when absent (a `null` counts as present).
  func optional(_ key: String) -> JSONValue? {
    if let positions { return positions[key].map { members[$0].value } }
    return members.value(of: key)
  }

  func required(_ key: String) throws(JournalImportError) -> JSONValue {
    guard let value = optional(key) else {
      throw .missingField(entry: path.entryIndex, field: path.appending(key).description)
    }
    return value
  }

  func object(_ key: String) throws(JournalImportError) -> FieldReader {
    let value = try required(key)
    return self.key == nil
      ? try FieldReader(value, basePath: basePath, key: key)
      : try FieldReader(value, path: path.appending(key))
  }

  func string(_ key: String) throws(JournalImportError) -> String {
    try Self.string(required(key), path: path.appending(key))
  }

  func optionalString(_ key: String) throws(JournalImportError) -> String? {
    guard let value = optional(key) else { return nil }
    return try Self.string(value, path: path.appending(key))
  }

  func bool(_ key: String) throws(JournalImportError) -> Bool {
    let value = try required(key)
    guard case .bool(let flag) = value else { throw mismatch(key, expected: "bool", found: value) }
    return flag
  }

  func array(_ key: String) throws(JournalImportError) -> [JSONValue] {
    let value = try required(key)
    guard case .array(let elements) = value else { throw mismatch(key, expected: "array", found: value) }
    return elements
  }

  func integer<Integer: FixedWidthInteger>(
    _ key: String, as type: Integer.Type = Integer.self
  )
    throws(JournalImportError) -> Integer
  {
    try Self.integer(required(key), path: path.appending(key))
  }

  func optionalInteger<Integer: FixedWidthInteger>(
    _ key: String, as type: Integer.Type = Integer.self
  )
    throws(JournalImportError) -> Integer?
  {
    guard let value = optional(key) else { return nil }
    return try Self.integer(value, path: path.appending(key))
  }

  private func mismatch(_ key: String, expected: String, found: JSONValue) -> JournalImportError {
    let field = path.appending(key)
    return .wrongType(
      entry: field.entryIndex, field: field.description, expected: expected, found: found.typeName)
  }

  static func string(
    _ value: JSONValue, path: @autoclosure () -> FieldPath
  ) throws(JournalImportError) -> String {
    guard case .string(let text) = value else {
      let path = path()
      throw .wrongType(
        entry: path.entryIndex, field: path.description, expected: "string", found: value.typeName)
    }
    return text
  }

  /// An integer written without fraction or exponent, within `Integer`'s range.
  static func integer<Integer: FixedWidthInteger>(
    _ value: JSONValue, path: @autoclosure () -> FieldPath
  ) throws(JournalImportError)
    -> Integer
  {
    guard case .number(let text) = value else {
      let path = path()
      throw .wrongType(
        entry: path.entryIndex, field: path.description, expected: "integer", found: value.typeName)
    }
    switch WholeNumber<Integer>(text) {
    case .value(let integer): return integer
    case .outOfRange:
      let path = path()
      throw .numberOutOfRange(entry: path.entryIndex, field: path.description, value: text)
    case .notWhole:
      let path = path()
      throw .wrongType(
        entry: path.entryIndex, field: path.description, expected: "integer", found: "number \(text)")
    }
  }
}

extension JournalImportError {
  /// The error for a parser failure in a document (or line) whose values sit under `path`.
  init(_ failure: JSONParser.Failure, byteOffset base: Int = 0) {
    let entry = failure.path.entryIndex
    let field = failure.path.description
    let offset = base + failure.offset
    switch failure.problem {
    case .unexpectedEnd: self = .truncated(entry: entry, field: field, byteOffset: offset)
    case .invalidUTF8: self = .invalidUTF8(entry: entry, field: field, byteOffset: offset)
    case .tooDeep(let limit): self = .tooDeep(entry: entry, field: field, limit: limit)
    case .stringTooLong(let limit), .numberTooLong(let limit):
      self = .tooLarge(entry: entry, field: field, limit: limit)
    case .duplicateKey(let key): self = .duplicateKey(entry: entry, field: field, key: key)
    case .unexpectedByte(let byte):
      let shown =
        byte >= 0x20 && byte < 0x7F
        ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
      self = .malformed(entry: entry, field: field, byteOffset: offset, reason: "unexpected \(shown)")
    case .invalidEscape:
      self = .malformed(entry: entry, field: field, byteOffset: offset, reason: "invalid escape sequence")
    case .invalidNumber:
      self = .malformed(entry: entry, field: field, byteOffset: offset, reason: "invalid number")
    case .trailingData:
      self = .malformed(
        entry: entry, field: field, byteOffset: offset, reason: "data after the end of the document")
    }
  }
}

/// Decodes states and actions with the tape decoder (``JSONTapeDecoder``), the one decoder of
/// the library, reporting failures as ``JournalImportError``s that name the field.
///
/// A value an importer holds as a tree (a Redux DevTools file, an entry the tape does not take)
/// is written back to text and read onto a tape: the values decoded that way are few, and one
/// decoder keeps the values and the errors the same for every importer.
struct TypedDecoder {
  private let decoder = JSONTapeDecoder()
  private let tape = JSONTape()

  /// The limits a tree that was already read within its own is read again with.
  private static let readAgain = JSONParser.Limits(
    maxDepth: JSONParser.maxSupportedDepth, maxStringBytes: .max, maxNumberLength: .max)

  func decode<Value: Decodable>(
    _ type: Value.Type, from value: JSONValue, path: @autoclosure () -> FieldPath
  ) throws(JournalImportError) -> Value {
    let text = JSONWriter.serialize(value)
    let result: Result<Value, JournalImportError> = text.withUnsafeBufferPointer { bytes in
      var parser = JSONParser(bytes: bytes, limits: Self.readAgain)
      do throws(JournalImportError) {
        do throws(JSONParser.Failure) {
          try tape.read(&parser)
        } catch {
          // The text of a tree read within the limits: reading it again does not fail.
          throw JournalImportError(error)
        }
        return .success(try decode(Value.self, from: tape.view, at: 0, path: path()))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// The value of type `type` at token `index` of `tape`.
  func decode<Value: Decodable>(
    _ type: Value.Type, from tape: JSONTapeView, at index: Int, path: @autoclosure () -> FieldPath
  ) throws(JournalImportError) -> Value {
    do {
      return try decoder.decode(Value.self, from: tape, at: index)
    } catch let error as DecodingError {
      throw Self.importError(error, in: tape, at: index, path: path())
    } catch {
      let path = path()
      throw .invalidValue(entry: path.entryIndex, field: path.description, reason: "\(error)")
    }
  }

  /// The token at `codingPath` under the value at `root`, for naming a number out of range by its
  /// text.
  private static func token(at codingPath: [any CodingKey], in tape: JSONTapeView, root: Int) -> Int? {
    var index = root
    for key in codingPath {
      switch tape[index].kind {
      case .object:
        var member = index + 1
        var found: Int?
        for _ in 0..<tape[index].count where found == nil {
          if tape.string(member) == key.stringValue { found = member + 1 }
          member = tape[member + 1].next
        }
        guard let found else { return nil }
        index = found
      case .array:
        guard let position = key.intValue, position >= 0, position < tape[index].count else { return nil }
        index += 1
        for _ in 0..<position { index = tape[index].next }
      default:
        return nil
      }
    }
    return index
  }

  private static func importError(
    _ error: DecodingError, in tape: JSONTapeView, at root: Int, path: FieldPath
  ) -> JournalImportError {
    func fieldPath(_ codingPath: [any CodingKey]) -> FieldPath {
      var result = path
      for key in codingPath {
        if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == "\(index)" {
          result = result.appending(index: index)
        } else {
          result = result.appending(key.stringValue)
        }
      }
      return result
    }
    switch error {
    case .typeMismatch(let expected, let context):
      let field = fieldPath(context.codingPath)
      return .wrongType(
        entry: field.entryIndex, field: field.description, expected: String(describing: expected),
        found: context.debugDescription)
    case .valueNotFound(let expected, let context):
      let field = fieldPath(context.codingPath)
      return .wrongType(
        entry: field.entryIndex, field: field.description, expected: String(describing: expected),
        found: "null")
    case .keyNotFound(let key, let context):
      let field = fieldPath(context.codingPath).appending(key.stringValue)
      return .missingField(entry: field.entryIndex, field: field.description)
    case .dataCorrupted(let context):
      let field = fieldPath(context.codingPath)
      if context.debugDescription.hasPrefix("Parsed JSON number"),
        let number = token(at: context.codingPath, in: tape, root: root), tape[number].kind == .number
      {
        return .numberOutOfRange(
          entry: field.entryIndex, field: field.description, value: tape.numberText(number))
      }
      var reason = context.debugDescription
      if let underlying = context.underlyingError { reason += " (\(underlying))" }
      return .invalidValue(entry: field.entryIndex, field: field.description, reason: reason)
    @unknown default:
      return .invalidValue(entry: path.entryIndex, field: path.description, reason: "\(error)")
    }
  }
}
