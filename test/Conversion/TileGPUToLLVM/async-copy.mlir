// RUN: tile-opt %s -split-input-file --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// Asynchronous copies into swizzled tiles: each run of 4, 8 or 16 bytes a
// thread holds contiguously (its vector width from the axis analysis, the
// mask one value over it) is one cp.async to the run's swizzled address,
// copying 0 bytes where masked off (the hardware writes zeros); narrower
// runs are loaded and stored synchronously. Also the commit, wait and
// proxy fence, and memdesc_index (the ring's base plus index * tile bytes).

// 64x64 f16, 8 contiguous halves per thread from a 16-byte aligned base,
// masked by column < n with n a multiple of 16: four 16-byte cp.async.cg
// per thread (one per row it holds), each copying 16 or 0 bytes.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @copy16
  // CHECK-SAME: (%[[P:[^:]*]]: !llvm.ptr<1>, %[[N:[^:]*]]: i32, %[[I:[^:]*]]: i32)
  // CHECK-DAG: %[[TILE:.*]] = llvm.mlir.constant(8192 : i32) : i32
  // CHECK-DAG: %[[SMEM:.*]] = llvm.mlir.addressof @global_smem : !llvm.ptr<3>
  // CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-DAG: %[[C2048:.*]] = llvm.mlir.constant(2048 : i32) : i32
  // CHECK-DAG: %[[C4096:.*]] = llvm.mlir.constant(4096 : i32) : i32
  // CHECK-DAG: %[[C6144:.*]] = llvm.mlir.constant(6144 : i32) : i32
  // CHECK: %[[G0:.*]] = llvm.getelementptr %[[P]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f16
  // CHECK: %[[M:.*]] = llvm.icmp "slt" %{{.*}}, %[[N]] : i32
  // Tile %i of the ring: 64 * 64 * 2 = 8192 bytes each.
  // CHECK-NEXT: %[[OFF:.*]] = llvm.mul %[[I]], %[[TILE]] : i32
  // CHECK-NEXT: %[[T:.*]] = llvm.getelementptr %[[SMEM]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // The thread's swizzled offset (its 16-byte chunk XOR row % 8) once; its
  // other rows are 16, 32 and 48 rows of 128 bytes further, the swizzle the
  // same: the offset plus a constant (an address immediate in SASS).
  // CHECK: %[[X1:.*]] = llvm.add %[[X:.*]], %[[C2048]] overflow<nsw, nuw> : i32
  // CHECK-NEXT: %[[X2:.*]] = llvm.add %[[X]], %[[C4096]] overflow<nsw, nuw> : i32
  // CHECK-NEXT: %[[X3:.*]] = llvm.add %[[X]], %[[C6144]] overflow<nsw, nuw> : i32
  // CHECK-NEXT: %[[D:.*]] = llvm.getelementptr %[[T]][%[[X]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[SIZE:.*]] = llvm.select %[[M]], %[[C16]], %[[C0]] : i1, i32
  // CHECK-NEXT: %[[DI:.*]] = llvm.ptrtoint %[[D]] : !llvm.ptr<3> to i32
  // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "cp.async.cg.shared.global [ $0 + 0 ], [ $1 + 0 ], 16, $2;", "r,l,r" %[[DI]], %[[G0]], %[[SIZE]] : (i32, !llvm.ptr<1>, i32) -> ()
  // CHECK-NEXT: llvm.getelementptr %[[T]][%[[X1]]]
  // CHECK: "cp.async.cg.shared.global [ $0 + 0 ], [ $1 + 0 ], 16, $2;", "r,l,r"
  // CHECK-NEXT: llvm.getelementptr %[[T]][%[[X2]]]
  // CHECK: "cp.async.cg.shared.global [ $0 + 0 ], [ $1 + 0 ], 16, $2;", "r,l,r"
  // CHECK-NEXT: llvm.getelementptr %[[T]][%[[X3]]]
  // CHECK: "cp.async.cg.shared.global [ $0 + 0 ], [ $1 + 0 ], 16, $2;", "r,l,r"
  // CHECK-NOT: cp.async.c
  // CHECK-NOT: ld.global
  // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "cp.async.commit_group;", ""  : () -> ()
  // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "cp.async.wait_group 2;", ""  : () -> ()
  // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "cp.async.wait_group 0;", ""  : () -> ()
  // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "fence.proxy.async.shared::cta;", ""  : () -> ()
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NEXT: llvm.return
  func.func @copy16(%p: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %i: i32) attributes {tile.kernel} {
    %c64 = arith.constant dense<64> : tensor<64x1xi32, #a>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %rr = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #rows>
    %row = tile.expand_dims %rr {axis = 1 : i32} : tensor<64xi32, #rows> -> tensor<64x1xi32, #a>
    %ro = arith.muli %row, %c64 : tensor<64x1xi32, #a>
    %rb = tile.broadcast %ro : tensor<64x1xi32, #a> -> tensor<64x64xi32, #a>
    %cb = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<64x64xi32, #a>
    %o = arith.addi %rb, %cb : tensor<64x64xi32, #a>
    %ps = tile.splat %p : tensor<64x64x!tile.ptr<f16>, #a>
    %ptrs = tile.addptr %ps, %o : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
    %ns = tile.splat %n : tensor<1x64xi32, #a>
    %m1 = arith.cmpi slt, %col, %ns : tensor<1x64xi32, #a>
    %m = tile.broadcast %m1 : tensor<1x64xi1, #a> -> tensor<64x64xi1, #a>
    %ring = tilegpu.local_alloc : () -> !tilegpu.memdesc<3x64x64xf16, #s>
    %t = tilegpu.memdesc_index %ring[%i] : !tilegpu.memdesc<3x64x64xf16, #s> -> !tilegpu.memdesc<64x64xf16, #s>
    tilegpu.async_copy_global_to_local %ptrs, %t, %m : tensor<64x64x!tile.ptr<f16>, #a> -> !tilegpu.memdesc<64x64xf16, #s> mask tensor<64x64xi1, #a>
    tilegpu.async_commit_group
    tilegpu.async_wait {num = 2 : i32}
    tilegpu.async_wait {num = 0 : i32}
    tilegpu.fence_async_shared
    tilegpu.barrier
    return
  }
}

