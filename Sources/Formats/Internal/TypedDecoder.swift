import ChronicleJSON
import Foundation

/// Decodes states and actions with the tape decoder (``JSONTapeDecoder``), the one decoder of
/// the library, reporting failures as ``JournalImportError``s that name the field.
///
/// A value held as a tree (a Redux DevTools file's action or state, a live command's action, a
/// base state) is written back to text and read onto a tape: the values decoded that way are few,
/// and one decoder keeps the values and the errors the same for every importer.
struct TypedDecoder {
  private let decoder = JSONTapeDecoder()
  private let tape = JSONTape()

  func decode<Value: Decodable>(
    _ type: Value.Type, from value: JSONValue, path: @autoclosure () -> FieldPath
  ) throws(JournalImportError) -> Value {
    try tape.reading(tree: value) { view throws(JournalImportError) in
      try decode(Value.self, from: view, at: 0, path: path())
    }
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

extension JSONTape {
  /// The limits a tree that was already read within its own is read again with.
  private static let readAgain = JSONParser.Limits(
    maxDepth: JSONParser.maxSupportedDepth, maxStringBytes: .max, maxNumberLength: .max)

  /// Reads `value`, a tree, onto the tape (its text written and read again) and returns what
  /// `body` makes of the tokens.
  func reading<Result>(
    tree value: JSONValue, _ body: (JSONTapeView) throws(JournalImportError) -> Result
  ) throws(JournalImportError) -> Result {
    let text = JSONWriter.serialize(value)
    let result: Swift.Result<Result, JournalImportError> = text.withUnsafeBufferPointer { bytes in
      var parser = JSONParser(bytes: bytes, limits: Self.readAgain)
      do throws(JournalImportError) {
        do throws(JSONParser.Failure) {
          try read(&parser)
        } catch {
          // The text of a tree read within the limits: reading it again does not fail.
          throw JournalImportError(error)
        }
        return .success(try body(view))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }
}
