//===- AxpyKernel.h - The runtime tests' PTX kernel -------------*- C++ -*-===//
//
// axpy, written in PTX for sm_70 so that the runtime tests load and launch a
// kernel without the compiler, and its metadata.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TEST_UNIT_RUNTIME_AXPYKERNEL_H
#define TILEC_TEST_UNIT_RUNTIME_AXPYKERNEL_H

#include "TestSupport/HostApi.h"

namespace tilec::test {

/// out[i] = a * x[i] for i < n; one element per thread.
inline const char *const kAxpyPtx = R"(
.version 7.0
.target sm_70
.address_size 64

.visible .entry axpy(
    .param .u64 axpy_param_0,
    .param .u64 axpy_param_1,
    .param .f32 axpy_param_2,
    .param .u32 axpy_param_3
)
{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<8>;

    ld.param.u64 %rd1, [axpy_param_0];
    ld.param.u64 %rd2, [axpy_param_1];
    ld.param.f32 %f1, [axpy_param_2];
    ld.param.u32 %r1, [axpy_param_3];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.s32 %p1, %r5, %r1;
    @%p1 bra $L_done;
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mul.wide.s32 %rd5, %r5, 4;
    add.s64 %rd6, %rd4, %rd5;
    ld.global.f32 %f2, [%rd6];
    mul.f32 %f3, %f2, %f1;
    add.s64 %rd7, %rd3, %rd5;
    st.global.f32 [%rd7], %f3;
$L_done:
    ret;
}
)";

/// The metadata of kAxpyPtx (4 warps: 128 threads a block).
inline KernelMetadata axpyMeta() {
  KernelMetadata meta = metadataOf(
      "axpy", {{"out", "*f32"}, {"x", "*f32"}, {"a", "f32"}, {"n", "i32"}});
  meta.arch = "sm_70";
  meta.numWarps = 4;
  return meta;
}

} // namespace tilec::test

#endif // TILEC_TEST_UNIT_RUNTIME_AXPYKERNEL_H
