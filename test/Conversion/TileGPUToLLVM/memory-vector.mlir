// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// Vectorized global accesses where the axis analysis shows the addresses
// contiguous and 16-byte aligned along the layout's fastest dimension.

#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @f32x4
  // CHECK-NOT: tile.divisibility
  func.func @f32x4(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) attributes {tile.kernel} {
    %r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %ps = tile.splat %p : tensor<128x!tile.ptr<f32>, #b>
    %a = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>, #b>, tensor<128xi32, #b>
    // Unmasked: one vector load.
    // CHECK: "ld.global.v4.b32 {$0, $1, $2, $3}, [ $4 + 0 ];", "=r,=r,=r,=r,l"
    %x = tile.load %a : tensor<128x!tile.ptr<f32>, #b>
    // A ragged mask: the vector is loaded when all 4 lanes are on; the
    // others are loaded one by one.
    %ns = tile.splat %n : tensor<128xi32, #b>
    %m = arith.cmpi slt, %r, %ns : tensor<128xi32, #b>
    // CHECK: "mov.b32 $0, $6;{{.*}}@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [ $4 + 0 ];", "=r,=r,=r,=r,l,b,r,r,r,r"
    // CHECK-COUNT-4: "mov.b32 $0, $3;\0A\09@$2 ld.global.b32 $0, [ $1 + 0 ];"
    %y = tile.load %a, %m : tensor<128x!tile.ptr<f32>, #b>
    %s = arith.addf %x, %y : tensor<128xf32, #b>
    // CHECK: "@$5 st.global.v4.b32 [ $0 + 0 ], {$1, $2, $3, $4};", "l,r,r,r,r,b"
    // CHECK-COUNT-4: "@$2 st.global.b32 [ $0 + 0 ], $1;"
    tile.store %a, %s, %m : tensor<128x!tile.ptr<f32>, #b>
    return
  }
}

// -----

// A bound that is a multiple of 16: the mask is constant over each vector,
// so no element-by-element fallback.
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @uniform_mask
  func.func @uniform_mask(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %ns = tile.splat %n : tensor<128xi32, #b>
    %m = arith.cmpi slt, %r, %ns : tensor<128xi32, #b>
    %ps = tile.splat %p : tensor<128x!tile.ptr<f32>, #b>
    %a = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>, #b>, tensor<128xi32, #b>
    // CHECK: @$5 ld.global.v4.b32
    // CHECK-NOT: ld.global.b32
    %y = tile.load %a, %m : tensor<128x!tile.ptr<f32>, #b>
    // CHECK: @$5 st.global.v4.b32
    // CHECK-NOT: st.global.b32
    tile.store %a, %y, %m : tensor<128x!tile.ptr<f32>, #b>
    return
  }
}

// -----

// Eight f16 per thread travel as four 32-bit words.
#b = #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @f16x8
  func.func @f16x8(%p: !tile.ptr<f16> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
    %r = tile.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #b>
    %ps = tile.splat %p : tensor<256x!tile.ptr<f16>, #b>
    %a = tile.addptr %ps, %r : tensor<256x!tile.ptr<f16>, #b>, tensor<256xi32, #b>
    // CHECK: ld.global.v4.b32
    // CHECK: llvm.bitcast %{{.*}} : vector<4xi32> to vector<8xf16>
    %x = tile.load %a : tensor<256x!tile.ptr<f16>, #b>
    // CHECK: llvm.bitcast %{{.*}} : vector<8xf16> to vector<4xi32>
    // CHECK: st.global.v4.b32
    tile.store %a, %x : tensor<256x!tile.ptr<f16>, #b>
    return
  }
}

// -----

// Unknown alignment: element by element.
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @unaligned
  func.func @unaligned(%p: !tile.ptr<f32>) attributes {tile.kernel} {
    %r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %ps = tile.splat %p : tensor<128x!tile.ptr<f32>, #b>
    %a = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>, #b>, tensor<128xi32, #b>
    // CHECK-NOT: v4
    // CHECK-COUNT-4: "ld.global.b32 $0, [ $1 + 0 ];"
    %x = tile.load %a : tensor<128x!tile.ptr<f32>, #b>
    tile.store %a, %x : tensor<128x!tile.ptr<f32>, #b>
    return
  }
}
