// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// addptr is a GEP per register; masked loads, stores and atomics are
// predicated inline PTX so masked-off lanes touch no memory.

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @load_store
  // CHECK-SAME: (%[[P:.*]]: !llvm.ptr<1>, %[[Q:.*]]: !llvm.ptr<1>, %[[N:.*]]: i32)
  func.func @load_store(%p: !tile.ptr<f32>, %q: !tile.ptr<f16>, %n: i32) attributes {tile.kernel} {
    %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #b>
    %ns = tile.splat %n : tensor<32xi32, #b>
    %m = arith.cmpi slt, %r, %ns : tensor<32xi32, #b>
    %ps = tile.splat %p : tensor<32x!tile.ptr<f32>, #b>
    // CHECK: %[[A:.*]] = llvm.getelementptr %[[P]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %a = tile.addptr %ps, %r : tensor<32x!tile.ptr<f32>, #b>, tensor<32xi32, #b>
    // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "ld.global.b32 $0, [ $1 + 0 ];", "=r,l" %[[A]]
    %x = tile.load %a : tensor<32x!tile.ptr<f32>, #b>
    %o = arith.constant dense<-1.0> : tensor<32xf32, #b>
    // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, $3;\0A\09@$2 ld.global.b32 $0, [ $1 + 0 ];", "=r,l,b,r"
    %y = tile.load %a, %m, %o : tensor<32x!tile.ptr<f32>, #b>
    %s = arith.addf %x, %y : tensor<32xf32, #b>
    // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$2 st.global.b32 [ $0 + 0 ], $1;", "l,r,b"
    tile.store %a, %s, %m : tensor<32x!tile.ptr<f32>, #b>
    %h = arith.truncf %s : tensor<32xf32, #b> to tensor<32xf16, #b>
    %qs = tile.splat %q : tensor<32x!tile.ptr<f16>, #b>
    // CHECK: llvm.getelementptr %[[Q]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f16
    %qa = tile.addptr %qs, %r : tensor<32x!tile.ptr<f16>, #b>, tensor<32xi32, #b>
    // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "st.global.b16 [ $0 + 0 ], $1;", "l,h"
    tile.store %qa, %h : tensor<32x!tile.ptr<f16>, #b>
    return
  }
}

// -----

// A block of 16 on 32 lanes: lanes 16..31 hold duplicates and must not add.
#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @atomic
  func.func @atomic(%p: !tile.ptr<f32>, %v: f32) attributes {tile.kernel} {
    %r = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #b>
    %ps = tile.splat %p : tensor<16x!tile.ptr<f32>, #b>
    %a = tile.addptr %ps, %r : tensor<16x!tile.ptr<f32>, #b>, tensor<16xi32, #b>
    %vs = tile.splat %v : tensor<16xf32, #b>
    // Lane bit 4 has a zero basis: the lanes with it set hold copies.
    // CHECK-DAG: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
    // CHECK: %[[BIT:.*]] = llvm.and %{{.*}}, %[[C16]] : i32
    // CHECK-NEXT: %[[OWN:.*]] = llvm.icmp "eq" %[[BIT]], %{{.*}} : i32
    // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, 0;\0A\09@$3 atom.relaxed.gpu.global.add.f32 $0, [ $1 + 0 ], $2;", "=r,l,r,b" %{{.*}}, %{{.*}}, %[[OWN]]
    %old = tile.atomic_rmw add relaxed gpu %a, %vs : tensor<16x!tile.ptr<f32>, #b>
    return
  }
}
