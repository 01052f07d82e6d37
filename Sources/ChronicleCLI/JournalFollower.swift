import ChronicleFormats
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `chronicle follow FILE`: prints the entries of an NDJSON stream, those already in it and then
/// each one as the `NDJSONFileSink` appends it, one line each.
///
/// The file is read again, whole, whenever its size changes, polled every 20 ms: simple and
/// portable, with the loader's own checks, at the cost of re-reading a long stream on every
/// append (bounded by the polling to 50 reads a second). A last line without its newline is one
/// the sink is still writing (the loader leaves it out as torn): its entry is printed once it is
/// complete. An empty file, or a header still being written, is waited for. A file that shrinks
/// was truncated by a new sink (the app started again): its entries are printed from the first.
/// Ends after `count` entries, or on Ctrl-C (SIGINT) with exit status 0.
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
    var printed = 0
    var lastSequence: UInt64 = 0
    var size = -1
    while !interrupted.isSet.load(ordering: .relaxed) {
      let url = URL(fileURLWithPath: path)
      var status = stat()
      // Anything but a readable regular file gets the loader's own error (a FIFO is refused
      // before it is opened, so that reading it cannot block).
      guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
        let data = try? Data(contentsOf: url)
      else {
        do { _ = try JournalFile(contentsOf: url) } catch { throw .badFile(path: path, error) }
        continue
      }
      if data.count != size {
        if data.count < size { lastSequence = 0 }
        size = data.count
        let document: JournalFile
        do {
          document = try JournalFile(data: data)
        } catch {
          guard data.isEmpty || Self.isTruncated(error) else { throw .badFile(path: path, error) }
          usleep(20_000)
          continue
        }
        for entry in document.entries where entry.sequence > lastSequence {
          Self.write(Self.line(entry))
          lastSequence = entry.sequence
          printed += 1
          if let count, printed >= count { return }
        }
      }
      usleep(20_000)
    }
  }

  private static func isTruncated(_ error: JournalImportError) -> Bool {
    if case .truncated = error { return true }
    return false
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
}

/// Set by the SIGINT handler, read by the polling loop.
private final class InterruptFlag: Sendable {
  let isSet = Atomic<Bool>(false)
}
