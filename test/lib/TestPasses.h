//===- TestPasses.h - Passes that only tests use ----------------*- C++ -*-===//
//
// Declarations and registration of the test passes of TestPasses.td
// (test/lib/Analysis, test/lib/Dialect), which tile-opt registers.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_LIB_TESTPASSES_H
#define TILEC_TEST_LIB_TESTPASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tilec::test {
#define GEN_PASS_DECL
#include "TestPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "TestPasses.h.inc"
} // namespace tilec::test

#endif // TILEC_TEST_LIB_TESTPASSES_H
