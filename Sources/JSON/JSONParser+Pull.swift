extension JSONParser {
  // MARK: - Reading a document piece by piece

  // The importers read a journal's top-level object member by member and its entries one at a
  // time, so that a large file is never held as one tree.

  /// Reads the `{` that opens an object.
  package mutating func beginObject() throws(Failure) {
    skipWhitespace()
    guard position < bytes.count else { throw failure(.unexpectedEnd) }
    guard bytes[position] == UInt8(ascii: "{") else { throw failure(.unexpectedByte(bytes[position])) }
    try enter()
    position += 1
  }

  /// Reads up to the next member's value and returns its key, with the key pushed on the path
  /// (call ``endMember()`` after reading the value); `nil` at the object's end.
  package mutating func nextMember(first: Bool) throws(Failure) -> String? {
    skipWhitespace()
    guard position < bytes.count else { throw failure(.unexpectedEnd) }
    if bytes[position] == UInt8(ascii: "}") {
      position += 1
      depth -= 1
      return nil
    }
    if !first {
      guard bytes[position] == UInt8(ascii: ",") else { throw failure(.unexpectedByte(bytes[position])) }
      position += 1
      skipWhitespace()
      guard position < bytes.count else { throw failure(.unexpectedEnd) }
    }
    guard bytes[position] == UInt8(ascii: "\"") else { throw failure(.unexpectedByte(bytes[position])) }
    let key = try parseString()
    skipWhitespace()
    guard position < bytes.count else { throw failure(.unexpectedEnd) }
    guard bytes[position] == UInt8(ascii: ":") else { throw failure(.unexpectedByte(bytes[position])) }
    position += 1
    skipWhitespace()
    path.components.append(.key(key))
    return key
  }

  /// Pops the key ``nextMember(first:)`` pushed.
  package mutating func endMember() {
    path.components.removeLast()
  }

  /// Reads the `[` that opens an array.
  package mutating func beginArray() throws(Failure) {
    skipWhitespace()
    guard position < bytes.count else { throw failure(.unexpectedEnd) }
    guard bytes[position] == UInt8(ascii: "[") else { throw failure(.unexpectedByte(bytes[position])) }
    try enter()
    position += 1
  }

  /// Moves to the array's next element, with its index pushed on the path (call
  /// ``endMember()`` after reading it); `false` at the array's end.
  package mutating func nextElement(index: Int) throws(Failure) -> Bool {
    skipWhitespace()
    guard position < bytes.count else { throw failure(.unexpectedEnd) }
    if bytes[position] == UInt8(ascii: "]") {
      position += 1
      depth -= 1
      return false
    }
    if index > 0 {
      guard bytes[position] == UInt8(ascii: ",") else { throw failure(.unexpectedByte(bytes[position])) }
      position += 1
      skipWhitespace()
    }
    path.components.append(.index(index))
    return true
  }

  /// Moves the parser onto `bytes`: the same document, without the `dropped` bytes that came
  /// before the old input's, and with more after them.
  package mutating func rebase(onto bytes: UnsafeBufferPointer<UInt8>, dropped: Int) {
    self.bytes = bytes
    position -= dropped
  }

  /// Checks that only whitespace follows.
  package mutating func finish() throws(Failure) {
    skipWhitespace()
    if position < bytes.count { throw failure(.trailingData) }
  }

  /// Whether the next value (after whitespace) is the given byte, such as `[`.
  package mutating func peek(_ byte: UInt8) -> Bool {
    skipWhitespace()
    return position < bytes.count && bytes[position] == byte
  }
}
