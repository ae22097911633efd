// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// tile.elementwise_inline_asm: one llvm.inline_asm per run of
// `packed_element` registers of a thread; elements narrower than 32 bits go
// in vectors of up to 32 bits; several asm registers come back in a struct;
// a run past the thread's registers is padded and its extra results dropped.

#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @one_per_asm
  func.func @one_per_asm(%s: f32) attributes {tile.kernel} {
    %x = tile.splat %s : tensor<64xf32, #b>
    // Two registers, pack 1: two asm statements, pure (no side effects);
    // the spaces around the constraints' entries are dropped.
    // CHECK-COUNT-2: llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;", "=r,r" %{{.*}} : (f32) -> f32
    // CHECK-NOT: llvm.inline_asm
    %t = tile.elementwise_inline_asm "tanh.approx.f32 $0, $1;" {constraints = " =r, r", packed_element = 1 : i32, pure = true} %x : tensor<64xf32, #b> -> tensor<64xf32, #b>
    tile.print "t", %t : tensor<64xf32, #b>
    return
  }
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @f16_pairs
  func.func @f16_pairs(%s: f16) attributes {tile.kernel} {
    %x = tile.splat %s : tensor<128xf16, #b>
    // Four f16 registers, pack 2: two asm statements on vector<2xf16>,
    // with side effects (not pure).
    // CHECK: %[[V:.*]] = llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i32] : vector<2xf16>
    // CHECK: %[[W:.*]] = llvm.insertelement %{{.*}}, %[[V]][%{{.*}} : i32] : vector<2xf16>
    // CHECK: %[[R:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "add.rn.f16x2 $0, $1, $1;", "=r,r" %[[W]] : (vector<2xf16>) -> vector<2xf16>
    // CHECK: llvm.extractelement %[[R]][%{{.*}} : i32] : vector<2xf16>
    // CHECK: llvm.extractelement %[[R]][%{{.*}} : i32] : vector<2xf16>
    // CHECK: llvm.inline_asm has_side_effects
    // CHECK-NOT: llvm.inline_asm
    %t = tile.elementwise_inline_asm "add.rn.f16x2 $0, $1, $1;" {constraints = "=r,r", packed_element = 2 : i32, pure = false} %x : tensor<128xf16, #b> -> tensor<128xf16, #b>
    tile.print "t", %t : tensor<128xf16, #b>
    return
  }
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @padded_bytes
  func.func @padded_bytes(%s: i8) attributes {tile.kernel} {
    %x = tile.splat %s : tensor<64xi8, #b>
    // Two i8 registers, pack 4: one asm on a vector<4xi8> whose last two
    // elements are undefined; two results in a struct; the padding's
    // results are dropped.
    // CHECK: %[[U:.*]] = llvm.mlir.undef : i8
    // CHECK: llvm.insertelement %[[U]]
    // CHECK: %[[R:.*]] = llvm.inline_asm asm_dialect = att "mov.b32 $0, $2;\0A\09mov.b32 $1, $2;", "=r,=r,r" %{{.*}} : (vector<4xi8>) -> !llvm.struct<(vector<4xi8>, vector<4xi8>)>
    // CHECK-NOT: llvm.inline_asm
    // CHECK-DAG: llvm.extractvalue %[[R]][0]
    // CHECK-DAG: llvm.extractvalue %[[R]][1]
    %a, %c = tile.elementwise_inline_asm "mov.b32 $0, $2;\n\tmov.b32 $1, $2;" {constraints = "=r,=r,r", packed_element = 4 : i32, pure = true} %x : tensor<64xi8, #b> -> tensor<64xi8, #b>, tensor<64xi8, #b>
    tile.print "a", %a, %c : tensor<64xi8, #b>, tensor<64xi8, #b>
    return
  }
}

// -----

module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @scalars
  func.func @scalars(%s: f32, %t: f32) attributes {tile.kernel} {
    // Scalars: one asm, with two f32 operands.
    // CHECK: llvm.inline_asm asm_dialect = att "add.rn.f32 $0, $1, $2;", "=r,r,r" %{{.*}}, %{{.*}} : (f32, f32) -> f32
    %r = tile.elementwise_inline_asm "add.rn.f32 $0, $1, $2;" {constraints = "=r,r,r", packed_element = 1 : i32, pure = true} %s, %t : f32, f32 -> f32
    tile.print "r", %r : f32
    return
  }
}
