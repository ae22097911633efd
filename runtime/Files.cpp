//===- Files.cpp - Reading whole files for the host API -------------------===//

#include "tilec/Runtime/Files.h"

#include "tilec/Runtime/Error.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

std::string tilec::detail::readWholeFile(const std::string &path,
                                         const std::string &what) {
  std::string name = what.empty() ? "'" + path + "'" : what + " '" + path + "'";
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error("cannot read " + name + ": " +
                std::strerror(errno ? errno : ENOENT));
  // A directory opens, then reads as nothing.
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw Error("cannot read " + name + ": " + std::strerror(EISDIR));
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad())
    throw Error("cannot read " + name);
  return contents.str();
}
