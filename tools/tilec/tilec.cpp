//===- tilec.cpp - The tilec command-line compiler ------------------------===//
//
// tilec FILE.tile [-k KERNEL] [-D NAME=VALUE]... [--arch=...] [--emit=...]
// [-o OUT|-]: compiles the kernels of a .tile file to PTX (+ metadata JSON),
// cubin or an AOT header, or prints the IR of an earlier stage; with
// --interpret it runs one kernel on the CPU instead (Interpret.cpp). A .py
// file is a Python source whose `@triton.jit` kernel compiles with the types
// of --signature (TritonSignature.h). A .mlir
// file (or --from=tilegpu) is tilegpu IR with its layouts written, compiled
// from there on (TileGPUSource.h). Exit
// codes: 0 success, 1 bad input, 2 bad usage, 3 environment (SPEC
// section 3).
//
//===----------------------------------------------------------------------===//

#include "Interpret.h"
#include "OutputWriter.h"

#include "tilec/Driver/KernelCompiler.h"
#include "tilec/Driver/Pipeline.h"
#include "tilec/Driver/TileGPUSource.h"
#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/Sema.h"
#include "tilec/Frontend/TritonSignature.h"
#include "tilec/Runtime/CompilerBackend.h"
#include "tilec/Runtime/Files.h"
#include "tilec/Target/CudaToolkit.h"
#include "tilec/tilec.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace tilec;
namespace cl = llvm::cl;

