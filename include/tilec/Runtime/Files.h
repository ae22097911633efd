//===- Files.h - Reading whole files for the host API -----------*- C++ -*-===//
//
// The one reader of whole files behind the host API and the tools: kernel
// binaries, metadata, cache entries and `.tile` sources (also from stdin),
// with tilec::Error messages that name the file and why it could not be
// read (a directory, a missing file, more bytes than the limit, ...). Every
// read is bounded: /dev/zero or an endless pipe is an error, not an
// allocation that grows until the process dies.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_FILES_H
#define TILEC_RUNTIME_FILES_H

#include <cstddef>
#include <string>

namespace tilec::detail {

/// The largest `.tile` source read (a file or stdin).
constexpr std::size_t kMaxSourceBytes = std::size_t(16) << 20;
/// The largest kernel binary, metadata file or cache entry read.
constexpr std::size_t kMaxBinaryBytes = std::size_t(256) << 20;

/// How readWholeFile opens a path.
enum class FileKind {
  /// Anything that reads as a stream (a regular file, a pipe, a device).
  Any,
  /// Regular files only, opened without blocking: a FIFO, a device or a
  /// symlink to one fails at once, and the size is checked before reading.
  Regular,
};

/// The bytes of the file at \p path, at most \p maxBytes of them. Throws
/// tilec::Error "cannot read WHAT 'PATH': REASON" (or "cannot read 'PATH':
/// REASON" for an empty \p what).
std::string readWholeFile(const std::string &path, const std::string &what,
                          std::size_t maxBytes = kMaxBinaryBytes,
                          FileKind kind = FileKind::Any);

/// A `.tile` source: the file at \p path, or standard input for "-", at
/// most kMaxSourceBytes. Throws tilec::Error as readWholeFile.
std::string readSource(const std::string &path);

} // namespace tilec::detail

#endif // TILEC_RUNTIME_FILES_H
