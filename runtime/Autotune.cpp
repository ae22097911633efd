//===- Autotune.cpp - Remembering autotune() choices on disk --------------===//
//
// autotune() itself is a template in tilec.h (it forwards the caller's launch
// arguments); this file holds its non-template parts: naming a tuning
// problem, and reading and writing the remembered best config, one small
// text file per problem under `<cacheDir>/autotune/`.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/Hash.h"
#include "tilec/tilec.h"

#include <fstream>
#include <sstream>

using namespace tilec;

std::string TuneConfig::str() const {
  std::string out;
  for (const auto &[name, value] : constexprs)
    out += (out.empty() ? "" : ",") + name + "=" + value.str();
  if (numWarps)
    out += (out.empty() ? "" : ",") + std::string("num_warps=") +
           std::to_string(numWarps);
  if (numStages)
    out += (out.empty() ? "" : ",") + std::string("num_stages=") +
           std::to_string(numStages);
  return out.empty() ? "(defaults)" : out;
}

std::string detail::tuneRecordPath(const CompilerOptions &options,
                                   const std::string &arch,
                                   const std::string &file,
                                   const std::string &kernel,
                                   const std::vector<TuneConfig> &configs,
                                   const std::string &key) {
  if (options.cacheDir.empty())
    return "";
  Sha256 hash;
  auto field = [&](const std::string &tag, const std::string &value) {
    hash.update(tag + "=" + std::to_string(value.size()) + ":");
    hash.update(value);
    hash.update("\n");
  };
  field("v", "tilec-autotune-1");
  field("file", file);
  // The source text too: an edited kernel is tuned again.
  std::ifstream in(file, std::ios::binary);
  std::ostringstream source;
  if (in)
    source << in.rdbuf();
  field("source", source.str());
  field("kernel", kernel);
  field("key", key);
  CompileOptions compile = options;
  compile.arch = arch;
  field("options", compile.getKeyText());
  for (const TuneConfig &config : configs)
    field("config", config.str());
  return options.cacheDir + "/autotune/" + hash.hexDigest() + ".txt";
}

std::optional<std::size_t> detail::loadTuneChoice(const std::string &path,
                                                  std::size_t numConfigs) {
  if (path.empty())
    return std::nullopt;
  std::ifstream in(path);
  std::string magic;
  long long index = -1;
  if (!(in >> magic >> index) || magic != "tilec-autotune-1" || index < 0 ||
      static_cast<unsigned long long>(index) >= numConfigs)
    return std::nullopt;
  return static_cast<std::size_t>(index);
}

void detail::saveTuneChoice(const std::string &path, std::size_t index,
                            float ms) {
  if (path.empty())
    return;
  std::ostringstream out;
  out << "tilec-autotune-1 " << index << " " << ms << "\n";
  writeFileAtomically(path, out.str()); // Best effort.
}
