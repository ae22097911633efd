// RUN: tile-opt %s -split-input-file --tilegpu-allocate-shared-memory | FileCheck %s --enable-var-scope
// Scratch space of ops starts at 0 (their live ranges never overlap);
// explicit buffers go after it, reusing bytes of buffers that are dead.

#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>

// A 1-D sum over 4 warps: 4 partials of f32 + 4 i32 indices = 32 bytes.
// A 1024 x f32 conversion: 4096 bytes. Total is the larger.
// CHECK-LABEL: module attributes {tilegpu.shared = 4096 : i32}
// CHECK-LABEL: func.func @scratch
func.func @scratch(%x: tensor<1024xf32, #b1>) {
  // CHECK: tile.reduce sum %{{.*}} axis = 0 {tilegpu.scratch_offset = 0 : i32}
  %s = tile.reduce sum %x axis = 0 : tensor<1024xf32, #b1> -> f32
  // CHECK: tilegpu.convert_layout %{{.*}} {tilegpu.scratch_offset = 0 : i32}
  %c = tilegpu.convert_layout %x : tensor<1024xf32, #b1> -> tensor<1024xf32, #b4>
  // An equivalent layout needs no scratch.
  // CHECK: tilegpu.convert_layout %{{.*}} : tensor<1024xf32, #blocked> -> tensor<1024xf32, #blocked>
  %d = tilegpu.convert_layout %x : tensor<1024xf32, #b1> -> tensor<1024xf32, #b2>
  tile.print "", %s, %c, %d : f32, tensor<1024xf32, #b4>, tensor<1024xf32, #b1>
  return
}

// -----

#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>

