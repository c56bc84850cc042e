import Foundation

/// File-system failures in weigh's own words: no text from Foundation, ZIPFoundation or the
/// C library reaches users, so messages read the same on every platform and in every locale.
enum SystemProblem {
  /// What went wrong for the POSIX error `code`, lower case, without a fix.
  static func describe(errno code: Int32) -> String {
    switch code {
    case ENOENT: "no such file or folder"
    case EACCES, EPERM: "permission denied"
    case EISDIR: "it is a folder"
    case ENOTDIR: "a part of the path is not a folder"
    case ENOSPC: "the disk is full"
    case EDQUOT: "the disk quota is used up"
    case EROFS: "the file system is read-only"
    case EIO: "the device reported an input/output error"
    case ENAMETOOLONG: "the name is too long"
    case ELOOP: "the path has too many symbolic links"
    case EEXIST: "the file already exists"
    case EMFILE, ENFILE: "too many files are open"
    case EFBIG: "the file is too large"
    case EXDEV: "the path crosses file systems"
    case EBUSY, ETXTBSY: "the file is busy"
    case ENXIO, ENODEV: "no such device"
    case EINVAL: "the file does not support this operation"
    case EAGAIN: "the file is not ready (try again)"
    case ENOMEM: "out of memory"
    case EBADF: "no such open file descriptor"
    default: "the system refused (error \(code))"
    }
  }

  /// What went wrong for any error thrown by Foundation or a library, in weigh's words.
  ///
  /// Known Cocoa codes and POSIX errors are named; anything else is described by what was
  /// being done, never by the library's own text.
  static func describe(_ error: any Error) -> String {
    if let error = error as? FileWriteError { return error.reason }
    let nsError = error as NSError
    if nsError.domain == NSPOSIXErrorDomain {
      return describe(errno: Int32(clamping: nsError.code))
    }
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return describe(errno: Int32(clamping: underlying.code))
    }
    if nsError.domain == NSCocoaErrorDomain {
      switch nsError.code {
      case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return "no such file"
      case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
      case NSFileReadInapplicableStringEncodingError, NSFileReadUnknownStringEncodingError:
        return "it is not UTF-8 text"
      case NSFileReadTooLargeError: return "the file is too large"
      case NSFileWriteOutOfSpaceError: return "the disk is full"
      case NSFileWriteVolumeReadOnlyError: return "the file system is read-only"
      case NSFileWriteFileExistsError: return "the file already exists"
      case NSFileReadCorruptFileError: return "the file is damaged"
      default: break
      }
    }
    return "the system could not complete the operation"
  }
}
