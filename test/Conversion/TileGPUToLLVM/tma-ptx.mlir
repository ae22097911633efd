// RUN: tile-opt %s --tilegpu-pipeline -canonicalize -cse --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize -cse | tile-translate --mlir-to-ptx --arch=sm_90a | FileCheck %s
// RUN: %if ptxas %{ tile-opt %s --tilegpu-pipeline -canonicalize -cse --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize -cse | tile-translate --mlir-to-ptx --arch=sm_90a -o %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// The kernel of async-copy-ptx.mlir with a loop from 0 by 1: both operands
// are boxes (A masked along K, B unmasked), so they are copied by the copy
// engine, down to PTX that ptxas accepts for sm_90a.

// The module's tensor-map pool and its locks (zero-filled by the loader).
// CHECK: .global .align 4 .b8 __tilec_tensor_map_locks[32768];
// CHECK: .global .align 128 .b8 __tilec_tensor_maps[1048576];
// CHECK-LABEL: .visible .entry matmul(
// Thread 0 locks A's slot (which guards B's too); after a block barrier,
// lane 0 of warp 0 (A's map) and of warp 1 (B's) zero-fill a slot each,
// write the fields and release them to the copy engine.
// CHECK: %tid.x
// CHECK: atom.acquire.gpu.global.cas.b32
// CHECK: bar.sync 0;
// The map is assembled in shared memory (each lane zeroes a word, lane 0
// sets the fields) and copied to its global slot by the warp.
// CHECK: st.shared.b32 [{{.*}}], 0;
// CHECK: bar.warp.sync -1;
// CHECK: tensormap.replace.tile.global_address.shared::cta.b1024.b64
// CHECK: tensormap.replace.tile.rank.shared::cta.b1024.b32 [{{.*}}], 1;
// CHECK: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [{{.*}}], 0, 64;
// CHECK: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [{{.*}}], 1, 128;
// CHECK: tensormap.replace.tile.global_stride.shared::cta.b1024.b64
// CHECK: tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [{{.*}}], 6;
// CHECK: tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [{{.*}}], 3;
// CHECK: bar.warp.sync -1;
// CHECK: tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [{{.*}}], [{{.*}}], 128;
// CHECK-NOT: fence.proxy.tensormap::generic.acquire
// CHECK-NOT: atom.acquire.gpu.global.cas.b32
// CHECK-NOT: .global.b1024
// CHECK: tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [{{.*}}], 1, 64;
// CHECK: tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned
// Three mbarriers, then once the fences that publish every init.
// CHECK: mbarrier.init.shared::cta.b64 [{{.*}}], 1;
// CHECK-NOT: fence.mbarrier_init
// CHECK: mbarrier.init.shared::cta.b64 [{{.*}}], 1;
// CHECK-NOT: fence.mbarrier_init
// CHECK: mbarrier.init.shared::cta.b64 [{{.*}}], 1;
// CHECK-NEXT: fence.mbarrier_init.release.cluster;
// CHECK-NEXT: fence.proxy.async.shared::cta;
// CHECK: bar.sync 0;
// CHECK-COUNT-2: fence.proxy.tensormap::generic.acquire.gpu [{{.*}}], 128;
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [{{.*}}], 24576;
// CHECK-COUNT-2: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _, [{{.*}}], 24576;
// CHECK-COUNT-2: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// The loop: wait for the slot's phase, the dots, the next stage's copies.
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK: wgmma.wait_group.sync.aligned 1;
// CHECK: mbarrier.arrive.expect_tx.shared::cta.b64
// CHECK: cp.async.bulk.tensor.2d
// No cp.async anywhere.
// CHECK-NOT: cp.async.cg
// After the loop: barriers invalidated, slots unlocked.
// CHECK: mbarrier.inval.shared::cta.b64
// CHECK: st.relaxed.gpu.global.b32 [{{.*}}], 0;
// CHECK-NOT: st.relaxed.gpu.global.b32

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

    %c1 = arith.constant 1 : i32
    %kt = arith.divsi %n, %c64 : i32
    %res:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %z, %pa_k = %a0, %pb_k = %b0) -> (tensor<128x64xf32, #mma>, tensor<128x64x!tile.ptr<f16>, #a>, tensor<64x64x!tile.ptr<f16>, #a>) : i32 {
      %k64 = arith.muli %k, %c64 : i32
      %left = arith.subi %n, %k64 : i32
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
