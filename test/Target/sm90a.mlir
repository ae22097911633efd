// sm_90a: `.target sm_90a` and the arch-specific warpgroup instructions
// (wgmma fences, register reallocation), which PTX 8.4 provides.

// RUN: tile-translate --mlir-to-ptx --arch=sm_90a %s | FileCheck %s
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_90a %s -o %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}

// CHECK: .version 8.4
// CHECK-NEXT: .target sm_90a
// CHECK-LABEL: .visible .entry warpgroup(
// CHECK: setmaxnreg.inc.sync.aligned.u32 240;
// CHECK: wgmma.fence.sync.aligned;
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: wgmma.wait_group.sync.aligned 0;
llvm.func @warpgroup() attributes {nvvm.kernel,
                                   nvvm.reqntid = array<i32: 128, 1, 1>} {
  nvvm.setmaxregister increase 240
  nvvm.wgmma.fence.aligned
  nvvm.wgmma.commit.group.sync.aligned
  nvvm.wgmma.wait.group.sync.aligned 0
  llvm.return
}