// -----

// 16x32 f16, 4 contiguous halves per thread, unmasked: one 8-byte
// cp.async.ca (through L1) per thread, always copying all 8 bytes.
#a = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 64, order = [1, 0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @copy8
  // CHECK-DAG: %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK-NOT: llvm.select
  // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 8, $2;", "r,l,r" %{{.*}}, %{{.*}}, %[[C8]] : (i32, !llvm.ptr<1>, i32) -> ()
  // CHECK-NOT: cp.async
  // CHECK: llvm.return
  func.func @copy8(%p: !tile.ptr<f16> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c32 = arith.constant dense<32> : tensor<16x1xi32, #a>
    %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #cols> -> tensor<1x32xi32, #a>
    %rr = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #rows>
    %row = tile.expand_dims %rr {axis = 1 : i32} : tensor<16xi32, #rows> -> tensor<16x1xi32, #a>
    %ro = arith.muli %row, %c32 : tensor<16x1xi32, #a>
    %rb = tile.broadcast %ro : tensor<16x1xi32, #a> -> tensor<16x32xi32, #a>
    %cb = tile.broadcast %col : tensor<1x32xi32, #a> -> tensor<16x32xi32, #a>
    %o = arith.addi %rb, %cb : tensor<16x32xi32, #a>
    %ps = tile.splat %p : tensor<16x32x!tile.ptr<f16>, #a>
    %ptrs = tile.addptr %ps, %o : tensor<16x32x!tile.ptr<f16>, #a>, tensor<16x32xi32, #a>
    %t = tilegpu.local_alloc : () -> !tilegpu.memdesc<16x32xf16, #s>
    tilegpu.async_copy_global_to_local %ptrs, %t : tensor<16x32x!tile.ptr<f16>, #a> -> !tilegpu.memdesc<16x32xf16, #s>
    return
  }
}

// -----