namespace {
/// What --emit asks for: a Stage (in the same order), or an AOT header.
enum class Emit { AST, Tile, TileGPU, LLVM, PTX, Cubin, Header, Sass };
static_assert(static_cast<int>(Emit::Cubin) == static_cast<int>(Stage::Cubin),
              "Emit lists the stages in their order");

/// What the input file holds.
enum class Input {
  /// tilegpu for a .mlir file, Python for a .py file, else source.
  Auto,
  /// The .tile language.
  Source,
  /// A Python file's `@triton.jit` functions (PythonSource.h).
  Python,
  /// tilegpu IR with its layouts written (TileGPUSource.h).
  TileGPU,
};

cl::OptionCategory category("tilec options");
cl::opt<std::string>
    inputFile(cl::Positional, cl::desc("<FILE.tile | FILE.py | FILE.mlir | ->"),
              cl::cat(category));
cl::opt<Input>
    from("from",
         cl::desc("What the input is (default: tilegpu for a .mlir file, "
                  "python for a .py file, else source)"),
         cl::init(Input::Auto),
         cl::values(clEnumValN(Input::Source, "source", "a .tile source"),
                    clEnumValN(Input::Python, "python",
                               "a Python source: its @triton.jit kernel, "
                               "typed by --signature"),
                    clEnumValN(Input::TileGPU, "tilegpu",
                               "tilegpu IR whose blocks have their layouts (as "
                               "--emit=tilegpu prints it): compiled from there "
                               "on, keeping the layouts as written")),
         cl::cat(category));
cl::opt<std::string> kernelName("k", cl::desc("Compile only this kernel"),
                                cl::value_desc("KERNEL"), cl::cat(category));
cl::alias kernelAlias("kernel", cl::desc("Alias for -k"),
                      cl::aliasopt(kernelName), cl::cat(category));
cl::opt<std::string> signature(
    "signature",
    cl::desc("Types of the kernel's parameters, as Triton's AOT compiler "
             "takes them: \"*fp16:16, *fp16, i32:16, 1024\" (a type, :16 "
             "divisible by 16 / 16-byte aligned, :1 equal to 1, or a "
             "constexpr value)"),
    cl::value_desc("TYPES"), cl::cat(category));
cl::list<std::string> defines("D", cl::Prefix,
                              cl::desc("Set a constexpr parameter"),
                              cl::value_desc("NAME=VALUE"), cl::cat(category));
cl::opt<std::string>
    arch("arch",
         cl::desc("Target GPU: sm_80, sm_90, sm_90a or native; with "
                  "--emit=header a list (sm_80,sm_90a): one header, an image "
                  "per target"),
         cl::init(Target::getDefault().str()), cl::cat(category));
cl::opt<int> numWarps("num-warps",
                      cl::desc("Warps per program (overrides @kernel)"),
                      cl::init(0), cl::cat(category));
cl::opt<int> numStages("num-stages",
                       cl::desc("Pipeline stages (overrides @kernel)"),
                       cl::init(0), cl::cat(category));
cl::opt<unsigned> optLevel("O", cl::Prefix,
                           cl::desc("Optimization level: 0 or 3"), cl::init(3),
                           cl::cat(category));
cl::opt<Emit> emit(
    "emit", cl::desc("What to produce"), cl::init(Emit::PTX),
    cl::values(clEnumValN(Emit::AST, "ast", "the parsed syntax tree"),
               clEnumValN(Emit::Tile, "tile", "tile-dialect IR"),
               clEnumValN(Emit::TileGPU, "tilegpu", "laid-out tilegpu IR"),
               clEnumValN(Emit::LLVM, "llvm", "LLVM + NVVM dialect IR"),
               clEnumValN(Emit::PTX, "ptx", "PTX + metadata JSON"),
               clEnumValN(Emit::Cubin, "cubin",
                          "a cubin (through ptxas) + metadata JSON"),
               clEnumValN(Emit::Header, "header",
                          "a C++ header embedding the kernel, for AOT use"),
               clEnumValN(Emit::Sass, "sass",
                          "the cubin's SASS (the toolkit's nvdisasm or "
                          "cuobjdump) + metadata JSON")),
    cl::cat(category));
cl::opt<std::string> outputFile("o", cl::desc("Output file, DIR/ or -"),
                                cl::value_desc("OUT"), cl::cat(category));
cl::opt<unsigned> pointerAlignment(
    "pointer-alignment",
    cl::desc("Assume pointer arguments aligned to N bytes (1: no assumption)"),
    cl::init(16), cl::cat(category));
cl::list<std::string>
    divisible("divisible", cl::CommaSeparated,
              cl::desc("Integer arguments assumed to be multiples of 16"),
              cl::value_desc("NAME,..."), cl::cat(category));
cl::list<std::string> specializations(
    "specializations", cl::CommaSeparated,
    cl::desc("With --emit=header: also embed the variants of these argument "
             "specializations (a character per runtime parameter: A a "
             "16-byte aligned pointer, D a multiple of 16, U equal to 1, - "
             "nothing); launches run the one that fits best"),
    cl::value_desc("KEY,..."), cl::cat(category));
cl::list<std::string> unitParams(
    "unit", cl::CommaSeparated,
    cl::desc("Integer arguments specialized to the value 1 (unit strides)"),
    cl::value_desc("NAME,..."), cl::cat(category));
cl::opt<bool> fpFusion(
    "fp-fusion",
    cl::desc("Fuse f32/f64 multiplies and adds into fma (default on, as "
             "Triton and nvcc; --fp-fusion=false rounds each one)"),
    cl::init(true), cl::cat(category));
cl::opt<bool> lineInfo(
    "line-info",
    cl::desc("Source line information in the PTX (.loc to the kernel's "
             "file:line) for Nsight Compute and cuda-gdb; same code"),
    cl::init(false), cl::cat(category));
cl::opt<bool> spareRegisters(
    "spare-registers",
    cl::desc("With --emit=ptx: run ptxas and, where it leaves registers "
             "spare at the kernel's occupancy, add .minnctapersm so that it "
             "spends them, as the runtime and --emit=cubin do (needs ptxas)"),
    cl::init(false), cl::cat(category));
cl::opt<bool> printIRAfterAll("print-ir-after-all",
                              cl::desc("Print the IR after every pass"),
                              cl::cat(category));
cl::opt<bool> timing("timing", cl::desc("Print the time of each stage"),
                     cl::cat(category));

// --interpret (Interpret.cpp, docs/debugging.md).
cl::opt<bool> interpret(
    "interpret",
    cl::desc("Run the kernel on the CPU (float64 reference interpreter) "
             "instead of compiling it"),
    cl::cat(category));
cl::opt<std::string> grid("grid",
                          cl::desc("Program grid of --interpret (default 1)"),
                          cl::value_desc("X[,Y[,Z]]"), cl::init("1"),
                          cl::cat(category));
cl::list<std::string> interpretArgs(
    "arg",
    cl::desc("An argument of --interpret: NAME=NUMBER, or a buffer "
             "NAME=zeros:N, iota:N, rand:N, file:PATH, ..."),
    cl::value_desc("NAME=SPEC"), cl::cat(category));
cl::list<std::string>
    dumps("dump",
          cl::desc("After --interpret, print buffer NAME (or write its raw "
                   "bytes to PATH)"),
          cl::value_desc("NAME[=PATH]"), cl::cat(category));
cl::opt<std::uint64_t>
    maxOps("max-ops",
           cl::desc("Stop --interpret with an error after N operations (0: no "
                    "limit)"),
           cl::value_desc("N"), cl::init(kDefaultMaxOps), cl::cat(category));
cl::opt<unsigned> dumpCount("dump-count",
                            cl::desc("Elements --dump prints (0: all)"),
                            cl::init(16), cl::cat(category));
cl::opt<std::string>
    dumpAll("dump-all",
            cl::desc("After --interpret, write every buffer to DIR/NAME.bin"),
            cl::value_desc("DIR"), cl::cat(category));

void printVersion(llvm::raw_ostream &os) { os << getVersionString() << "\n"; }

/// Checks that the --interpret options come only with --interpret, and
/// the compile outputs only without it.
int checkInterpretUsage() {
  bool interpretOptions =
      grid.getNumOccurrences() || interpretArgs.getNumOccurrences() ||
      dumps.getNumOccurrences() || dumpCount.getNumOccurrences() ||
      dumpAll.getNumOccurrences() || maxOps.getNumOccurrences();
  if (!interpret && interpretOptions) {
    llvm::errs() << "error: --grid, --arg, --dump, --dump-count, --dump-all "
                    "and --max-ops need --interpret\n";
    return kUsageError;
  }
  if (interpret &&
      (emit.getNumOccurrences() || outputFile.getNumOccurrences())) {
    llvm::errs() << "error: --interpret runs the kernel and writes no "
                    "--emit or -o output (use --dump=NAME=PATH)\n";
    return kUsageError;
  }
  return kSuccess;
}

/// Runs `tilec --interpret` on the one kernel of `kernels`.
int runInterpretCommand(TileSource &source,
                        const std::vector<std::string> &kernels,
                        const ConstexprBindings &bindings) {
  if (kernels.size() != 1) {
    llvm::errs() << "error: --interpret runs one kernel; choose it with -k ("
                 << llvm::join(kernels, ", ") << ")\n";
    return kUsageError;
  }
  InterpretRequest request;
  request.grid = grid;
  request.args.assign(interpretArgs.begin(), interpretArgs.end());
  request.dumps.assign(dumps.begin(), dumps.end());
  request.dumpCount = dumpCount;
  request.dumpAll = dumpAll;
  request.maxOps = maxOps;
  return runInterpret(source, kernels.front(), bindings, request);
}

/// Resolves one target of --arch (native: the target of GPU 0, through the
/// driver; exit code 3 without a GPU).
int resolveArch(const std::string &arch, std::string &resolved) {
  resolved = arch;
  if (arch != "native") {
    if (Target::parse(arch))
      return kSuccess;
    llvm::errs() << "error: unknown --arch '" << arch << "' ("
                 << Target::getSupportedNames() << " or native)\n";
    return kUsageError;
  }
  std::string why;
  if (!Device::driverAvailable(&why)) {
    llvm::errs() << "error: --arch=native needs a GPU: " << why << "\n";
    return kEnvError;
  }
  try {
    auto [major, minor] = Device::open(0).computeCapability();
    resolved = Target::forDevice(major, minor).str();
  } catch (const std::exception &e) {
    llvm::errs() << "error: --arch=native: " << e.what() << "\n";
    return kEnvError;
  }
  return kSuccess;
}

/// Checks the options that a tilegpu input cannot take: its IR states
/// its constexpr values and assumptions itself.
int checkTileGPUInputUsage() {
  if (interpret) {
    llvm::errs() << "error: --interpret runs a .tile source, not a tilegpu "
                    "input\n";
    return kUsageError;
  }
  if (defines.getNumOccurrences() || divisible.getNumOccurrences() ||
      unitParams.getNumOccurrences() || pointerAlignment.getNumOccurrences()) {
    llvm::errs() << "error: -D, --divisible, --unit and --pointer-alignment "
                    "specialize a .tile source; a tilegpu input states its "
                    "assumptions in its IR (tile.divisibility on arguments)\n";
    return kUsageError;
  }
  if (emit == Emit::AST || emit == Emit::Tile) {
    llvm::errs() << "error: a tilegpu input starts after layout assignment: "
                    "--emit=ast and --emit=tile need a .tile source\n";
    return kUsageError;
  }
  return kSuccess;
}

/// The stage that makes what --emit asks for.
Stage getStage(Emit kind) {
  // A header embeds the cubin when ptxas is there, else the PTX.
  if (kind == Emit::Header)
    return findPtxas().empty() ? Stage::PTX : Stage::Cubin;
  if (kind == Emit::Sass)
    return Stage::Cubin;
  // Emit lists the stages in their order, then Header and Sass.
  return static_cast<Stage>(static_cast<int>(kind));
}

/// The input's text in a buffer named after the file ("<stdin>" for -).
std::unique_ptr<llvm::MemoryBuffer> getInputBuffer(const std::string &text) {
  return llvm::MemoryBuffer::getMemBufferCopy(
      text, inputFile == "-" ? "<stdin>" : inputFile.getValue());
}

/// The kernels to compile: -k's, else `all` of the file; empty after an
/// error saying that the file has no `what`.
std::vector<std::string> selectKernels(std::vector<std::string> all,
                                       llvm::StringRef what) {
  if (!kernelName.empty())
    return {kernelName};
  if (all.empty())
    llvm::errs() << "error: " << inputFile << ": no " << what
                 << " in the file\n";
  return all;
}

/// The kernel of a Python source: -k's, else the one `@triton.jit` function
/// that no other calls; empty after an error (exit code in `code`).
std::vector<std::string> selectPythonKernel(std::vector<std::string> all,
                                            int &code) {
  if (!kernelName.empty())
    return {kernelName};
  if (all.size() == 1)
    return all;
  if (all.empty()) {
    llvm::errs() << "error: " << inputFile
                 << ": no @triton.jit function in the file\n";
    code = kInputError;
  } else {
    llvm::errs() << "error: " << inputFile << " has several @triton.jit "
                 << "kernels; choose one with -k (" << llvm::join(all, ", ")
                 << ")\n";
    code = kUsageError;
  }
  return {};
}

/// Applies --signature (parsed into `entries`) to the one kernel of
/// `kernels`; the exit code.
int applySignature(TileSource &source, const std::vector<std::string> &kernels,
                   llvm::ArrayRef<SignatureEntry> entries,
                   ConstexprBindings &bindings, CompileOptions &options) {
  if (kernels.size() != 1) {
    llvm::errs() << "error: --signature types one kernel; choose it with -k ("
                 << llvm::join(kernels, ", ") << ")\n";
    return kUsageError;
  }
  const ast::Function *fn = source.getModule().lookup(kernels.front());
  // An unknown kernel is reported by the compile.
  if (!fn)
    return kSuccess;
  DiagnosticEngine diags(source.getSourceMgr(), llvm::errs());
  bool keepAlignment = pointerAlignment.getNumOccurrences() > 0;
  return applyTritonSignature(*fn, entries, bindings, options, keepAlignment,
                              diags)
             ? kSuccess
             : kInputError;
}

/// Compiles each of `kernels` with `compileOne` to `stage` and writes the
/// outputs (-o); the exit code.
int compileKernels(const std::vector<std::string> &kernels, Stage stage,
                   llvm::function_ref<std::optional<CompileResult>(
                       llvm::StringRef, CompileFailure &)>
                       compileOne) {
  bool multiple = kernels.size() > 1;
  int status = kSuccess;
  std::string combined;
  for (const std::string &kernel : kernels) {
    CompileFailure failure;
    auto result = compileOne(kernel, failure);
    if (!result) {
      if (failure == CompileFailure::Environment)
        return kEnvError;
      status = kInputError;
      continue;
    }
    if (stage < Stage::PTX) {
      combined += printModule(*result->module);
      continue;
    }
    BinaryKind kind = emit == Emit::Cubin    ? BinaryKind::Cubin
                      : emit == Emit::Header ? BinaryKind::Header
                      : emit == Emit::Sass   ? BinaryKind::Sass
                                             : BinaryKind::PTX;
    if (int code = writeKernelOutput(*result, kind, outputFile, multiple))
      return code;
  }
  if (status == kSuccess && stage < Stage::PTX)
    return writeTextOutput(combined, outputFile);
  return status;
}

/// The --specializations keys made fit kernel \p meta's runtime parameters
/// (pointers all 'A' or all '-', as variants assume them); an error naming
/// a key of the wrong length or with another character.
std::optional<std::vector<std::string>>
checkSpecializations(const KernelMetadata &meta) {
  std::vector<std::string> keys;
  std::string names;
  for (const KernelParam &param : meta.params)
    names += (names.empty() ? "" : ", ") + param.name;
  for (llvm::StringRef key : specializations) {
    key = key.trim();
    if (key.size() != meta.params.size() ||
        key.find_first_not_of("AD-U") != llvm::StringRef::npos) {
      llvm::errs() << "error: --specializations key '" << key
                   << "' does not fit kernel '" << meta.kernel << "': give "
                   << meta.params.size()
                   << " characters, one per runtime parameter (" << names
                   << "): A a 16-byte aligned pointer, D a multiple of 16, U "
                      "equal to 1, - nothing\n";
      return std::nullopt;
    }
    std::string fitted = key.str();
    bool aligned = true;
    for (size_t i = 0; i < fitted.size(); ++i)
      if (meta.params[i].type.isPointer)
        aligned = aligned && fitted[i] == 'A';
    for (size_t i = 0; i < fitted.size(); ++i)
      if (meta.params[i].type.isPointer)
        fitted[i] = aligned ? 'A' : '-';
      else if (fitted[i] == 'A' || isFloatType(meta.params[i].type.elem))
        fitted[i] = '-';
    keys.push_back(fitted);
  }
  return keys;
}

/// `--emit=header` with several targets (`--arch=A,B,...`) or
/// `--specializations`: each kernel compiled for every target, as given
/// and then for each specialization, into one header
/// (writeMultiVariantHeader).
int compileMultiVariantHeaders(
    const std::vector<std::string> &kernels,
    const std::vector<std::string> &archs, Stage stage,
    llvm::function_ref<std::optional<CompileResult>(
        llvm::StringRef, const CompileOptions &, CompileFailure &)>
        compileWith,
    const CompileOptions &options) {
  int status = kSuccess;
  for (const std::string &kernel : kernels) {
    std::vector<HeaderVariant> variants;
    bool failed = false;
    for (const std::string &target : archs) {
      CompileOptions forTarget = options;
      forTarget.arch = target;
      CompileFailure failure;
      std::optional<CompileResult> generic =
          compileWith(kernel, forTarget, failure);
      if (!generic) {
        if (failure == CompileFailure::Environment)
          return kEnvError;
        failed = true;
        break;
      }
      std::optional<std::vector<std::string>> keys =
          checkSpecializations(generic->metadata);
      if (!keys)
        return kUsageError;
      std::vector<KernelParam> params = generic->metadata.params;
      variants.push_back({std::move(*generic), ""});
      for (const std::string &key : *keys) {
        CompileOptions specialized = forTarget;
        specializeOptions(specialized, params, key);
        std::optional<CompileResult> variant =
            compileWith(kernel, specialized, failure);
        if (!variant) {
          if (failure == CompileFailure::Environment)
            return kEnvError;
          failed = true;
          break;
        }
        variants.push_back({std::move(*variant), key});
      }
      if (failed)
        break;
    }
    if (failed) {
      status = kInputError;
      continue;
    }
    if (int code =
            writeMultiVariantHeader(variants, outputFile, kernels.size() > 1))
      return code;
  }
  return status;
}

/// `tilec FILE.mlir`: compiles the kernels of a tilegpu input.
int compileTileGPUInput(const std::string &text,
                        const CompileOptions &options) {
  if (int code = checkTileGPUInputUsage())
    return code;
  KernelCompiler compiler;
  std::unique_ptr<TileGPUSource> source = TileGPUSource::parse(
      getInputBuffer(text), compiler.getContext(), llvm::errs());
  if (!source)
    return kInputError;
  std::vector<std::string> kernels = selectKernels(
      source->getKernelNames(), "func.func with the tile.kernel attribute");
  if (kernels.empty())
    return kInputError;
  Stage stage = getStage(emit);
  return compileKernels(
      kernels, stage, [&](llvm::StringRef kernel, CompileFailure &failure) {
        return compiler.compile(*source, kernel, options, stage, llvm::errs(),
                                &failure);
      });
}

int run(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter(printVersion);
  std::string usageErrors;
  llvm::raw_string_ostream usageOS(usageErrors);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "tilec: compile .tile kernels to PTX\n\n"
          "  tilec softmax.tile                 -> softmax.ptx + softmax.json\n"
          "  tilec mm.tile -k matmul -D BLOCK_M=64 --arch=sm_80 -o out/\n"
          "  tilec k.tile --emit=tile           (print the tile IR)\n"
          "  tilec add.py -k add_kernel --signature \"*fp32:16, *fp32:16, "
          "*fp32:16, i32, 1024\"\n"
          "                                     (a @triton.jit kernel of a "
          "Python file)\n"
          "  tilec k.mlir --arch=sm_90a         (tilegpu IR with its layouts:\n"
          "                                     compiled keeping them)\n"
          "  tilec add.tile --interpret --grid=4 --arg x=rand:1000 ...\n"
          "                                     (run on the CPU)\n",
          &usageOS)) {
    llvm::errs() << usageErrors;
    return kUsageError;
  }
  if (inputFile.empty()) {
    llvm::errs() << "error: no input file (try --help)\n";
    return kUsageError;
  }
  if (int code = checkInterpretUsage())
    return code;
  std::vector<SignatureEntry> signatureEntries;
  if (signature.getNumOccurrences()) {
    std::string error;
    auto parsed = parseTritonSignature(signature, error);
    if (!parsed) {
      llvm::errs() << "error: --signature: " << error << "\n";
      return kUsageError;
    }
    signatureEntries = std::move(*parsed);
  }
  ConstexprBindings bindings;
  for (const std::string &define : defines) {
    std::string error;
    if (!parseConstexprDefine(define, bindings, error)) {
      llvm::errs() << "error: -D " << define << ": " << error << "\n";
      return kUsageError;
    }
  }
  CompileOptions options;
  // --interpret targets no GPU, so --arch=native needs none. Several
  // targets (--arch=sm_80,sm_90a) make one AOT header holding them all.
  std::vector<std::string> archs;
  if (!interpret) {
    llvm::SmallVector<llvm::StringRef> names;
    llvm::StringRef(arch).split(names, ',');
    for (llvm::StringRef name : names) {
      if (int code = resolveArch(name.trim().str(), archs.emplace_back()))
        return code;
    }
    if (archs.size() > 1 && emit != Emit::Header) {
      llvm::errs() << "error: several --arch targets make one AOT header: "
                      "they need --emit=header\n";
      return kUsageError;
    }
    if (!specializations.empty() && emit != Emit::Header) {
      llvm::errs() << "error: --specializations embeds variants in an AOT "
                      "header: it needs --emit=header\n";
      return kUsageError;
    }
    options.arch = archs.front();
  }
  options.numWarps = numWarps;
  options.numStages = numStages;
  options.optLevel = optLevel;
  options.pointerAlignment = pointerAlignment;
  options.divisibleParams.assign(divisible.begin(), divisible.end());
  options.unitParams.assign(unitParams.begin(), unitParams.end());
  options.fpFusion = fpFusion;
  options.lineInfo = lineInfo;
  options.spareRegisters = spareRegisters;
  options.printIRAfterAll = printIRAfterAll;
  options.timing = timing;
  if (std::string error = options.validate(); !error.empty()) {
    llvm::errs() << "error: " << error << "\n";
    return kUsageError;
  }

  // Bounded (detail::kMaxSourceBytes): `tilec /dev/zero` is an error.
  std::string text;
  try {
    text = detail::readSource(inputFile);
  } catch (const Error &e) {
    llvm::errs() << "error: " << e.what() << "\n";
    return kInputError;
  }
  bool tilegpuInput =
      from == Input::TileGPU ||
      (from == Input::Auto && llvm::StringRef(inputFile).ends_with(".mlir"));
  if (tilegpuInput) {
    if (archs.size() > 1) {
      llvm::errs() << "error: several --arch targets need a .tile or .py "
                      "source\n";
      return kUsageError;
    }
    if (signature.getNumOccurrences()) {
      llvm::errs() << "error: --signature types the parameters of a source's "
                      "kernel; a tilegpu input states them in its IR\n";
      return kUsageError;
    }
    return compileTileGPUInput(text, options);
  }
  bool python =
      from == Input::Python ||
      (from == Input::Auto && llvm::StringRef(inputFile).ends_with(".py"));
  std::unique_ptr<TileSource> source = TileSource::parse(
      getInputBuffer(text), llvm::errs(),
      python ? SourceLanguage::Python : SourceLanguage::Tile, kernelName);
  if (!source)
    return kInputError;

  std::vector<std::string> kernels;
  if (python) {
    int code = kSuccess;
    kernels = selectPythonKernel(source->getKernelNames(), code);
    if (kernels.empty())
      return code;
  } else {
    kernels = selectKernels(source->getKernelNames(), "@kernel function");
    if (kernels.empty())
      return kInputError;
  }
  if (signature.getNumOccurrences()) {
    if (int code = applySignature(*source, kernels, signatureEntries, bindings,
                                  options))
      return code;
  }

  if (interpret)
    return runInterpretCommand(*source, kernels, bindings);

  Stage stage = getStage(emit);
  KernelCompiler compiler;
  if (stage == Stage::AST) {
    auto result = compiler.compile(*source, kernels.front(), bindings, options,
                                   stage, llvm::errs());
    return result ? writeTextOutput(result->text, outputFile) : kInputError;
  }
  if (archs.size() > 1 || !specializations.empty())
    return compileMultiVariantHeaders(
        kernels, archs, stage,
        [&](llvm::StringRef kernel, const CompileOptions &variantOptions,
            CompileFailure &failure) {
          return compiler.compile(*source, kernel, bindings, variantOptions,
                                  stage, llvm::errs(), &failure);
        },
        options);
  return compileKernels(
      kernels, stage, [&](llvm::StringRef kernel, CompileFailure &failure) {
        return compiler.compile(*source, kernel, bindings, options, stage,
                                llvm::errs(), &failure);
      });
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // tilec's messages echo file names and option values: one with a control
  // character (a terminal escape) is refused before anything echoes it.
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (tilec::escapeControlCharacters(arg) != arg) {
      llvm::errs() << "error: argument " << i << " ('"
                   << tilec::escapeControlCharacters(arg)
                   << "') has control characters; tilec takes none in its "
                      "arguments (file names, option values)\n";
      return kUsageError;
    }
  }
  int code = run(argc, argv);
  // Anything written to stdout that was lost (a full disk) is exit code 3,
  // with a message, not LLVM's "IO failure" abort at exit.
  int outputCode = checkStandardOutput();
  return code != kSuccess ? code : outputCode;
}
