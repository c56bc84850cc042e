#if canImport(Glibc)
  import Glibc
#endif

/// Freed memory given back to the system.
enum FreedMemory {
  /// Gives the free pages of the C library's heaps back to the system: glibc keeps freed
  /// blocks of a MiB or so in its heap (its mmap threshold rises past them once a larger
  /// block is freed), where they still count in the process's memory while what replaces
  /// them is made. No-op where the C library has no `malloc_trim`.
  static func giveBack() {
    guard let trim = mallocTrim else { return }
    _ = trim(0)
  }

  /// glibc's `malloc_trim`, which Swift's Glibc module does not declare; nil elsewhere.
  private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
    #if canImport(Glibc)
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else {
        return nil
      }
      return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    #else
      return nil
    #endif
  }()
}
