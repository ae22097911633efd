//===- Files.cpp - Reading whole files for the host API -------------------===//
//
// Bounded whole-file reads (see Files.h): open (without blocking for
// FileKind::Regular), check the kind and size, then read at most the limit
// plus one byte, so a file that grows or a stream without end is reported.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Files.h"

#include "tilec/Runtime/Error.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

std::string describeLimit(std::size_t maxBytes) {
  if (maxBytes % (std::size_t(1) << 20) == 0)
    return std::to_string(maxBytes >> 20) + " MiB";
  return std::to_string(maxBytes) + " bytes";
}

/// Reads \p fd to its end into \p out; false (with \p error) past
/// \p maxBytes or on a read error.
bool readAll(int fd, std::size_t maxBytes, std::string &out,
             std::string &error) {
  char buffer[64 * 1024];
  while (true) {
    ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      error = std::strerror(errno);
      return false;
    }
    if (n == 0)
      return true;
    if (out.size() + static_cast<std::size_t>(n) > maxBytes) {
      error = "larger than the limit of " + describeLimit(maxBytes);
      return false;
    }
    out.append(buffer, static_cast<std::size_t>(n));
  }
}

} // namespace

std::string tilec::detail::readWholeFile(const std::string &path,
                                         const std::string &what,
                                         std::size_t maxBytes, FileKind kind) {
  std::string name = what.empty() ? "'" + path + "'" : what + " '" + path + "'";
  auto fail = [&](const std::string &reason) {
    return Error("cannot read " + name + ": " + reason);
  };
  int flags = O_RDONLY | O_CLOEXEC;
  if (kind == FileKind::Regular)
    flags |= O_NONBLOCK;
  int fd = ::open(path.c_str(), flags);
  if (fd < 0)
    throw fail(std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    std::string reason = std::strerror(errno);
    ::close(fd);
    throw fail(reason);
  }
  std::string reason;
  if (S_ISDIR(st.st_mode))
    reason = std::strerror(EISDIR);
  else if (kind == FileKind::Regular && !S_ISREG(st.st_mode))
    reason = "not a regular file";
  else if (S_ISREG(st.st_mode) &&
           static_cast<std::uint64_t>(st.st_size) > maxBytes)
    reason = std::to_string(st.st_size) + " bytes, larger than the limit of " +
             describeLimit(maxBytes);
  std::string contents;
  if (reason.empty()) {
    if (S_ISREG(st.st_mode))
      contents.reserve(static_cast<std::size_t>(st.st_size));
    readAll(fd, maxBytes, contents, reason);
  }
  ::close(fd);
  if (!reason.empty())
    throw fail(reason);
  return contents;
}

std::string tilec::detail::readSource(const std::string &path) {
  if (path != "-")
    return readWholeFile(path, "", kMaxSourceBytes);
  std::string contents, reason;
  if (!readAll(STDIN_FILENO, kMaxSourceBytes, contents, reason))
    throw Error("cannot read standard input: " + reason);
  return contents;
}
