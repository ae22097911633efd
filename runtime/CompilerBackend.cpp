//===- CompilerBackend.cpp - Requests for specialized variants -----------===//
//
// specializeRequest() (CompilerBackend.h): the compile request of one variant
// of Triton-like argument specialization, from the specializationKey() of a
// launch (Arguments.h). Compiler's specializing kernels and the C ABI both
// compile their variants through it.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/CompilerBackend.h"

using namespace tilec;

CompileRequest tilec::specializeRequest(CompileRequest request,
                                        const std::vector<KernelParam> &params,
                                        const std::string &key) {
  specializeOptions(request.options, params, key);
  return request;
}

void tilec::specializeOptions(CompileOptions &options,
                              const std::vector<KernelParam> &params,
                              const std::string &key) {
  bool aligned = true;
  options.divisibleParams.clear();
  options.unitParams.clear();
  for (std::size_t i = 0; i < params.size() && i < key.size(); ++i) {
    if (params[i].type.isPointer)
      aligned = aligned && key[i] == 'A';
    else if (key[i] == 'D')
      options.divisibleParams.push_back(params[i].name);
    else if (key[i] == 'U')
      options.unitParams.push_back(params[i].name);
  }
  options.pointerAlignment = aligned ? 16 : 1;
}
