// Bad input gets an error and exit code 1, never a crash: each case below
// would otherwise abort in the NVPTX code generator, leave an unresolved
// call in the PTX, or fail to parse.

// RUN: tile-translate --mlir-to-ptx --split-input-file --verify-diagnostics %s
// RUN: not tile-translate --mlir-to-ptx --arch=sm_75 %s 2>&1 | FileCheck %s --check-prefix=ARCH
// RUN: not tile-translate --mlir-to-ptx -O7 %s 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not tile-translate --mlir-to-ptx --ptx-version=70 %s 2>&1 | FileCheck %s --check-prefix=PTXVERSION
// RUN: not tile-translate --mlir-to-ptx --ptx-version=79 %s 2>&1 | FileCheck %s --check-prefix=PTXUNKNOWN
// RUN: not tile-translate --mlir-to-ptx %S/Inputs/bad-syntax.mlir 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not tile-translate --mlir-to-ptx --libdevice=%t.nonexistent %S/Inputs/calls-expf.mlir 2>&1 | FileCheck %s --check-prefix=NOLIB

// ARCH: error: unsupported GPU architecture 'sm_75'; expected one of sm_80 sm_86 sm_87 sm_89 sm_90 sm_90a
// OPT: error: optimization level must be 0 to 3, got 7
// PTXVERSION: error: PTX version 7.0 cannot target sm_90 (it needs 7.8 or newer)
// PTXUNKNOWN: error: unknown PTX version 79; expected 70 to 90 (7.0 to 9.0)
// SYNTAX: bad-syntax.mlir:4:17: error: use of value '%a' expects different type than prior uses: 'i64' vs 'i32'
// NOLIB: calls-expf.mlir:3:1: error: the kernel calls libdevice function '__nv_expf' but libdevice was not found at '{{.*}}nonexistent'

// An arch-specific (sm_90a) instruction on plain sm_90.
llvm.func @wgmma_on_sm90() attributes {nvvm.kernel} {
  // expected-error @+1 {{'nvvm.wgmma.fence.aligned' requires sm_90a, but the target is sm_90}}
  nvvm.wgmma.fence.aligned
  llvm.return
}

// -----

// A call of an intrinsic with the wrong result type.
llvm.func @bad_intrinsic() attributes {nvvm.kernel} {
  // expected-error @+2 {{intrinsic call returns i64 but "llvm.nvvm.read.ptx.sreg.tid.x" actually returns i32}}
  // expected-error @+1 {{LLVM Translation failed for operation: llvm.call_intrinsic}}
  %0 = llvm.call_intrinsic "llvm.nvvm.read.ptx.sreg.tid.x"() : () -> i64
  llvm.return
}

// -----

// A `__nv_` function that libdevice does not have (only checked where
// libdevice exists; without it the error says libdevice was not found).
// expected-error-re @+1 {{{{libdevice '.*' does not define '__nv_bogusf'|libdevice.10.bc was not found}}}}
llvm.func @__nv_bogusf(f32) -> f32
llvm.func @bogus(%x: f32, %out: !llvm.ptr<1>) attributes {nvvm.kernel} {
  %0 = llvm.call @__nv_bogusf(%x) : (f32) -> f32
  llvm.store %0, %out : f32, !llvm.ptr<1>
  llvm.return
}

// -----

// A kernel returns nothing (NVPTX would print a `func_retval0` store that
// ptxas rejects).
// expected-error @+1 {{kernel 'returns_value' must return void, not 'i32'}}
llvm.func @returns_value(%a: i32) -> i32 attributes {nvvm.kernel} {
  llvm.return %a : i32
}

// -----

// expected-error @+1 {{kernel 'no_body' has no body}}
llvm.func @no_body(i32) attributes {nvvm.kernel}

// -----

// Block sizes past CUDA's limits (ptxas would only warn and ignore them).
// expected-error @+1 {{kernel 'too_wide': nvvm.maxntid dimension 0 is 4096; CUDA allows 1 to 1024}}
llvm.func @too_wide() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 4096, 1, 1>} {
  llvm.return
}

// -----

// expected-error @+1 {{kernel 'too_many': nvvm.reqntid asks for 2048 threads per block; CUDA allows at most 1024}}
llvm.func @too_many() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 256, 8, 1>} {
  llvm.return
}
