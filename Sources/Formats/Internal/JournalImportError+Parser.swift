import ChronicleJSON

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