// No scratch; two live buffers side by side, a third reuses the first.
// CHECK-LABEL: module attributes {tilegpu.shared = 1024 : i32}
// CHECK-LABEL: func.func @buffers
func.func @buffers(%x: tensor<128xf32, #b1>) {
  // CHECK: %[[A:.*]] = tilegpu.local_alloc %{{.*}} {offset = 0 : i64}
  %a = tilegpu.local_alloc %x : (tensor<128xf32, #b1>) -> !tilegpu.memdesc<128xf32, #shared>
  // CHECK: %[[B:.*]] = tilegpu.local_alloc %{{.*}} {offset = 512 : i64}
  %b = tilegpu.local_alloc %x : (tensor<128xf32, #b1>) -> !tilegpu.memdesc<128xf32, #shared>
  %va = tilegpu.local_load %a : !tilegpu.memdesc<128xf32, #shared> -> tensor<128xf32, #b1>
  // CHECK: tilegpu.local_alloc %{{.*}} {offset = 0 : i64}
  %c = tilegpu.local_alloc %va : (tensor<128xf32, #b1>) -> !tilegpu.memdesc<128xf32, #shared>
  %vb = tilegpu.local_load %b : !tilegpu.memdesc<128xf32, #shared> -> tensor<128xf32, #b1>
  %vc = tilegpu.local_load %c : !tilegpu.memdesc<128xf32, #shared> -> tensor<128xf32, #b1>
  tile.print "", %vb, %vc : tensor<128xf32, #b1>, tensor<128xf32, #b1>
  return
}

// -----

#b1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b2 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b3 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#nvmma = #tilegpu.nvmma_shared<{swizzle = 64, order = [1, 0]}>

// Swizzled tiles start on 1024-byte boundaries (after a 512-byte tile);
// scratch (2 KiB for a 512-element f32 conversion) goes after the buffers
// live at its op, or at 0 once they are dead.
// CHECK-LABEL: module attributes {tilegpu.shared = 5120 : i32}
// CHECK-LABEL: func.func @swizzled
func.func @swizzled(%x: tensor<64x32xf16, #b1>, %y: tensor<8x32xf16, #b1>, %z: tensor<512xf32, #b2>) {
  // CHECK: tilegpu.local_alloc %{{.*}} {offset = 0 : i64}
  %a = tilegpu.local_alloc %y : (tensor<8x32xf16, #b1>) -> !tilegpu.memdesc<8x32xf16, #nvmma>
  // CHECK: tilegpu.convert_layout %{{.*}} {tilegpu.scratch_offset = 512 : i32}
  %cz = tilegpu.convert_layout %z : tensor<512xf32, #b2> -> tensor<512xf32, #b3>
  // CHECK: tilegpu.local_alloc %{{.*}} {offset = 1024 : i64}
  %b = tilegpu.local_alloc %x : (tensor<64x32xf16, #b1>) -> !tilegpu.memdesc<64x32xf16, #nvmma>
  %va = tilegpu.local_load %a : !tilegpu.memdesc<8x32xf16, #nvmma> -> tensor<8x32xf16, #b1>
  %vb = tilegpu.local_load %b : !tilegpu.memdesc<64x32xf16, #nvmma> -> tensor<64x32xf16, #b1>
  // CHECK: tilegpu.convert_layout %{{.*}} {tilegpu.scratch_offset = 0 : i32}
  %cz2 = tilegpu.convert_layout %cz : tensor<512xf32, #b3> -> tensor<512xf32, #b2>
  tile.print "", %va, %vb, %cz2 : tensor<8x32xf16, #b1>, tensor<64x32xf16, #b1>, tensor<512xf32, #b2>
  return
}

// -----

#b1 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#nvmma = #tilegpu.nvmma_shared<{swizzle = 64, order = [1, 0]}>

// A buffer allocated inside a loop does not overlap one allocated before it
// and still live across the loop (a pipelining ring): it goes after it.
// CHECK-LABEL: func.func @nested
func.func @nested(%x: tensor<64x32xf16, #b1>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // CHECK: tilegpu.local_alloc {offset = 0 : i64} : () -> !tilegpu.memdesc<2x64x32xf16
  %ring = tilegpu.local_alloc : () -> !tilegpu.memdesc<2x64x32xf16, #nvmma>
  scf.for %i = %c0 to %n step %c1 : i32 {
    // CHECK: tilegpu.local_alloc %{{.*}} {offset = 8192 : i64}
    %t = tilegpu.local_alloc %x : (tensor<64x32xf16, #b1>) -> !tilegpu.memdesc<64x32xf16, #nvmma>
    %v = tilegpu.local_load %t : !tilegpu.memdesc<64x32xf16, #nvmma> -> tensor<64x32xf16, #b1>
    %r = tilegpu.memdesc_index %ring[%i] : !tilegpu.memdesc<2x64x32xf16, #nvmma> -> !tilegpu.memdesc<64x32xf16, #nvmma>
    %w = tilegpu.local_load %r : !tilegpu.memdesc<64x32xf16, #nvmma> -> tensor<64x32xf16, #b1>
    tile.print "", %v, %w : tensor<64x32xf16, #b1>, tensor<64x32xf16, #b1>
  }
  return
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tilegpu.nvmma_shared<{swizzle = 64, order = [1, 0]}>
#t = #tilegpu.nvmma_shared<{swizzle = 64, order = [0, 1]}>
#mma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64, 16]}>

// A buffer read through a view (memdesc_trans, memdesc_index) lives until
// the view's last reader: B, allocated after A's only direct user (the
// view), must not take A's bytes while the dot still reads A.
// CHECK-LABEL: func.func @view_keeps_buffer
func.func @view_keeps_buffer(%x: tensor<64x32xf16, #b>, %y: tensor<32x64xf16, #b>, %c: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  // CHECK: tilegpu.local_alloc %{{.*}} {offset = 0 : i64}
  %a = tilegpu.local_alloc %y : (tensor<32x64xf16, #b>) -> !tilegpu.memdesc<32x64xf16, #s>
  %at = tilegpu.memdesc_trans %a : !tilegpu.memdesc<32x64xf16, #s> -> !tilegpu.memdesc<64x32xf16, #t>
  // CHECK: tilegpu.local_alloc %{{.*}} {offset = 4096 : i64}
  %b = tilegpu.local_alloc %y : (tensor<32x64xf16, #b>) -> !tilegpu.memdesc<32x64xf16, #s>
  %d = tilegpu.warpgroup_dot %at, %b, %c : !tilegpu.memdesc<64x32xf16, #t>, !tilegpu.memdesc<32x64xf16, #s> -> tensor<64x64xf32, #mma>
  return %d : tensor<64x64xf32, #mma>
}

// -----

// Scratch of combine reductions: one section per source (f16 values, then
// i32 indices 4-byte aligned): 4 warps x 2 bytes, padded to 8, + 4 x 4 = 24
// bytes. Of a scan: one slot per block of the elements below the warp bits
// (1024 / (4 x 32) = 8), 8 x 4 bytes.
#b4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: module attributes {tilegpu.shared = 32 : i32}
// CHECK-LABEL: func.func @combine_scratch
func.func @combine_scratch(%x: tensor<1024xf16, #b4>, %i: tensor<1024xi32, #b4>, %y: tensor<1024xf32, #b4>) {
  // CHECK: tile.combine_reduce %{{.*}}, %{{.*}} axis = 0 {tilegpu.scratch_offset = 0 : i32}
  %r:2 = tile.combine_reduce %x, %i axis = 0 : tensor<1024xf16, #b4>, tensor<1024xi32, #b4> -> f16, i32 {
  ^bb0(%v0: f16, %i0: i32, %v1: f16, %i1: i32):
    tile.combine_yield %v0, %i0 : f16, i32
  }
  // CHECK: tile.scan %{{.*}} axis = 0 {tilegpu.scratch_offset = 0 : i32}
  %s = tile.scan %y axis = 0 : tensor<1024xf32, #b4> -> tensor<1024xf32, #b4> {
  ^bb0(%a: f32, %b: f32):
    tile.combine_yield %a : f32
  }
  tile.print "", %r#0, %r#1, %s : f16, i32, tensor<1024xf32, #b4>
  return
}

// -----

// Tensor maps are assembled in scratch of their own, 128-byte aligned: the
// maps of a block are built at the same time by different warps, so their
// scratch never overlaps, nor the 64-byte buffer live across them, nor the
// 256-byte one made after them but before the barrier that publishes them
// (other warps may store it while a map is still being built).
#b1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #tilegpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#nv = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
// CHECK-LABEL: module attributes {tilegpu.shared = 640 : i32}
// CHECK-LABEL: func.func @tensor_maps
func.func @tensor_maps(%x: tensor<64xi8, #b1>, %x2: tensor<256xi8, #b1>, %p: !tile.ptr<f16>, %m: i64, %k: i64) {
  // CHECK: tilegpu.local_alloc %{{.*}} {offset = 0 : i64}
  %buf = tilegpu.local_alloc %x : (tensor<64xi8, #b1>) -> !tilegpu.memdesc<64xi8, #shared>
  // CHECK: tilegpu.create_tensor_map {{.*}} {lock, tilegpu.scratch_offset = 384 : i32}
  %a = tilegpu.create_tensor_map %p, %m, %k, %k {lock} : !tile.ptr<f16> -> !tilegpu.tensor_map<64x64xf16, #nv>
  // CHECK: tilegpu.create_tensor_map {{.*}} {tilegpu.scratch_offset = 512 : i32}
  %b = tilegpu.create_tensor_map %p, %m, %k, %k : !tile.ptr<f16> -> !tilegpu.tensor_map<64x64xf16, #nv>
  // CHECK: tilegpu.local_alloc %{{.*}} {offset = 64 : i64}
  %late = tilegpu.local_alloc %x2 : (tensor<256xi8, #b1>) -> !tilegpu.memdesc<256xi8, #shared>
  tilegpu.barrier
  %y = tilegpu.local_load %buf : !tilegpu.memdesc<64xi8, #shared> -> tensor<64xi8, #b1>
  %z = tilegpu.local_load %late : !tilegpu.memdesc<256xi8, #shared> -> tensor<256xi8, #b1>
  tile.print "", %y, %z : tensor<64xi8, #b1>, tensor<256xi8, #b1>
  tilegpu.release_tensor_map %a : !tilegpu.tensor_map<64x64xf16, #nv>
  return
}
