//===- CApiInterpret.cpp - tilec_interpret: the C ABI's interpreter -------===//
//
// tilec_interpret() of include/tilec-c/tilec.h: the request's source parsed
// as the compiler parses it (parseRequest, TileBackend.h), its kernel
// compiled to tile IR and run by the float64 reference interpreter
// (KernelInterpreter, as `tilec --interpret`) over the caller's host
// buffers, which it reads and writes in place.
//
//===----------------------------------------------------------------------===//

#include "CApiHandles.h"

#include "tilec/Driver/KernelInterpreter.h"
#include "tilec/JIT/TileBackend.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>

using namespace tilec;
using namespace tilec::capi;

namespace {

/// The interpreter's argument for \p arg; throws on a bad description.
InterpreterArg toInterpreterArg(const tilec_interpret_arg &arg,
                                std::size_t index) {
  switch (arg.kind) {
  case TILEC_ARG_BUFFER: {
    std::string where = "tilec_interpret: argument " + std::to_string(index);
    if (!arg.dtype)
      throw Error(where + ": a buffer without a dtype");
    std::optional<ScalarType> elem = parseDTypeName(arg.dtype);
    if (!elem)
      throw Error(where + ": unknown dtype '" + std::string(arg.dtype) + "'");
    if (!arg.data && arg.bytes)
      throw Error(where + ": a buffer of " + std::to_string(arg.bytes) +
                  " bytes at a null address");
    return InterpreterArg::buffer(
        *elem, {static_cast<std::uint8_t *>(arg.data), arg.bytes});
  }
  case TILEC_ARG_INT:
    return InterpreterArg::integer(arg.int_value);
  case TILEC_ARG_FLOAT:
    return InterpreterArg::real(arg.float_value);
  }
  throw Error("tilec_interpret: argument " + std::to_string(index) +
              ": unknown kind " + std::to_string(static_cast<int>(arg.kind)));
}

} // namespace

extern "C" tilec_status tilec_interpret(const tilec_request *request,
                                        uint32_t gx, uint32_t gy, uint32_t gz,
                                        const tilec_interpret_arg *args,
                                        size_t num_args, uint64_t max_ops) {
  if (!request || (num_args && !args))
    return nullArgument("tilec_interpret", !request ? "request" : "args");
  std::vector<InterpreterArg> converted;
  tilec_status status = guarded(TILEC_ERROR_INVALID_ARGUMENT, [&] {
    for (std::size_t i = 0; i < num_args; ++i)
      converted.push_back(toInterpreterArg(args[i], i));
  });
  if (status != TILEC_SUCCESS)
    return status;
  bool badCount = false;
  status = guarded(TILEC_ERROR_COMPILE, [&] {
    const CompileRequest &req = request->request;
    std::string diagnostics;
    llvm::raw_string_ostream diagOS(diagnostics);
    ParsedRequest parsed = parseRequest(req, diagOS);
    std::unique_ptr<KernelInterpreter> interpreter = KernelInterpreter::create(
        *parsed.source, req.kernel, parsed.bindings, diagOS);
    if (!interpreter)
      throw Error(describeFailure(diagnostics, req));
    badCount = converted.size() != interpreter->getParams().size();
    if (badCount)
      throw Error("tilec: kernel '" + req.kernel + "' takes " +
                  std::to_string(interpreter->getParams().size()) +
                  " runtime arguments, got " +
                  std::to_string(converted.size()));
    InterpreterOptions options;
    options.grid = {std::int64_t(gx), std::int64_t(gy), std::int64_t(gz)};
    options.maxOps = max_ops;
    if (!interpreter->run(converted, options, diagOS))
      throw Error(describeFailure(diagnostics, req));
    llvm::outs().flush();
  });
  return badCount ? TILEC_ERROR_INVALID_ARGUMENT : status;
}
