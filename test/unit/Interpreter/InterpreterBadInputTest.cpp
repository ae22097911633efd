//===- InterpreterBadInputTest.cpp - Errors of the interpreter ------------===//
//
// What bad launches and faulty kernels get: an error naming the `.tile`
// line (or the IR's location) and a false result, never a crash. Covers
// argument mismatches, out-of-bounds and misaligned accesses, ops the
// interpreter lacks, the operation limit, and a sweep that runs every
// kernel of examples/ and test/Frontend/ with made-up arguments.
//
//===----------------------------------------------------------------------===//

#include "InterpreterTestUtils.h"
#include "tilec/Driver/Pipeline.h"

#include "TestSupport/Contains.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

using namespace tilec;
using tilec::test::contains;
using tilec::test::loadKernel;

namespace {

const char *kCopy = R"(
@kernel
def copy(out: *f32, x: *f32, n: i32):
    offs = arange(0, 8)
    store(out + offs, load(x + offs, mask=offs < n))
)";

TEST(InterpreterBadInputTest, OutOfBoundsNamesTheLine) {
  test::LoadedKernel k = loadKernel(kCopy, "copy");
  ASSERT_TRUE(k.interpreter) << k.diags;
  std::vector<float> out(8), x(4);
  EXPECT_FALSE(k.run({InterpreterArg::buffer(out), InterpreterArg::buffer(x),
                      InterpreterArg::integer(6)},
                     {1, 1, 1}));
  EXPECT_TRUE(contains(k.diags,
                       "test.tile:5:23: error: out-of-bounds load at index "
                       "[4] in program (0, 0, 0): x[4] is past the end of "
                       "'x' (4 x f32)"));
}

TEST(InterpreterBadInputTest, ArgumentsAreChecked) {
  test::LoadedKernel k = loadKernel(kCopy, "copy");
  ASSERT_TRUE(k.interpreter) << k.diags;
  std::vector<float> f(8);
  std::vector<double> d(8);
  std::vector<std::uint8_t> odd(7);
  auto expectError = [&](std::vector<InterpreterArg> args,
                         const std::string &message) {
    k.diags.clear();
    EXPECT_FALSE(k.run(args, {1, 1, 1}));
    EXPECT_TRUE(contains(k.diags, message));
  };
  expectError({InterpreterArg::buffer(f)}, "takes 3 arguments, got 1");
  expectError({InterpreterArg::buffer(f), InterpreterArg::buffer(d),
               InterpreterArg::integer(1)},
              "argument 'x' (*f32): a buffer of f64 does not match");
  expectError({InterpreterArg::buffer(f), InterpreterArg::integer(1),
               InterpreterArg::integer(1)},
              "argument 'x' (*f32): expected a buffer");
  expectError({InterpreterArg::buffer(f), InterpreterArg::buffer(f),
               InterpreterArg::buffer(f)},
              "argument 'n' (i32): expected a scalar");
  expectError({InterpreterArg::buffer(f), InterpreterArg::buffer(f),
               InterpreterArg::integer(std::int64_t(1) << 40)},
              "does not fit in 32 bits");
  expectError({InterpreterArg::buffer(f), InterpreterArg::buffer(f),
               InterpreterArg::real(1.5)},
              "expected an integer");
  expectError({InterpreterArg::buffer(f),
               InterpreterArg::buffer(ScalarType::F32, odd),
               InterpreterArg::integer(1)},
              "not a whole number of elements");
  InterpreterOptions options;
  options.grid = {0, 1, 1};
  std::string diags;
  llvm::raw_string_ostream os(diags);
  EXPECT_FALSE(
      k.interpreter->run({InterpreterArg::buffer(f), InterpreterArg::buffer(f),
                          InterpreterArg::integer(1)},
                         options, os));
  EXPECT_TRUE(contains(diags, "grid dimension 0 is 0"));
}

TEST(InterpreterBadInputTest, OperationLimitStopsEndlessLoops) {
  test::LoadedKernel k = loadKernel(R"(
@kernel
def spin(x: *i32, n: i32):
    i = 0
    while i < n:
        i = (i + 2) % 2
    store(x, i)
)",
                                    "spin");
  ASSERT_TRUE(k.interpreter) << k.diags;
  std::vector<std::int32_t> x(1);
  InterpreterOptions options;
  options.maxOps = 10000;
  llvm::raw_string_ostream os(k.diags);
  EXPECT_FALSE(k.interpreter->run(
      {InterpreterArg::buffer(x), InterpreterArg::integer(1)}, options, os));
  EXPECT_TRUE(contains(k.diags, "stopped after 10000 operations"));
}

/// Parses tile IR and interprets its function `@k` with `args`, the first
/// a buffer named `x`; returns the errors.
std::string interpretIR(llvm::StringRef ir, std::vector<InterpreterArg> args,
                        bool &ok) {
  mlir::DialectRegistry registry;
  registerTilecDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  std::string diags;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &diag) {
    diags += diag.str() + "\n";
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(ir, &context);
  if (!module) {
    ok = false;
    return "parse error: " + diags;
  }
  auto func = module->lookupSymbol<mlir::func::FuncOp>("k");
  KernelParam x;
  x.name = "x";
  x.type.isPointer = true;
  x.type.elem = args.front().elem;
  ok = succeeded(interpretFunction(func, args, {x}, {}));
  return diags;
}