// 16x32 f32, one element per thread and row: four 4-byte cp.async.ca per
// thread, each with its own mask.
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #b}>
#cols = #tilegpu.slice<{dim = 0, parent = #b}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @copy4
  // CHECK-DAG: %[[C4:.*]] = llvm.mlir.constant(4 : i32) : i32
  // CHECK-DAG: %[[C0:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-COUNT-4: %{{.*}} = llvm.icmp "slt"
  // CHECK-NOT: cp.async
  // CHECK: %[[SIZE:.*]] = llvm.select %{{.*}}, %[[C4]], %[[C0]] : i1, i32
  // CHECK-NEXT: %[[DI:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i32
  // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 4, $2;", "r,l,r" %[[DI]], %{{.*}}, %[[SIZE]] : (i32, !llvm.ptr<1>, i32) -> ()
  // CHECK-COUNT-3: "cp.async.ca.shared.global [ $0 + 0 ], [ $1 + 0 ], 4, $2;", "r,l,r"
  // CHECK-NOT: cp.async
  // CHECK-NOT: ld.global
  // CHECK: llvm.return
  func.func @copy4(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.kernel} {
    %c32 = arith.constant dense<32> : tensor<16x1xi32, #b>
    %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #cols> -> tensor<1x32xi32, #b>
    %rr = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #rows>
    %row = tile.expand_dims %rr {axis = 1 : i32} : tensor<16xi32, #rows> -> tensor<16x1xi32, #b>
    %ro = arith.muli %row, %c32 : tensor<16x1xi32, #b>
    %rb = tile.broadcast %ro : tensor<16x1xi32, #b> -> tensor<16x32xi32, #b>
    %cb = tile.broadcast %col : tensor<1x32xi32, #b> -> tensor<16x32xi32, #b>
    %o = arith.addi %rb, %cb : tensor<16x32xi32, #b>
    %ps = tile.splat %p : tensor<16x32x!tile.ptr<f32>, #b>
    %ptrs = tile.addptr %ps, %o : tensor<16x32x!tile.ptr<f32>, #b>, tensor<16x32xi32, #b>
    %ns = tile.splat %n : tensor<1x32xi32, #b>
    %m1 = arith.cmpi slt, %col, %ns : tensor<1x32xi32, #b>
    %m = tile.broadcast %m1 : tensor<1x32xi1, #b> -> tensor<16x32xi1, #b>
    %t = tilegpu.local_alloc : () -> !tilegpu.memdesc<16x32xf32, #s>
    tilegpu.async_copy_global_to_local %ptrs, %t, %m : tensor<16x32x!tile.ptr<f32>, #b> -> !tilegpu.memdesc<16x32xf32, #s> mask tensor<16x32xi1, #b>
    return
  }
}

// -----

