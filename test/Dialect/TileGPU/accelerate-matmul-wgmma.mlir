// RUN: tile-opt %s -split-input-file --tilegpu-accelerate-matmul="wgmma=true" | FileCheck %s --enable-var-scope
// On sm_90a, f16/bf16 dots whose tile fits the warp-group instructions are
// staged in swizzled shared memory and become tilegpu.warpgroup_dot; the
// others stay on mma.sync.

#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#bt = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]}>
#c = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
module attributes {tilegpu.num_warps = 8 : i32} {
  // All 8 warps along M; 128-byte rows of A (64 halves) and B (128 halves,
  // two swizzle columns) swizzle by 128 bytes, contiguous as loaded.
  // CHECK-DAG: #[[$MMA:.*]] = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 16]}>
  // CHECK-DAG: #[[$ROW:.*]] = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
  // CHECK-DAG: #[[$ROW64:.*]] = #tilegpu.nvmma_shared<{swizzle = 64, order = [1, 0]}>
  // CHECK-DAG: #[[$COL64:.*]] = #tilegpu.nvmma_shared<{swizzle = 64, order = [0, 1]}>
  // CHECK-DAG: #tilegpu.nvmma_shared<{swizzle = 128, order = [0, 1]}>
  // CHECK-DAG: #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 128, 8]}>
  // CHECK-DAG: #[[$COPY:blocked[0-9]*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
  // CHECK-LABEL: func.func @f16
  func.func @f16(%x: tensor<128x64xf16, #a>, %y: tensor<64x128xf16, #b>, %z: tensor<128x128xf32, #c>) -> tensor<128x128xf32, #c> {
    // CHECK: %[[A:.*]] = tilegpu.local_alloc %{{.*}} : (tensor<128x64xf16, #{{.*}}>) -> !tilegpu.memdesc<128x64xf16, #[[$ROW]]>
    // CHECK: %[[B:.*]] = tilegpu.local_alloc %{{.*}} : (tensor<64x128xf16, #{{.*}}>) -> !tilegpu.memdesc<64x128xf16, #[[$ROW]]>
    // CHECK: %[[C:.*]] = tilegpu.convert_layout %{{.*}} -> tensor<128x128xf32, #[[$MMA]]>
    // CHECK: %[[D:.*]] = tilegpu.warpgroup_dot %[[A]], %[[B]], %[[C]] : {{.*}} -> tensor<128x128xf32, #[[$MMA]]>
    // CHECK: tilegpu.convert_layout %[[D]] : tensor<128x128xf32, #[[$MMA]]> -> tensor<128x128xf32, #{{.*}}>
    // CHECK-NOT: tile.dot
    %d = tile.dot %x, %y, %z : tensor<128x64xf16, #a> * tensor<64x128xf16, #b> -> tensor<128x128xf32, #c>
    return %d : tensor<128x128xf32, #c>
  }

  // B contiguous along K (as trans(bt) gives it) is staged K-major; 32
  // halves of K are 64-byte rows.
  // CHECK-LABEL: func.func @k_major_b
  func.func @k_major_b(%y: tensor<32x64xbf16, #bt>, %xb: tensor<128x32xbf16, #a>, %z: tensor<128x64xf32, #c>) -> tensor<128x64xf32, #c> {
    // CHECK: tilegpu.local_alloc {{.*}} -> !tilegpu.memdesc<128x32xbf16, #[[$ROW64]]>
    // CHECK: tilegpu.local_alloc {{.*}} -> !tilegpu.memdesc<32x64xbf16, #[[$COL64]]>
    // CHECK: tilegpu.warpgroup_dot
    %d = tile.dot %xb, %y, %z : tensor<128x32xbf16, #a> * tensor<32x64xbf16, #bt> -> tensor<128x64xf32, #c>
    return %d : tensor<128x64xf32, #c>
  }

  // A K-major B that reaches the dot converted to a row-major layout (as
  // tilegpu-coalesce leaves a load with a layout of its own): the staging
  // layout follows the registers before the conversion, contiguous along K.
  // CHECK-LABEL: func.func @k_major_b_converted
  func.func @k_major_b_converted(%y: tensor<32x64xbf16, #bt>, %xb: tensor<128x32xbf16, #a>, %z: tensor<128x64xf32, #c>) -> tensor<128x64xf32, #c> {
    // CHECK: tilegpu.local_alloc {{.*}} -> !tilegpu.memdesc<32x64xbf16, #[[$COL64]]>
    %yc = tilegpu.convert_layout %y : tensor<32x64xbf16, #bt> -> tensor<32x64xbf16, #a>
    %d = tile.dot %xb, %yc, %z : tensor<128x32xbf16, #a> * tensor<32x64xbf16, #a> -> tensor<128x64xf32, #c>
    return %d : tensor<128x64xf32, #c>
  }

