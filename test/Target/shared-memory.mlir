// Dynamic shared memory and barriers: the block's threads write their
// values to an extern `.shared` array (sized at launch), synchronize, and
// read their neighbour's, the pattern of layout conversions and cross-warp
// reductions.

// RUN: tile-translate --mlir-to-ptx %s | FileCheck %s
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_80 %s -o %t.sm80.ptx && %ptxas -arch=sm_80 %t.sm80.ptx -o %t.sm80.cubin %}
// RUN: %if ptxas %{ tile-translate --mlir-to-ptx --arch=sm_90 %s -o %t.sm90.ptx && %ptxas -arch=sm_90 %t.sm90.ptx -o %t.sm90.cubin %}

// CHECK-DAG: .extern .shared .align 16 .b8 global_smem[];
// An `internal` zero-length shared array is made extern too, aligned to 16
// (NVPTX would otherwise demote it to a one-byte variable of the function).
// CHECK-DAG: .extern .shared .align 16 .b8 internal_smem[];
// CHECK-LABEL: .visible .entry rotate(
// CHECK: st.shared.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.b32
// CHECK: st.global.b32

llvm.mlir.global external @global_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>

llvm.func @rotate(%out: !llvm.ptr<1>, %in: !llvm.ptr<1>)
    attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %ntid = nvvm.read.ptx.sreg.ntid.x : i32
  %tid64 = llvm.zext %tid : i32 to i64
  %src = llvm.getelementptr %in[%tid64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %v = llvm.load %src : !llvm.ptr<1> -> f32
  %smem = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
  %mine = llvm.getelementptr %smem[%tid64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
  llvm.store %v, %mine : f32, !llvm.ptr<3>
  nvvm.barrier0
  %one = llvm.mlir.constant(1 : i32) : i32
  %next = llvm.add %tid, %one : i32
  %wrapped = llvm.urem %next, %ntid : i32
  %wrapped64 = llvm.zext %wrapped : i32 to i64
  %theirs = llvm.getelementptr %smem[%wrapped64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
  %w = llvm.load %theirs : !llvm.ptr<3> -> f32
  %dst = llvm.getelementptr %out[%tid64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  llvm.store %w, %dst : f32, !llvm.ptr<1>
  llvm.return
}

llvm.mlir.global internal @internal_smem() {addr_space = 3 : i32} : !llvm.array<0 x i8>

// CHECK-LABEL: .visible .entry broadcast(
// CHECK: mov.b32 %r{{[0-9]+}}, internal_smem;
// CHECK: st.shared.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.b32 {{.*}}[internal_smem];
llvm.func @broadcast(%out: !llvm.ptr<1>) attributes {nvvm.kernel} {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  %tid64 = llvm.zext %tid : i32 to i64
  %smem = llvm.mlir.addressof @internal_smem : !llvm.ptr<3>
  %mine = llvm.getelementptr %smem[%tid64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i32
  llvm.store %tid, %mine : i32, !llvm.ptr<3>
  nvvm.barrier0
  %first = llvm.load %smem : !llvm.ptr<3> -> i32
  %dst = llvm.getelementptr %out[%tid64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
  llvm.store %first, %dst : i32, !llvm.ptr<1>
  llvm.return
}
