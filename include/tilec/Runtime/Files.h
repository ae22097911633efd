//===- Files.h - Reading whole files for the host API -----------*- C++ -*-===//
//
// The one reader of whole files behind the host API: kernel binaries,
// metadata and `.tile` sources, with tilec::Error messages that name the
// file and why it could not be read (a directory, a missing file, ...).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_FILES_H
#define TILEC_RUNTIME_FILES_H

#include <string>

namespace tilec::detail {

/// The bytes of the file at \p path. Throws tilec::Error
/// "cannot read WHAT 'PATH': REASON" (or "cannot read 'PATH': REASON" for
/// an empty \p what).
std::string readWholeFile(const std::string &path, const std::string &what);

} // namespace tilec::detail

#endif // TILEC_RUNTIME_FILES_H
