//===- tile-gen.cpp - Write random valid .tile kernels --------------------===//
//
// tile-gen [--seed=N] [--count=K] [-o FILE.tile | -o DIR/] [--bytes=FILE]
// writes generated kernels (ProgramGenerator.h) and, beside each FILE.tile,
// FILE.run.json: how to launch it and how close its outputs must be to a
// float64 evaluation (docs/fuzzing.md). Seeds give the same program on
// every platform; --bytes decodes a tilec-gen-fuzzer input into the program
// the fuzzer compiled.
//
//===----------------------------------------------------------------------===//

#include "ProgramGenerator.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilec::gen;
namespace cl = llvm::cl;

namespace {
cl::OptionCategory category("tile-gen options");
cl::opt<uint64_t> seed("seed", cl::desc("The first seed"), cl::init(1),
                       cl::cat(category));
cl::opt<unsigned> count("count",
                        cl::desc("Programs to write (seeds SEED, SEED+1, "
                                 "...); more than one needs -o DIR/"),
                        cl::init(1), cl::cat(category));
cl::opt<std::string>
    outputPath("o",
               cl::desc("FILE.tile (and FILE.run.json), DIR/ (gen_SEED.tile "
                        "and gen_SEED.run.json there) or - (the source only)"),
               cl::value_desc("OUT"), cl::init("-"), cl::cat(category));
cl::opt<std::string>
    bytesFile("bytes",
              cl::desc("Decode the program from this file's bytes (a "
                       "tilec-gen-fuzzer input) instead of a seed"),
              cl::value_desc("FILE"), cl::cat(category));
cl::opt<bool> noDot("no-dot", cl::desc("Do not use dot"), cl::cat(category));
cl::opt<bool> noF16("no-f16", cl::desc("Do not use f16"), cl::cat(category));
cl::opt<bool> noControlFlow("no-control-flow",
                            cl::desc("No loops, if/else or static_range"),
                            cl::cat(category));
cl::opt<unsigned> maxStatements("max-statements",
                                cl::desc("The most statements per kernel"),
                                cl::init(8), cl::cat(category));

bool writeFile(const std::string &path, const std::string &text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "tile-gen: error: cannot write '" << path
                 << "': " << ec.message() << "\n";
    return false;
  }
  os << text;
  os.close();
  if (std::error_code error = os.error()) {
    os.clear_error(); // Reported here, not by the stream's destructor.
    llvm::errs() << "tile-gen: error: cannot write '" << path
                 << "': " << error.message() << "\n";
    return false;
  }
  return true;
}

/// Writes `program` to `stem`.tile and `stem`.run.json, or its source to
/// stdout for "-".
bool writeProgram(const GeneratedProgram &program, const std::string &stem) {
  if (stem == "-") {
    llvm::raw_fd_ostream &os = llvm::outs();
    os << program.source;
    os.flush();
    if (std::error_code error = os.error()) {
      os.clear_error();
      llvm::errs() << "tile-gen: error: cannot write to standard output: "
                   << error.message() << "\n";
      return false;
    }
    return true;
  }
  return writeFile(stem + ".tile", program.source) &&
         writeFile(stem + ".run.json", program.run.toJSON());
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "tile-gen: random valid .tile kernels\n");
  GenOptions options;
  options.allowDot = !noDot;
  options.allowF16 = !noF16;
  options.allowControlFlow = !noControlFlow;
  options.maxStatements = std::max(1u, maxStatements.getValue());

  std::string out = outputPath;
  bool toDir =
      !out.empty() && (out.back() == '/' || llvm::sys::fs::is_directory(out));
  if (toDir && llvm::sys::fs::create_directories(out)) {
    llvm::errs() << "tile-gen: error: cannot create '" << out << "'\n";
    return 1;
  }
  if (!bytesFile.empty()) {
    auto buffer = llvm::MemoryBuffer::getFile(bytesFile);
    if (!buffer) {
      llvm::errs() << "tile-gen: error: cannot read '" << bytesFile << "'\n";
      return 1;
    }
    llvm::StringRef bytes = (*buffer)->getBuffer();
    ByteChoices choices(reinterpret_cast<const uint8_t *>(bytes.data()),
                        bytes.size());
    GeneratedProgram program = generateProgram(choices, options);
    std::string stem = toDir ? (llvm::Twine(out) + "/gen").str() : out;
    if (llvm::StringRef(stem).ends_with(".tile"))
      stem.resize(stem.size() - 5);
    return writeProgram(program, stem) ? 0 : 1;
  }
  if (count > 1 && !toDir) {
    llvm::errs() << "tile-gen: error: --count > 1 needs -o DIR/\n";
    return 2;
  }
  for (uint64_t s = seed; s < seed + count; ++s) {
    SeededChoices choices(s);
    options.kernelName = "gen_" + std::to_string(s);
    GeneratedProgram program = generateProgram(choices, options);
    std::string stem =
        toDir ? (llvm::Twine(out) + "/" + options.kernelName).str() : out;
    if (llvm::StringRef(stem).ends_with(".tile"))
      stem.resize(stem.size() - 5);
    if (!writeProgram(program, stem))
      return 1;
  }
  return 0;
}