  // trans(x) operands: x is staged as it is (contiguous as its registers)
  // and viewed transposed; the register transposes go.
  // CHECK-LABEL: func.func @transposed_operands
  func.func @transposed_operands(%xt: tensor<64x128xf16, #b>, %yt: tensor<128x64xf16, #a>, %z: tensor<128x128xf32, #c>) -> tensor<128x128xf32, #c> {
    // CHECK-NOT: tile.trans
    // CHECK: %[[A:.*]] = tilegpu.local_alloc %{{.*}} : (tensor<64x128xf16, #{{.*}}>) -> !tilegpu.memdesc<64x128xf16, #[[$ROW]]>
    // CHECK-NEXT: %[[B:.*]] = tilegpu.local_alloc %{{.*}} : (tensor<128x64xf16, #{{.*}}>) -> !tilegpu.memdesc<128x64xf16, #[[$ROW]]>
    // CHECK-NEXT: %[[AT:.*]] = tilegpu.memdesc_trans %[[A]] : !tilegpu.memdesc<64x128xf16, #[[$ROW]]> -> !tilegpu.memdesc<128x64xf16, #[[$COL:.*]]>
    // CHECK-NEXT: %[[BT:.*]] = tilegpu.memdesc_trans %[[B]] : !tilegpu.memdesc<128x64xf16, #[[$ROW]]> -> !tilegpu.memdesc<64x128xf16, #[[$COL]]>
    // CHECK: tilegpu.warpgroup_dot %[[AT]], %[[BT]], %{{.*}}
    // CHECK-NOT: tile.trans
    %x = tile.trans %xt : tensor<64x128xf16, #b> -> tensor<128x64xf16, #a>
    %y = tile.trans %yt : tensor<128x64xf16, #a> -> tensor<64x128xf16, #b>
    %d = tile.dot %x, %y, %z : tensor<128x64xf16, #a> * tensor<64x128xf16, #b> -> tensor<128x128xf32, #c>
    return %d : tensor<128x128xf32, #c>
  }

  // 64 rows cannot give each of 8 warps 16 rows: mma.sync.
  // CHECK-LABEL: func.func @too_few_rows
  func.func @too_few_rows(%x: tensor<64x64xf16, #a>, %z: tensor<64x64xf32, #c>) -> tensor<64x64xf32, #c> {
    // CHECK-NOT: warpgroup_dot
    // CHECK: tile.dot {{.*}} -> tensor<64x64xf32, #mma{{.*}}>
    %d = tile.dot %x, %x, %z : tensor<64x64xf16, #a> * tensor<64x64xf16, #a> -> tensor<64x64xf32, #c>
    return %d : tensor<64x64xf32, #c>
  }

  // N over 256 does not fit one instruction: mma.sync.
  // CHECK-LABEL: func.func @too_wide
  func.func @too_wide(%x: tensor<128x16xf16, #a>, %y: tensor<16x512xf16, #b>, %z: tensor<128x512xf32, #c>) -> tensor<128x512xf32, #c> {
    // CHECK-NOT: warpgroup_dot
    // CHECK: tile.dot {{.*}} -> tensor<128x512xf32, #mma{{.*}}>
    %d = tile.dot %x, %y, %z : tensor<128x16xf16, #a> * tensor<16x512xf16, #b> -> tensor<128x512xf32, #c>
    return %d : tensor<128x512xf32, #c>
  }

  // tf32: both operands staged contiguous along K (B transposed, 32 f32 =
  // 128-byte rows), rounded to tf32 on the way; k-steps of 8.
  // CHECK-LABEL: func.func @tf32
  func.func @tf32(%x: tensor<128x32xf32, #c>, %y: tensor<32x128xf32, #c>, %z: tensor<128x128xf32, #c>) -> tensor<128x128xf32, #c> {
    // CHECK: tilegpu.local_alloc %{{.*}} {tilegpu.round_tf32} : (tensor<128x32xf32, #{{.*}}>) -> !tilegpu.memdesc<128x32xf32, #[[$ROW]]>
    // CHECK: tilegpu.local_alloc %{{.*}} {tilegpu.round_tf32} : (tensor<32x128xf32, #{{.*}}>) -> !tilegpu.memdesc<32x128xf32, #[[$COL128:.*]]>
    // CHECK: tilegpu.warpgroup_dot {{.*}} -> tensor<128x128xf32, #[[$MMATF32:.*]]>
    %d = tile.dot %x, %y, %z : tensor<128x32xf32, #c> * tensor<32x128xf32, #c> -> tensor<128x128xf32, #c>
    return %d : tensor<128x128xf32, #c>
  }