TEST(InterpreterBadInputTest, UnsupportedOpIsNamed) {
  std::vector<std::int32_t> x(1);
  bool ok = true;
  std::string diags = interpretIR(R"(
    func.func @k(%x: !tile.ptr<i32>) {
      %v = tile.load %x : !tile.ptr<i32>
      %c = math.ctlz %v : i32
      tile.store %x, %c : !tile.ptr<i32>
      return
    })",
                                  {InterpreterArg::buffer(x)}, ok);
  EXPECT_FALSE(ok);
  EXPECT_TRUE(contains(diags, "the interpreter does not support 'math.ctlz'"));
}

TEST(InterpreterBadInputTest, MisalignedAccess) {
  std::vector<f16> x(8);
  bool ok = true;
  std::string diags = interpretIR(R"(
    func.func @k(%x: !tile.ptr<f16>) {
      %c1 = arith.constant 1 : i32
      %p = tile.addptr %x, %c1 : !tile.ptr<f16>, i32
      %q = tile.bitcast %p : !tile.ptr<f16> -> !tile.ptr<f32>
      %v = tile.load %q : !tile.ptr<f32>
      return
    })",
                                  {InterpreterArg::buffer(x)}, ok);
  EXPECT_FALSE(ok);
  EXPECT_TRUE(contains(diags,
                       "misaligned load in program (0, 0, 0): x[1] is not "
                       "aligned to 4 bytes"));
}

// Without tile-promote-offsets (interpretFunction takes any tile IR),
// comparisons and addresses still use exact values (SPEC 1.4).
TEST(InterpreterBadInputTest, ExactValuesWithoutThePass) {
  std::vector<std::int32_t> x(4, -1);
  bool ok = false;
  std::string diags = interpretIR(
      R"(
    func.func @k(%x: !tile.ptr<i32>, %a: i32) {
      %p = arith.muli %a, %a : i32
      %c5 = arith.constant 5 : i32
      %lt = arith.cmpi slt, %p, %c5 : i32
      %v = arith.extui %lt : i1 to i32
      tile.store %x, %v : !tile.ptr<i32>
      %e = arith.extsi %p : i32 to i64
      %c = arith.constant -4294967294 : i64
      %o = arith.addi %e, %c : i64
      %q = tile.addptr %x, %o : !tile.ptr<i32>, i64
      tile.store %q, %p : !tile.ptr<i32>
      return
    })",
      {InterpreterArg::buffer(x), InterpreterArg::integer(65536)}, ok);
  ASSERT_TRUE(ok) << diags;
  EXPECT_EQ(x, (std::vector<std::int32_t>{0, -1, 0, -1}));
}

/// Made-up arguments for every parameter: 64 Ki-element buffers of zeros,
/// integers 16 (i1: true), floats 0.5.
std::vector<InterpreterArg>
makeArguments(llvm::ArrayRef<KernelParam> params,
              std::vector<std::vector<std::uint8_t>> &memory) {
  std::vector<InterpreterArg> args;
  for (const KernelParam &param : params) {
    if (!param.type.isPointer) {
      args.push_back(isFloatType(param.type.elem) ? InterpreterArg::real(0.5)
                     : param.type.elem == ScalarType::I1
                         ? InterpreterArg::integer(1)
                         : InterpreterArg::integer(16));
      continue;
    }
    unsigned bytes = scalarTypeBytes(param.type.elem);
    memory.emplace_back((std::size_t(1) << 16) * bytes, 0);
    args.push_back(InterpreterArg::buffer(param.type.elem, memory.back()));
  }
  return args;
}

/// Every kernel of every .tile file of `dir` runs, or fails with an error
/// diagnostic.
void sweep(llvm::StringRef dir) {
  std::error_code error;
  std::string root = std::string(TILEC_SOURCE_DIR) + "/" + dir.str();
  int kernels = 0;
  for (llvm::sys::fs::directory_iterator it(root, error), end;
       it != end && !error; it.increment(error)) {
    if (llvm::sys::path::extension(it->path()) != ".tile")
      continue;
    std::string text = test::readSourceFile(
        (dir + "/" + llvm::sys::path::filename(it->path())).str());
    std::string diags;
    llvm::raw_string_ostream diagOS(diags);
    auto source = TileSource::parse(
        llvm::MemoryBuffer::getMemBufferCopy(text, it->path()), diagOS);
    ASSERT_TRUE(source) << diags;
    for (const std::string &name : source->getKernelNames()) {
      SCOPED_TRACE(it->path() + ": " + name);
      diags.clear();
      auto interpreter = KernelInterpreter::create(*source, name, {}, diagOS);
      if (!interpreter) {
        EXPECT_TRUE(contains(diags, "error:"));
        continue;
      }
      std::vector<std::vector<std::uint8_t>> memory;
      std::string printed;
      llvm::raw_string_ostream printOS(printed);
      InterpreterOptions options;
      options.grid = {2, 1, 1};
      options.printOS = &printOS;
      options.maxOps = 1000000;
      if (!interpreter->run(makeArguments(interpreter->getParams(), memory),
                            options, diagOS)) {
        EXPECT_TRUE(contains(diags, "error:"));
      }
      ++kernels;
    }
  }
  EXPECT_FALSE(error) << error.message();
  EXPECT_GT(kernels, 0);
}

TEST(InterpreterBadInputTest, EveryExampleKernelRunsOrFailsCleanly) {
  sweep("examples");
}

TEST(InterpreterBadInputTest, EveryFrontendTestKernelRunsOrFailsCleanly) {
  sweep("test/Frontend");
}

} // namespace
