import ChronicleFormats
import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// `chronicle repair FILE [OUT]`: writes the complete lines of an NDJSON stream, as plain NDJSON,
/// to `OUT` (by default `FILE` itself): what a killed writer left after them — a torn last line,
/// a mapped sink's NUL bytes — is cut.
///
/// Every line is checked first, as the loader checks it: a file with a bad line is refused and
/// left as it was. The output is written to a new file beside it and renamed over it, so a sink
/// still writing `FILE` writes on into the old file (its mapping never loses its pages), and an
/// interrupted repair leaves `OUT` as it was.
struct JournalRepair {
  var input: String
  var output: String

  /// Repairs the file and says what was cut.
  func run() throws(CLIError) -> String {
    let url = URL(fileURLWithPath: input)
    let scan: JournalFile.Scan
    do {
      try Self.checkIsStream(url)
      scan = try JournalFile.scan(contentsOf: url) { _, _ in false }
    } catch {
      throw .badFile(path: input, error)
    }
    guard let torn = scan.tornLine else {
      if output != input { try copy(url, bytes: nil) }
      return "\(input) ends with a complete line: nothing to cut"
        + (output == input ? "\n" : "; copied to \(output)\n")
    }
    try copy(url, bytes: torn.byteOffset)
    let unwritten = torn.unwrittenByteCount > 0 ? " and \(torn.unwrittenByteCount) unwritten (NUL) bytes" : ""
    return "\(output): \(torn.lineNumber - 1) complete lines kept; cut the torn line \(torn.lineNumber) "
      + "(\(torn.byteCount) bytes)\(unwritten)\n"
  }

  /// Refuses a file that is not an NDJSON stream (the scan reads every format).
  private static func checkIsStream(_ url: URL) throws(JournalImportError) {
    var reader = JournalStreamReader()
    guard let handle = try? FileHandle(forReadingFrom: url) else {
      _ = try JournalFile(contentsOf: url)
      return
    }
    defer { try? handle.close() }
    var bytes: [UInt8] = []
    while !reader.hasHeader, let chunk = try? handle.read(upToCount: 1 << 16), !chunk.isEmpty {
      bytes = Array(chunk)
      let written = bytes.firstIndex(of: 0) ?? bytes.count
      _ = try reader.append(Array(bytes[..<written]))
      if written < bytes.count { break }
    }
    guard reader.hasHeader else { throw .truncated(entry: nil, field: "(header)", byteOffset: 0) }
  }

  /// Writes the first `bytes` bytes of the file (all of them when `nil`) to a new file beside
  /// the output, then renames it over the output.
  private func copy(_ url: URL, bytes: Int?) throws(CLIError) {
    let target = URL(fileURLWithPath: output)
    let temporary = target.deletingLastPathComponent()
      .appendingPathComponent(".\(target.lastPathComponent).repair-\(getpid())")
    do {
      guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
        throw CLIError.cannotWrite(path: output, reason: "cannot create \(temporary.path)")
      }
      let reading = try FileHandle(forReadingFrom: url)
      defer { try? reading.close() }
      let writing = try FileHandle(forWritingTo: temporary)
      defer { try? writing.close() }
      var left = bytes ?? Int.max
      while left > 0, let chunk = try reading.read(upToCount: min(left, 1 << 20)), !chunk.isEmpty {
        try writing.write(contentsOf: chunk)
        left -= chunk.count
      }
      try writing.synchronize()
      guard rename(temporary.path, target.path) == 0 else {
        throw CLIError.cannotWrite(path: output, reason: String(cString: strerror(errno)))
      }
    } catch let error as CLIError {
      try? FileManager.default.removeItem(at: temporary)
      throw error
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw .cannotWrite(path: output, reason: (error as NSError).localizedDescription)
    }
  }
}
