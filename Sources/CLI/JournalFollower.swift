import ChronicleFormats
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `chronicle follow FILE`: prints the entries of an NDJSON stream, those already in it and then
/// each one as the `NDJSONFileSink` appends it, one line each. Ends after `count` entries, or on
/// Ctrl-C (SIGINT) with exit status 0.
///
/// It follows the file as `tail -F` does, polling every 20 ms: it reads what was appended since
/// the last poll from the file it has open, and then looks at the path.
/// - Another file there (another inode: the file was rotated or replaced, or deleted and
///   created again): what is left of the old one is read first, then the new one from its start.
/// - The file shorter than what was read, or its header changed (a new sink truncated it, the
///   app started again, even if it grew past the old length within one poll): read again from
///   its start.
/// - No file there (deleted): waits for one to be created.
///
/// Each of these is said on standard error. What was read is printed only once the path is
/// seen to be the same file, not truncated, after the read. A last line without its newline is one the sink is
/// still writing: its entry is printed once it is complete, as is a line followed by NUL bytes
/// (a mapped sink's file, grown ahead of its lines). An empty file, or a header still being
/// written, is waited for.
struct JournalFollower {
  var path: String
  var count: Int?

  func run() throws(CLIError) {
    // Ctrl-C ends the loop on this thread, which then returns normally: calling `exit` from the
    // signal source's thread raced the loop's own reads and hung under AddressSanitizer.
    let interrupted = InterruptFlag()
    let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    signal(SIGINT, SIG_IGN)
    interrupt.setEventHandler { interrupted.isSet.store(true, ordering: .relaxed) }
    interrupt.resume()
    defer { interrupt.cancel() }
    var file = try FollowedFile(path: path, announcing: nil)
    defer { file.close() }
    var printed = 0
    var missing = false
    while !interrupted.isSet.load(ordering: .relaxed) {
      var appended: [JournalFileEntry] = []
      var failure: CLIError?
      do {
        appended = try file.readAppended()
      } catch {
        failure = error
      }
      // Looked at after the read: a file truncated and written again meanwhile gave bytes of the
      // new content read from the old offset, which are left unprinted (or which did not parse).
      let change = file.change()
      if change == .truncated {
        Self.say("\(path) was truncated; following it from its start")
        file.restart()
        continue
      }
      if let failure { throw failure }
      var progressed = try print(appended, printed: &printed)
      if let count, printed >= count { return }
      switch change {
      case .none:
        missing = false
      case .missing:
        if !missing { Self.say("\(path) was removed; waiting for it to be created again") }
        missing = true
      case .replaced:
        // The old file's last lines first: a writer may have appended them since the read above.
        progressed = try print(file.readAppended(), printed: &printed) || progressed
        if let count, printed >= count { return }
        file.close()
        file = try FollowedFile(
          path: path, announcing: "\(path) was replaced; following the new file from its start")
        missing = false
        progressed = true
      case .truncated:
        break
      }
      if !progressed { usleep(20_000) }
    }
  }

  /// Prints the entries, up to `count` in all; whether there were any.
  private func print(_ entries: [JournalFileEntry], printed: inout Int) throws(CLIError) -> Bool {
    for entry in entries {
      if let count, printed >= count { break }
      Self.write(Self.line(entry))
      printed += 1
    }
    return !entries.isEmpty
  }

  /// `0 #1 add [Cart] user {"add":{"_0":"apple"}}`: the entry with its action rather than its
  /// duration, which `summary` and `filter` show.
  static func line(_ entry: JournalFileEntry) -> String {
    "\(entry.index) #\(entry.sequence) \(entry.type)" + (entry.context.map { " [\($0)]" } ?? "")
      + " \(entry.causeDescription) \(entry.actionJSON)"
      + (entry.outcome == "reduced" ? "" : " \(entry.outcome)")
      + "\n"
  }

  /// Writes straight to standard output, unbuffered, so that a reader at the other end of a pipe
  /// sees each entry as it is printed.
  private static func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  /// Tells what happened to the file on standard error.
  private static func say(_ text: String) {
    FileHandle.standardError.write(Data("chronicle: \(text)\n".utf8))
  }
}

/// The file `follow` reads: its descriptor, what identifies it (device and inode), and how far it
/// was read.
private struct FollowedFile {
  let path: String
  private var descriptor: Int32
  private let identity: (device: UInt64, inode: UInt64)
  private var reader = JournalStreamReader()
  /// The bytes read from the file, complete lines or not.
  private var offset = 0

  /// What ``change()`` found at the path.
  enum Change {
    case none, missing, replaced, truncated
  }

  /// Opens the file at `path`. Anything but a readable regular file gets the loader's own error
  /// (a FIFO is refused before it is opened, so that reading it cannot block). `announcing` is
  /// said on standard error once it is open.
  init(path: String, announcing: String?) throws(CLIError) {
    self.path = path
    var status = stat()
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0, fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      if descriptor >= 0 { _ = closeFile(descriptor) }
      do {
        _ = try JournalFile(contentsOf: URL(fileURLWithPath: path))
      } catch {
        throw .badFile(path: path, error)
      }
      throw .badFile(path: path, .notARegularFile(path: path))
    }
    self.descriptor = descriptor
    identity = (UInt64(status.st_dev), UInt64(status.st_ino))
    if let announcing { FileHandle.standardError.write(Data("chronicle: \(announcing)\n".utf8)) }
  }

  func close() {
    if descriptor >= 0 { _ = closeFile(descriptor) }
  }

  /// The entries of the lines appended since the last call.
  mutating func readAppended() throws(CLIError) -> [JournalFileEntry] {
    var entries: [JournalFileEntry] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = pread(descriptor, &chunk, chunk.count, off_t(offset))
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return entries }
      // A mapped sink's file ends with NUL bytes where its next lines go: read up to them, and
      // from there again at the next poll.
      let written = chunk[..<count].firstIndex(of: 0) ?? count
      offset += written
      do {
        entries += try reader.append(Array(chunk[..<written]))
      } catch {
        throw .badFile(path: path, error)
      }
      if written < count { return entries }
    }
  }

  /// What became of the file since it was opened or last read.
  func change() -> Change {
    var status = stat()
    guard stat(path, &status) == 0 else { return .missing }
    guard UInt64(status.st_dev) == identity.device, UInt64(status.st_ino) == identity.inode else {
      return .replaced
    }
    if Int(status.st_size) < offset { return .truncated }
    // Truncated and written again past where it was read, within one poll: the header differs
    // (a new sink writes its own origin).
    let header = reader.headerBytes
    if !header.isEmpty {
      var start = [UInt8](repeating: 0, count: header.count)
      if pread(descriptor, &start, header.count, 0) != header.count || start != header { return .truncated }
    }
    return .none
  }

  /// Reads the file again from its start.
  mutating func restart() {
    reader = JournalStreamReader()
    offset = 0
  }
}

/// Set by the SIGINT handler, read by the polling loop.
private final class InterruptFlag: Sendable {
  let isSet = Atomic<Bool>(false)
}

/// `close(2)`, under a name that does not clash with the method called `close`.
private func closeFile(_ descriptor: Int32) -> Int32 {
  #if canImport(Darwin)
    Darwin.close(descriptor)
  #else
    Glibc.close(descriptor)
  #endif
}