  // tf32 with B loaded contiguous along N: the load copies single f32s, 8
  // lanes along N times 4 along K, so stores into the K-major swizzled tile
  // hit 32 banks; A, contiguous along K already, keeps its layout.
  // CHECK-LABEL: func.func @tf32_load
  func.func @tf32_load(%x: tensor<128x32xf32, #c>, %pb: tensor<32x128x!tile.ptr<f32>, #b>, %z: tensor<128x128xf32, #c>) -> tensor<128x128xf32, #c> {
    // CHECK: %[[P:.*]] = tilegpu.convert_layout %{{.*}} : tensor<32x128x!tile.ptr<f32>, #{{.*}}> -> tensor<32x128x!tile.ptr<f32>, #[[$COPY]]>
    // CHECK: %[[Y:.*]] = tile.load %[[P]] : tensor<32x128x!tile.ptr<f32>, #[[$COPY]]>
    // CHECK: tilegpu.convert_layout %[[Y]]
    // CHECK: tilegpu.local_alloc %{{.*}} {tilegpu.round_tf32} : (tensor<32x128xf32, #{{.*}}>) -> !tilegpu.memdesc<32x128xf32, #[[$COL128]]>
    %y = tile.load %pb : tensor<32x128x!tile.ptr<f32>, #b>
    %yc = tilegpu.convert_layout %y : tensor<32x128xf32, #b> -> tensor<32x128xf32, #c>
    %d = tile.dot %x, %yc, %z : tensor<128x32xf32, #c> * tensor<32x128xf32, #c> -> tensor<128x128xf32, #c>
    return %d : tensor<128x128xf32, #c>
  }

  // tf32 a @ trans(w), w's tile contiguous along K (as a linear layer's
  // N x K weights load): staged as loaded and viewed transposed, K-major.
  // A trans() whose view would run along M (A from an M-contiguous tile)
  // keeps the register exchange, which tf32's K-major tiles need.
  // CHECK-LABEL: func.func @tf32_trans
  func.func @tf32_trans(%x: tensor<128x32xf32, #a>, %w: tensor<128x32xf32, #a>, %xt: tensor<32x128xf32, #b>, %z: tensor<128x128xf32, #c>) -> (tensor<128x128xf32, #c>, tensor<128x128xf32, #c>) {
    // CHECK: %[[W:.*]] = tilegpu.local_alloc %{{.*}} {tilegpu.round_tf32} : (tensor<128x32xf32, #{{.*}}>) -> !tilegpu.memdesc<128x32xf32, #[[$ROW]]>
    // CHECK: %[[WT:.*]] = tilegpu.memdesc_trans %[[W]] : !tilegpu.memdesc<128x32xf32, #[[$ROW]]> -> !tilegpu.memdesc<32x128xf32, #[[$COL128]]>
    // CHECK: tilegpu.warpgroup_dot %{{.*}}, %[[WT]]
    %wt = tile.trans %w : tensor<128x32xf32, #a> -> tensor<32x128xf32, #c>
    %d = tile.dot %x, %wt, %z : tensor<128x32xf32, #a> * tensor<32x128xf32, #c> -> tensor<128x128xf32, #c>
    // CHECK: %[[XX:.*]] = tile.trans
    // CHECK: tilegpu.local_alloc %[[XX]] {tilegpu.round_tf32}
    // CHECK: tilegpu.warpgroup_dot
    %xx = tile.trans %xt : tensor<32x128xf32, #b> -> tensor<128x32xf32, #c>
    %e = tile.dot %xx, %wt, %z : tensor<128x32xf32, #c> * tensor<32x128xf32, #c> -> tensor<128x128xf32, #c>
    return %d, %e : tensor<128x128xf32, #c>, tensor<128x128xf32, #c>
  }

  // ieee f32 stays on the FMA path.
  // CHECK-LABEL: func.func @ieee
  func.func @ieee(%x: tensor<128x32xf32, #c>, %y: tensor<32x128xf32, #c>, %z: tensor<128x128xf32, #c>) -> tensor<128x128xf32, #c> {
    // CHECK-NOT: warpgroup_dot
    // CHECK: tile.dot {{.*}} inputPrecision = ieee
    %d = tile.dot %x, %y, %z inputPrecision = ieee : tensor<128x32xf32, #c> * tensor<32x128xf32, #c> -> tensor<128x128xf32, #c>
    return %d : tensor<128x128xf32, #c>
  }
}

