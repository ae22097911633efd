//===- ChildProcess.h - This test binary again, as a child ------*- C++ -*-===//
//
// Tests that need a process of their own -- many processes racing on one
// cache, or a CUDA driver other than the real one (it is loaded once per
// process) -- start this same test binary again (fork + exec of
// /proc/self/exe) with a --gtest_filter naming the child test and extra
// environment variables; the child test skips itself unless
// TILEC_TEST_CHILD is set. Its stdout and stderr go to a log file, which
// the parent shows when the child fails. Everything the child needs is
// prepared before fork(), so the child only calls async-signal-safe
// functions before exec (the parent may have other threads, CUDA's too).
// Header-only: shared by the Runtime and JIT unit tests.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_UNIT_TESTSUPPORT_CHILDPROCESS_H
#define TILEC_TEST_UNIT_TESTSUPPORT_CHILDPROCESS_H

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace tilec::test {

/// Whether this process is a child started by spawnSelf().
inline bool isTestChild() { return std::getenv("TILEC_TEST_CHILD") != nullptr; }

/// A started child and where its output goes.
struct Child {
  pid_t pid = -1;
  std::string log;
};

/// What a finished child did.
struct ChildResult {
  int status = -1;
  std::string output;
  bool exitedZero() const {
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  /// "exit 1" / "signal 11 (Segmentation fault)".
  std::string describe() const {
    if (WIFEXITED(status))
      return "exit " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status))
      return "signal " + std::to_string(WTERMSIG(status)) + " (" +
             strsignal(WTERMSIG(status)) + ")";
    return "status " + std::to_string(status);
  }
  /// How many tests the child's gtest says passed (-1: no summary line).
  int passed() const {
    std::size_t at = output.find("[  PASSED  ] ");
    return at == std::string::npos ? -1 : std::atoi(output.c_str() + at + 13);
  }
  bool skippedAny() const {
    return output.find("[  SKIPPED ]") != std::string::npos;
  }
};

/// Starts this test binary running only \p filter, with TILEC_TEST_CHILD=1
/// and \p env added to (or, for an empty value, removed from) the
/// environment, and output to \p log. When \p startFd >= 0 it stays open in
/// the child and its number is in TILEC_TEST_START_FD (a pipe the child
/// reads until EOF: the parent's start signal).
inline Child spawnSelf(const std::string &filter,
                       const std::map<std::string, std::string> &env,
                       const std::string &log, int startFd = -1) {
  std::map<std::string, std::string> vars = env;
  vars["TILEC_TEST_CHILD"] = "1";
  if (startFd >= 0)
    vars["TILEC_TEST_START_FD"] = std::to_string(startFd);
  // The child runs its test whatever shard (lit) or output file this
  // process was given.
  for (const char *name :
       {"GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX", "GTEST_SHARD_STATUS_FILE",
        "GTEST_OUTPUT", "GTEST_FILTER"})
    vars.emplace(name, "");
  std::vector<std::string> envStrings;
  for (char **e = environ; *e; ++e) {
    std::string entry = *e;
    std::string name = entry.substr(0, entry.find('='));
    if (!vars.count(name))
      envStrings.push_back(entry);
  }
  for (const auto &[name, value] : vars)
    if (!value.empty())
      envStrings.push_back(name + "=" + value);
  std::vector<char *> envp;
  for (std::string &s : envStrings)
    envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string filterArg = "--gtest_filter=" + filter;
  std::string argv0 = "tilec-test-child";
  char *argv[] = {argv0.data(), filterArg.data(), nullptr};

  Child child;
  child.log = log;
  child.pid = ::fork();
  if (child.pid == 0) {
    int fd =
        ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
      ::dup2(fd, STDOUT_FILENO);
      ::dup2(fd, STDERR_FILENO);
    }
    if (startFd >= 0)
      ::fcntl(startFd, F_SETFD, 0); // Survives exec.
    ::execve("/proc/self/exe", argv, envp.data());
    ::_exit(127);
  }
  return child;
}

/// Waits for \p child and reads its log.
inline ChildResult waitChild(const Child &child) {
  ChildResult result;
  if (child.pid <= 0)
    return result;
  while (::waitpid(child.pid, &result.status, 0) < 0 && errno == EINTR) {
  }
  std::ifstream in(child.log);
  std::ostringstream text;
  text << in.rdbuf();
  result.output = text.str();
  return result;
}

/// spawnSelf + waitChild, with the log in a temporary file.
inline ChildResult runSelf(const std::string &filter,
                           const std::map<std::string, std::string> &env) {
  std::string log = ::testing::TempDir() + "tilec_child_" +
                    std::to_string(::getpid()) + "_" +
                    std::to_string(std::rand()) + ".log";
  ChildResult result = waitChild(spawnSelf(filter, env, log));
  std::remove(log.c_str());
  return result;
}

/// In a child: blocks until the parent closes the start pipe.
inline void waitForStartSignal() {
  if (const char *fd = std::getenv("TILEC_TEST_START_FD")) {
    char c;
    while (::read(std::atoi(fd), &c, 1) > 0) {
    }
  }
}

} // namespace tilec::test

/// Expects a child (ChildResult \p r) that exited 0 after passing \p n
/// tests, none skipped; shows its output otherwise.
#define EXPECT_CHILD_PASSED(r, n)                                              \
  EXPECT_TRUE((r).exitedZero() && (r).passed() == (n) && !(r).skippedAny())    \
      << "child: " << (r).describe() << ", passed " << (r).passed()            \
      << " (expected " << (n) << ")\n"                                         \
      << (r).output

#endif // TILEC_TEST_UNIT_TESTSUPPORT_CHILDPROCESS_H
