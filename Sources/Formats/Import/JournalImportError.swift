import ChronicleTracer

/// Why a journal file could not be imported. Nothing is imported when one is thrown: imports
/// build the new journal completely before returning it.
///
/// Every case that concerns a place in the file names it: `entry` is the position of the entry
/// in the file's list (or NDJSON stream) when the problem is inside one, and `field` the path of
/// the value, such as `entries[3].cause.kind` or `meta.state.type`.
public enum JournalImportError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Which of the journal's types a mismatch concerns.
  public enum TypeRole: String, Sendable, Hashable {
    /// The state type.
    case state
    /// The action type.
    case action
  }

  /// The input ends in the middle of a value.
  case truncated(entry: Int?, field: String, byteOffset: Int)
  /// The input is not valid UTF-8 (or holds an escaped lone surrogate).
  case invalidUTF8(entry: Int?, field: String, byteOffset: Int)
  /// The input is not JSON: an unexpected character, a bad escape or number, trailing data.
  case malformed(entry: Int?, field: String, byteOffset: Int, reason: String)
  /// An object has the same key twice.
  case duplicateKey(entry: Int?, field: String, key: String)
  /// Values are nested deeper than the limit.
  case tooDeep(entry: Int?, field: String, limit: Int)
  /// A value, a line or the whole input is larger than the limit (bytes, or entries for
  /// `entries`).
  case tooLarge(entry: Int?, field: String, limit: Int)
  /// The `format` field is not the expected one (`nil` when there is none).
  case wrongFormat(expected: String, found: String?)
  /// The `version` field is not one this library reads.
  case unsupportedVersion(found: String, supported: Int)
  /// The file was recorded with another state or action type: `difference` says what differs.
  case typeMismatch(TypeRole, expected: String, found: String, difference: String)
  /// A required field is missing.
  case missingField(entry: Int?, field: String)
  /// A field holds another type of value than required (`expected` and `found` are JSON types
  /// or, inside states and actions, Swift types).
  case wrongType(entry: Int?, field: String, expected: String, found: String)
  /// A number does not fit its field (a negative or too large sequence number, a number that no
  /// Swift type of the field holds).
  case numberOutOfRange(entry: Int?, field: String, value: String)
  /// Two entries have the same sequence number.
  case duplicateSequence(entry: Int, sequence: UInt64)
  /// An entry's sequence number is lower than the previous entry's.
  case sequenceOutOfOrder(entry: Int, sequence: UInt64, previous: UInt64)
  /// A value is well-formed but not acceptable here, such as an unknown cause kind, or an
  /// entry index that does not follow the previous one; `reason` explains.
  case invalidValue(entry: Int?, field: String, reason: String)
  /// A state or action was exported by description (its type is not `Encodable`), so it cannot
  /// be decoded.
  case notReplayable(entry: Int?, field: String)
  /// The file could not be read.
  case unreadableFile(path: String, errno: Int32)
  /// The path names a FIFO, a socket, a device or a directory: only regular files are read (a
  /// FIFO would block the import until a writer came).
  case notARegularFile(path: String)

  /// The position of the entry the problem is in, if any.
  public var entry: Int? {
    switch self {
    case .truncated(let entry, _, _), .invalidUTF8(let entry, _, _), .malformed(let entry, _, _, _),
      .duplicateKey(let entry, _, _), .tooDeep(let entry, _, _), .tooLarge(let entry, _, _),
      .missingField(let entry, _), .wrongType(let entry, _, _, _), .numberOutOfRange(let entry, _, _),
      .invalidValue(let entry, _, _), .notReplayable(let entry, _):
      entry
    case .duplicateSequence(let entry, _), .sequenceOutOfOrder(let entry, _, _):
      entry
    case .wrongFormat, .unsupportedVersion, .typeMismatch, .unreadableFile, .notARegularFile:
      nil
    }
  }

  /// The path of the field the problem is in, if any.
  public var field: String? {
    switch self {
    case .truncated(_, let field, _), .invalidUTF8(_, let field, _), .malformed(_, let field, _, _),
      .duplicateKey(_, let field, _), .tooDeep(_, let field, _), .tooLarge(_, let field, _),
      .missingField(_, let field), .wrongType(_, let field, _, _), .numberOutOfRange(_, let field, _),
      .invalidValue(_, let field, _), .notReplayable(_, let field):
      field
    case .duplicateSequence(let entry, _), .sequenceOutOfOrder(let entry, _, _):
      "entries[\(entry)].seq"
    case .wrongFormat: "format"
    case .unsupportedVersion: "version"
    case .typeMismatch(let role, _, _, _): "meta.\(role.rawValue).type"
    case .unreadableFile, .notARegularFile: nil
    }
  }

  /// The problem in words, with its field.
  public var description: String {
    switch self {
    case .truncated(_, let field, let offset): "the input ends inside \(field) (byte \(offset))"
    case .invalidUTF8(_, let field, let offset): "invalid UTF-8 in \(field) (byte \(offset))"
    case .malformed(_, let field, let offset, let reason):
      "malformed JSON in \(field) (byte \(offset)): \(reason)"
    case .duplicateKey(_, let field, let key): "\(field) has the key \(key.debugDescription) twice"
    case .tooDeep(_, let field, let limit): "\(field) is nested deeper than \(limit) levels"
    case .tooLarge(_, let field, let limit): "\(field) is larger than the limit of \(limit)"
    case .wrongFormat(let expected, let found):
      "not a \(expected) file (format: \(found.map { $0.debugDescription } ?? "missing"))"
    case .unsupportedVersion(let found, let supported):
      "version \(found) is not supported (this library reads \(supported))"
    case .typeMismatch(let role, _, _, let difference):
      "the file's \(role.rawValue) type differs: \(difference)"
    case .missingField(_, let field): "\(field) is missing"
    case .wrongType(_, let field, let expected, let found): "\(field) should be \(expected), found \(found)"
    case .numberOutOfRange(_, let field, let value): "\(field): \(value) is out of range"
    case .duplicateSequence(let entry, let sequence): "entries[\(entry)] repeats sequence number \(sequence)"
    case .sequenceOutOfOrder(let entry, let sequence, let previous):
      "entries[\(entry)] has sequence number \(sequence), lower than the previous \(previous)"
    case .invalidValue(_, let field, let reason): "\(field): \(reason)"
    case .notReplayable(_, let field): "\(field) was exported by description and cannot be decoded"
    case .unreadableFile(let path, let errno): "cannot read \(path) (errno \(errno))"
    case .notARegularFile(let path): "\(path) is not a regular file"
    }
  }
}