// -----

// Without wgmma=true (sm_80, sm_90) nothing changes: see accelerate-matmul.mlir.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // 4 warps, one warp group, 128 rows: two 64-row repetitions.
  // CHECK: #mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>
  // CHECK-LABEL: func.func @one_group
  func.func @one_group(%x: tensor<128x64xf16, #a>, %y: tensor<64x64xf16, #a>, %z: tensor<128x64xf32, #a>) -> tensor<128x64xf32, #a> {
    // CHECK: tilegpu.warpgroup_dot {{.*}} -> tensor<128x64xf32, #mma>
    %d = tile.dot %x, %y, %z : tensor<128x64xf16, #a> * tensor<64x64xf16, #a> -> tensor<128x64xf32, #a>
    return %d : tensor<128x64xf32, #a>
  }
}

// -----

// An operand defined before the loop around the dot (attention's Q) is
// stored to shared memory once, before the loop; the one the loop loads is
// stored every iteration.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @invariant_operand
  func.func @invariant_operand(%q: tensor<64x64xf16, #a>, %p: tensor<64x64x!tile.ptr<f16>, #a>, %z: tensor<64x64xf32, #a>, %n: i32) -> tensor<64x64xf32, #a> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: %[[Q:.*]] = tilegpu.local_alloc %{{.*}} : (tensor<64x64xf16, #{{.*}}>)
    // CHECK-NEXT: scf.for
    // CHECK: %[[K:.*]] = tile.load
    // CHECK-NEXT: %[[KS:.*]] = tilegpu.local_alloc %[[K]]
    // CHECK: tilegpu.warpgroup_dot %[[Q]], %[[KS]]
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #a>) : i32 {
      %k = tile.load %p : tensor<64x64x!tile.ptr<f16>, #a>
      %d = tile.dot %q, %k, %acc : tensor<64x64xf16, #a> * tensor<64x64xf16, #a> -> tensor<64x64xf32, #a>
      scf.yield %d : tensor<64x64xf32, #a>
    }
    return %r : tensor<64x64xf32, #a>
  }
}

// -----

// One operand read by the dots of two loops, each under its own `if` (a
// causal attention's two passes over K/V, both reading Q): one copy in
// shared memory, stored right after the operand is made, serves both; Q
// does not stay live in registers through the first loop.
#a = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: func.func @operand_of_two_loops
  func.func @operand_of_two_loops(%pq: tensor<64x64x!tile.ptr<f16>, #a>, %p: tensor<64x64x!tile.ptr<f16>, #a>, %z: tensor<64x64xf32, #a>, %n: i32, %c: i1) -> tensor<64x64xf32, #a> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: %[[QV:.*]] = tile.load
    // CHECK-NEXT: %[[Q:.*]] = tilegpu.local_alloc %[[QV]] : (tensor<64x64xf16, #{{.*}}>)
    // CHECK-NOT: tilegpu.local_alloc %[[QV]]
    // CHECK: scf.if
    // CHECK: scf.for
    // CHECK: tilegpu.warpgroup_dot %[[Q]],
    // CHECK: scf.if
    // CHECK: scf.for
    // CHECK: tilegpu.warpgroup_dot %[[Q]],
    %q = tile.load %pq : tensor<64x64x!tile.ptr<f16>, #a>
    %r1 = scf.if %c -> (tensor<64x64xf32, #a>) {
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #a>) : i32 {
        %k = tile.load %p : tensor<64x64x!tile.ptr<f16>, #a>
        %d = tile.dot %q, %k, %acc : tensor<64x64xf16, #a> * tensor<64x64xf16, #a> -> tensor<64x64xf32, #a>
        scf.yield %d : tensor<64x64xf32, #a>
      }
      scf.yield %r : tensor<64x64xf32, #a>
    } else {
      scf.yield %z : tensor<64x64xf32, #a>
    }
    %r2 = scf.if %c -> (tensor<64x64xf32, #a>) {
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r1) -> (tensor<64x64xf32, #a>) : i32 {
        %k = tile.load %p : tensor<64x64x!tile.ptr<f16>, #a>
        %d = tile.dot %q, %k, %acc : tensor<64x64xf16, #a> * tensor<64x64xf16, #a> -> tensor<64x64xf32, #a>
        scf.yield %d : tensor<64x64xf32, #a>
      }
      scf.yield %r : tensor<64x64xf32, #a>
    } else {
      scf.yield %r1 : tensor<64x64xf32, #a>
    }
    return %r2 : tensor<64x64xf32, #a>
  }
}
