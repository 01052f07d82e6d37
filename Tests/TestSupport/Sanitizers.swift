#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The sanitizers this test process runs under (`swift test --sanitize=…`), known by the entry
/// points their runtimes, linked into the executable, export.
public enum Sanitizers {
  /// Whether AddressSanitizer is active.
  public static let address = exports("__asan_init")
  /// Whether ThreadSanitizer is active.
  public static let thread = exports("__tsan_init")
  /// Whether any of them is: memory is then shadowed, and page faults, allocations and times are
  /// not the program's alone.
  public static var any: Bool { address || thread }

  private static func exports(_ symbol: String) -> Bool {
    #if canImport(Darwin)
      let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #else
      let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    return dlsym(everywhere, symbol) != nil
  }
}
