// RUN: tile-opt %s --tilegpu-pipeline -canonicalize -cse --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize -cse | tile-translate --mlir-to-ptx --arch=sm_90a | FileCheck %s
// RUN: %if ptxas %{ tile-opt %s --tilegpu-pipeline -canonicalize -cse --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize -cse | tile-translate --mlir-to-ptx --arch=sm_90a -o %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// A small wgmma kernel pipelined with cp.async rings (3 stages) down to
// PTX that ptxas accepts for sm_90a: A (128x64 f16, masked along K) and B
// (64x64 f16) are copied two iterations ahead in 16-byte cp.async.cg.

// CHECK: .target sm_90a
// CHECK-LABEL: .visible .entry matmul(
// Prologue: two commit groups, each of a thread's 8 copies of A and 4 of B.
// CHECK-COUNT-12: cp.async.cg.shared.global [ %r{{[0-9]+}} + 0 ], [ %rd{{[0-9]+}} + 0 ], 16, %r{{[0-9]+}};
// CHECK-NOT: cp.async.cg
// CHECK: cp.async.commit_group;
// CHECK-COUNT-12: cp.async.cg.shared.global
// CHECK-NOT: cp.async.cg
// CHECK: cp.async.commit_group;
// The loop: this iteration's group has landed (no proxy fence: as Triton);
// its dots start without waiting for themselves (only for the previous
// iteration's, which for one warp group frees its slot), then the next
// copies start.
// CHECK: $L__BB0_[[LOOP:[0-9]+]]:
// CHECK-NOT: cp.async.cg
// CHECK: cp.async.wait_group 1;
// CHECK-NOT: fence.proxy.async
// CHECK-NOT: cp.async.cg
// CHECK: bar.sync 0;
// CHECK-NOT: cp.async.cg
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK-NOT: wgmma.wait_group.sync.aligned 0;
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK-NOT: bar.sync
// CHECK-COUNT-12: cp.async.cg.shared.global
// CHECK-NOT: cp.async.cg
// CHECK: cp.async.commit_group;
// CHECK: bra{{(\.uni)?}} $L__BB0_[[LOOP]];
// After the loop the last dots complete and no copy is left in flight.
// CHECK-NOT: cp.async.cg
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: cp.async.wait_group 0;
// CHECK: bar.sync 0;
// CHECK: st.global.v4.b32

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  func.func @matmul(%pc: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %pa: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pb: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %ldb: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel, tile.num_stages = 3 : i32} {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %z = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %zero = arith.constant dense<0.0> : tensor<128x64xf16, #a>
    %step_a = arith.constant dense<64> : tensor<128x64xi32, #a>
    %lda = arith.constant dense<64> : tensor<128x1xi32, #a>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %ra = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #rows>
    %ra1 = tile.expand_dims %ra {axis = 1 : i32} : tensor<128xi32, #rows> -> tensor<128x1xi32, #a>
    %ra2 = arith.muli %ra1, %lda : tensor<128x1xi32, #a>
    %ra3 = tile.broadcast %ra2 : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
    %ca = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
    %oa = arith.addi %ra3, %ca : tensor<128x64xi32, #a>
    %pas = tile.splat %pa : tensor<128x64x!tile.ptr<f16>, #a>
    %a0 = tile.addptr %pas, %oa : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
    %rb = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #rows>
    %rb1 = tile.expand_dims %rb {axis = 1 : i32} : tensor<64xi32, #rows> -> tensor<64x1xi32, #a>
    %ldbs = tile.splat %ldb : tensor<64x1xi32, #a>
    %rb2 = arith.muli %rb1, %ldbs : tensor<64x1xi32, #a>
    %rb3 = tile.broadcast %rb2 : tensor<64x1xi32, #a> -> tensor<64x64xi32, #a>
    %cb = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<64x64xi32, #a>
    %ob = arith.addi %rb3, %cb : tensor<64x64xi32, #a>
    %pbs = tile.splat %pb : tensor<64x64x!tile.ptr<f16>, #a>
    %b0 = tile.addptr %pbs, %ob : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>

    %res:3 = scf.for %k = %c0 to %n step %c64 iter_args(%acc = %z, %pa_k = %a0, %pb_k = %b0) -> (tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>, tensor<64x64x!tile.ptr<f16>, #a>) : i32 {
      %left = arith.subi %n, %k : i32
      %lefts = tile.splat %left : tensor<1x64xi32, #a>
      %m1 = arith.cmpi slt, %col, %lefts : tensor<1x64xi32, #a>
      %m = tile.broadcast %m1 : tensor<1x64xi1, #a> -> tensor<128x64xi1, #a>
      %x = tile.load %pa_k, %m, %zero : tensor<128x64x!tile.ptr<f16>, #a>
      %y = tile.load %pb_k : tensor<64x64x!tile.ptr<f16>, #a>
      %xs = tilegpu.local_alloc %x : (tensor<128x64xf16, #a>) -> !tilegpu.memdesc<128x64xf16, #s>
      %ys = tilegpu.local_alloc %y : (tensor<64x64xf16, #a>) -> !tilegpu.memdesc<64x64xf16, #s>
      %d = tilegpu.warpgroup_dot %xs, %ys, %acc : !tilegpu.memdesc<128x64xf16, #s>, !tilegpu.memdesc<64x64xf16, #s> -> tensor<128x64xf32, #mma>
      %na = tile.addptr %pa_k, %step_a : tensor<128x64x!tile.ptr<f16>, #a>, tensor<128x64xi32, #a>
      %sb = arith.muli %ldb, %c64 : i32
      %sbs = tile.splat %sb : tensor<64x64xi32, #a>
      %nb = tile.addptr %pb_k, %sbs : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
      scf.yield %d, %na, %nb : tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>, tensor<64x64x!tile.ptr<f16>, #a>
    }
    // C (128x64 f32, rows 64 apart) stored from the blocked layout.
    %acc = tilegpu.convert_layout %res#0 : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #a>
    %pcs = tile.splat %pc : tensor<128x64x!tile.ptr<f32>, #a>
    %c = tile.addptr %pcs, %oa : tensor<128x64x!tile.ptr<f32>, #a>, tensor<128x64xi32, #a>
    tile.store %c, %acc : tensor<128x64x!tile.ptr<f32>, #a>
    return
  }
}