// 16x64 f16, one element per thread and row: 2 bytes are under what
// cp.async copies, so each element is loaded (0 where masked off) and
// stored to its swizzled address; the later wait and barrier order these
// stores as well.
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #b}>
#cols = #tilegpu.slice<{dim = 0, parent = #b}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @copy2
  // CHECK-DAG: %[[Z:.*]] = llvm.mlir.constant(0.000000e+00 : f16) : f16
  // CHECK-NOT: cp.async
  // The thread's offset once; its other elements are 8 columns (16-byte
  // chunks) further, bits the row's swizzle also flips: each XORs a constant.
  // CHECK: llvm.xor %[[X:.*]], %{{.*}} : i32
  // CHECK-COUNT-6: llvm.xor %[[X]], %{{.*}} : i32
  // CHECK-NEXT: %[[D:.*]] = llvm.getelementptr %{{.*}}[%[[X]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK-NEXT: %[[ZI:.*]] = llvm.bitcast %[[Z]] : f16 to i16
  // CHECK-NEXT: %[[V:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "mov.b16 $0, $3;\0A\09@$2 ld.global.b16 $0, [ $1 + 0 ];", "=h,l,b,h" %{{.*}}, %{{.*}}, %[[ZI]] : (!llvm.ptr<1>, i1, i16) -> i16
  // CHECK-NEXT: %[[H:.*]] = llvm.bitcast %[[V]] : i16 to f16
  // CHECK-NEXT: llvm.store %[[H]], %[[D]] : f16, !llvm.ptr<3>
  // CHECK-COUNT-7: "mov.b16 $0, $3;\0A\09@$2 ld.global.b16 $0, [ $1 + 0 ];", "=h,l,b,h"
  // CHECK-NOT: cp.async
  // CHECK-NOT: ld.global
  // CHECK: llvm.return
  func.func @copy2(%p: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %c64 = arith.constant dense<64> : tensor<16x1xi32, #b>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #b>
    %rr = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #rows>
    %row = tile.expand_dims %rr {axis = 1 : i32} : tensor<16xi32, #rows> -> tensor<16x1xi32, #b>
    %ro = arith.muli %row, %c64 : tensor<16x1xi32, #b>
    %rb = tile.broadcast %ro : tensor<16x1xi32, #b> -> tensor<16x64xi32, #b>
    %cb = tile.broadcast %col : tensor<1x64xi32, #b> -> tensor<16x64xi32, #b>
    %o = arith.addi %rb, %cb : tensor<16x64xi32, #b>
    %ps = tile.splat %p : tensor<16x64x!tile.ptr<f16>, #b>
    %ptrs = tile.addptr %ps, %o : tensor<16x64x!tile.ptr<f16>, #b>, tensor<16x64xi32, #b>
    %ns = tile.splat %n : tensor<1x64xi32, #b>
    %m1 = arith.cmpi slt, %col, %ns : tensor<1x64xi32, #b>
    %m = tile.broadcast %m1 : tensor<1x64xi1, #b> -> tensor<16x64xi1, #b>
    %t = tilegpu.local_alloc : () -> !tilegpu.memdesc<16x64xf16, #s>
    tilegpu.async_copy_global_to_local %ptrs, %t, %m : tensor<16x64x!tile.ptr<f16>, #b> -> !tilegpu.memdesc<16x64xf16, #s> mask tensor<16x64xi1, #b>
    return
  }
}

// -----

// Contiguous, aligned halves but a bound of unknown alignment: the mask may
// change inside a run, so the runs are split into single elements, loaded
// and stored synchronously.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #a}>
#cols = #tilegpu.slice<{dim = 0, parent = #a}>
#s = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @ragged_mask
  // CHECK-NOT: cp.async
  // CHECK-COUNT-8: "mov.b16 $0, $3;\0A\09@$2 ld.global.b16 $0, [ $1 + 0 ];", "=h,l,b,h"
  // CHECK-NOT: cp.async
  // CHECK-NOT: ld.global
  // CHECK: llvm.return
  func.func @ragged_mask(%p: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.kernel} {
    %c64 = arith.constant dense<64> : tensor<16x1xi32, #a>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #cols>
    %col = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #a>
    %rr = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #rows>
    %row = tile.expand_dims %rr {axis = 1 : i32} : tensor<16xi32, #rows> -> tensor<16x1xi32, #a>
    %ro = arith.muli %row, %c64 : tensor<16x1xi32, #a>
    %rb = tile.broadcast %ro : tensor<16x1xi32, #a> -> tensor<16x64xi32, #a>
    %cb = tile.broadcast %col : tensor<1x64xi32, #a> -> tensor<16x64xi32, #a>
    %o = arith.addi %rb, %cb : tensor<16x64xi32, #a>
    %ps = tile.splat %p : tensor<16x64x!tile.ptr<f16>, #a>
    %ptrs = tile.addptr %ps, %o : tensor<16x64x!tile.ptr<f16>, #a>, tensor<16x64xi32, #a>
    %ns = tile.splat %n : tensor<1x64xi32, #a>
    %m1 = arith.cmpi slt, %col, %ns : tensor<1x64xi32, #a>
    %m = tile.broadcast %m1 : tensor<1x64xi1, #a> -> tensor<16x64xi1, #a>
    %t = tilegpu.local_alloc : () -> !tilegpu.memdesc<16x64xf16, #s>
    tilegpu.async_copy_global_to_local %ptrs, %t, %m : tensor<16x64x!tile.ptr<f16>, #a> -> !tilegpu.memdesc<16x64xf16, #s> mask tensor<16x64xi1, #a>
    return
  }
}
