// RUN: tile-opt %s | tile-opt | FileCheck %s --enable-var-scope
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s --enable-var-scope
// Round trip of every tile op through the custom and the generic format.

// CHECK-LABEL: func.func @indexing
func.func @indexing() -> (i32, i32, tensor<128xi32>) {
  // CHECK: %[[PID:.*]] = tile.program_id 0 : i32
  %0 = tile.program_id 0 : i32
  // CHECK: %[[NUM:.*]] = tile.num_programs 2 : i32
  %1 = tile.num_programs 2 : i32
  // CHECK: tile.make_range {end = 192 : i32, start = 64 : i32} : tensor<128xi32>
  %2 = tile.make_range {end = 192 : i32, start = 64 : i32} : tensor<128xi32>
  return %0, %1, %2 : i32, i32, tensor<128xi32>
}

// CHECK-LABEL: func.func @shapes
// CHECK-SAME: (%[[X:.*]]: f32, %[[V:.*]]: tensor<128xf32>, %[[M:.*]]: tensor<16x16xf16>)
func.func @shapes(%x: f32, %v: tensor<128xf32>, %m: tensor<16x16xf16>) {
  // CHECK: tile.splat %[[X]] : tensor<64x128xf32>
  %0 = tile.splat %x : tensor<64x128xf32>
  // CHECK: %[[E:.*]] = tile.expand_dims %[[V]] {axis = 0 : i32} : tensor<128xf32> -> tensor<1x128xf32>
  %1 = tile.expand_dims %v {axis = 0 : i32} : tensor<128xf32> -> tensor<1x128xf32>
  // CHECK: tile.broadcast %[[E]] : tensor<1x128xf32> -> tensor<64x128xf32>
  %2 = tile.broadcast %1 : tensor<1x128xf32> -> tensor<64x128xf32>
  // CHECK: tile.reshape %[[M]] : tensor<16x16xf16> -> tensor<256xf16>
  %3 = tile.reshape %m : tensor<16x16xf16> -> tensor<256xf16>
  // CHECK: tile.trans %[[M]] : tensor<16x16xf16> -> tensor<16x16xf16>
  %4 = tile.trans %m : tensor<16x16xf16> -> tensor<16x16xf16>
  // CHECK: %[[R3:.*]] = tile.reshape %[[M]] : tensor<16x16xf16> -> tensor<2x4x32xf16>
  %5 = tile.reshape %m : tensor<16x16xf16> -> tensor<2x4x32xf16>
  // CHECK: tile.trans %[[R3]] {order = array<i32: 2, 0, 1>} : tensor<2x4x32xf16> -> tensor<32x2x4xf16>
  %6 = tile.trans %5 {order = array<i32: 2, 0, 1>} : tensor<2x4x32xf16> -> tensor<32x2x4xf16>
  return
}

// CHECK-LABEL: func.func @memory
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f32>, %[[O:.*]]: tensor<128xi32>, %[[MASK:.*]]: tensor<128xi1>, %[[OTHER:.*]]: tensor<128xf32>)
func.func @memory(%p: !tile.ptr<f32>, %offs: tensor<128xi32>,
                  %mask: tensor<128xi1>, %other: tensor<128xf32>) {
  // CHECK: %[[PS:.*]] = tile.splat %[[P]] : tensor<128x!tile.ptr<f32>>
  %ps = tile.splat %p : tensor<128x!tile.ptr<f32>>
  // CHECK: %[[A:.*]] = tile.addptr %[[PS]], %[[O]] : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %a = tile.addptr %ps, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  // CHECK: %[[L0:.*]] = tile.load %[[A]] : tensor<128x!tile.ptr<f32>>
  %l0 = tile.load %a : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.load %[[A]], %[[MASK]] : tensor<128x!tile.ptr<f32>>
  %l1 = tile.load %a, %mask : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.load %[[A]], %[[MASK]], %[[OTHER]] : tensor<128x!tile.ptr<f32>>
  %l2 = tile.load %a, %mask, %other : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.store %[[A]], %[[L0]] : tensor<128x!tile.ptr<f32>>
  tile.store %a, %l0 : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.store %[[A]], %[[L0]], %[[MASK]] : tensor<128x!tile.ptr<f32>>
  tile.store %a, %l0, %mask : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.atomic_rmw add acq_rel gpu %[[A]], %[[L0]], %[[MASK]] : tensor<128x!tile.ptr<f32>>
  %old = tile.atomic_rmw add acq_rel gpu %a, %l0, %mask : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.atomic_rmw max relaxed cta %[[A]], %[[L0]] : tensor<128x!tile.ptr<f32>>
  %old2 = tile.atomic_rmw max relaxed cta %a, %l0 : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.atomic_rmw xchg release sys %[[A]], %[[L0]] : tensor<128x!tile.ptr<f32>>
  %old3 = tile.atomic_rmw xchg release sys %a, %l0 : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.atomic_cas acquire gpu %[[A]], %[[L0]], %{{.*}} : tensor<128x!tile.ptr<f32>>
  %old4 = tile.atomic_cas acquire gpu %a, %l0, %l1 : tensor<128x!tile.ptr<f32>>
  // CHECK: %[[S:.*]] = tile.addptr %[[P]], %{{.*}} : !tile.ptr<f32>, i64
  %c = arith.constant 4 : i64
  %s = tile.addptr %p, %c : !tile.ptr<f32>, i64
  // CHECK: tile.load %[[S]] : !tile.ptr<f32>
  %l3 = tile.load %s : !tile.ptr<f32>
  return
}

// CHECK-LABEL: func.func @casts
func.func @casts(%p: !tile.ptr<f16>, %v: tensor<64xf32>) {
  // CHECK: %[[I:.*]] = tile.ptr_to_int %{{.*}} : !tile.ptr<f16> -> i64
  %0 = tile.ptr_to_int %p : !tile.ptr<f16> -> i64
  // CHECK: tile.int_to_ptr %[[I]] : i64 -> !tile.ptr<bf16>
  %1 = tile.int_to_ptr %0 : i64 -> !tile.ptr<bf16>
  // CHECK: tile.bitcast %{{.*}} : tensor<64xf32> -> tensor<64xi32>
  %2 = tile.bitcast %v : tensor<64xf32> -> tensor<64xi32>
  // CHECK: tile.bitcast %{{.*}} : !tile.ptr<f16> -> !tile.ptr<i16>
  %3 = tile.bitcast %p : !tile.ptr<f16> -> !tile.ptr<i16>
  return
}

// CHECK-LABEL: func.func @dot
func.func @dot(%a: tensor<64x32xf16>, %b: tensor<32x128xf16>,
               %c: tensor<64x128xf32>, %x: tensor<16x16xf32>) {
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf16> * tensor<32x128xf16> -> tensor<64x128xf32>
  %0 = tile.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x128xf16> -> tensor<64x128xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} inputPrecision = ieee : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %1 = tile.dot %x, %x, %x inputPrecision = ieee : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xf32>
  %2 = tile.dot %x, %x, %x inputPrecision = tf32 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  return
}

// CHECK-LABEL: func.func @reduce
func.func @reduce(%x: tensor<4x128xf32>, %y: tensor<128xf32>) {
  // CHECK: tile.reduce sum %{{.*}} axis = 1 : tensor<4x128xf32> -> tensor<4xf32>
  %0 = tile.reduce sum %x axis = 1 : tensor<4x128xf32> -> tensor<4xf32>
  // CHECK: tile.reduce max %{{.*}} axis = 0 : tensor<4x128xf32> -> tensor<128xf32>
  %1 = tile.reduce max %x axis = 0 : tensor<4x128xf32> -> tensor<128xf32>
  // CHECK: tile.reduce min %{{.*}} axis = 0 : tensor<128xf32> -> f32
  %2 = tile.reduce min %y axis = 0 : tensor<128xf32> -> f32
  // CHECK: tile.reduce argmax %{{.*}} axis = 1 : tensor<4x128xf32> -> tensor<4xi32>
  %3 = tile.reduce argmax %x axis = 1 : tensor<4x128xf32> -> tensor<4xi32>
  // CHECK: tile.reduce argmin %{{.*}} axis = 0 : tensor<128xf32> -> i32
  %4 = tile.reduce argmin %y axis = 0 : tensor<128xf32> -> i32
  return
}

// CHECK-LABEL: func.func @scan_and_combine_reduce
func.func @scan_and_combine_reduce(%x: tensor<4x128xf32>, %i: tensor<4x128xi32>, %y: tensor<128xi32>) {
  // CHECK: tile.scan %{{.*}} axis = 1 : tensor<4x128xf32> -> tensor<4x128xf32> {
  // CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
  // CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
  // CHECK-NEXT: tile.combine_yield %[[S]] : f32
  // CHECK-NEXT: }
  %0 = tile.scan %x axis = 1 : tensor<4x128xf32> -> tensor<4x128xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.combine_yield %s : f32
  }
  // CHECK: tile.scan %{{.*}}, %{{.*}} axis = 0 reverse : tensor<4x128xf32>, tensor<4x128xi32> -> tensor<4x128xf32>, tensor<4x128xi32> {
  // CHECK: tile.combine_yield %{{.*}}, %{{.*}} : f32, i32
  %1:2 = tile.scan %x, %i axis = 0 reverse : tensor<4x128xf32>, tensor<4x128xi32> -> tensor<4x128xf32>, tensor<4x128xi32> {
  ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
    %gt = arith.cmpf ogt, %v0, %v1 : f32
    %v = arith.select %gt, %v0, %v1 : f32
    %j = arith.select %gt, %i0, %i1 : i32
    tile.combine_yield %v, %j : f32, i32
  }
  // CHECK: tile.combine_reduce %{{.*}}, %{{.*}} axis = 1 : tensor<4x128xf32>, tensor<4x128xi32> -> tensor<4xf32>, tensor<4xi32> {
  %2:2 = tile.combine_reduce %x, %i axis = 1 : tensor<4x128xf32>, tensor<4x128xi32> -> tensor<4xf32>, tensor<4xi32> {
  ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
    %gt = arith.cmpf ogt, %v0, %v1 : f32
    %v = arith.select %gt, %v0, %v1 : f32
    %j = arith.select %gt, %i0, %i1 : i32
    tile.combine_yield %v, %j : f32, i32
  }
  // CHECK: tile.combine_reduce %{{.*}} axis = 0 : tensor<128xi32> -> i32 {
  // CHECK: arith.xori
  %3 = tile.combine_reduce %y axis = 0 : tensor<128xi32> -> i32 {
  ^bb0(%a: i32, %b: i32):
    %s = arith.xori %a, %b : i32
    tile.combine_yield %s : i32
  }
  return
}

// CHECK-LABEL: func.func @hints_and_print
func.func @hints_and_print(%x: tensor<128xi32>, %n: i32) {
  // CHECK: tile.hint %{{.*}} {contiguity = array<i64: 128>, divisibility = array<i64: 16>} : tensor<128xi32>
  %0 = tile.hint %x {contiguity = array<i64: 128>, divisibility = array<i64: 16>} : tensor<128xi32>
  // CHECK: tile.hint %{{.*}} {divisibility = array<i64: 16>} : i32
  %1 = tile.hint %n {divisibility = array<i64: 16>} : i32
  // CHECK: tile.print "x = ", %{{.*}}, %{{.*}} : tensor<128xi32>, i32
  tile.print "x = ", %0, %1 : tensor<128xi32>, i32
  // CHECK: tile.print "hello"
  tile.print "hello"
  // CHECK: tile.debug_barrier
  tile.debug_barrier
  // CHECK: tile.gdc_wait
  tile.gdc_wait
  // CHECK: tile.gdc_launch_dependents
  tile.gdc_launch_dependents
  return
}

// CHECK-LABEL: func.func @inline_asm
func.func @inline_asm(%x: tensor<128xf16>, %s: f32) {
  // CHECK: %{{.*}}:2 = tile.elementwise_inline_asm "mov.b32 $0, $2;\0A\09mov.b32 $1, $2;" {constraints = "=r,=r,r", packed_element = 2 : i32, pure = false} %{{.*}} : tensor<128xf16> -> tensor<128xf16>, tensor<128xf16>
  %0:2 = tile.elementwise_inline_asm "mov.b32 $0, $2;\n\tmov.b32 $1, $2;" {constraints = "=r,=r,r", packed_element = 2 : i32, pure = false} %x : tensor<128xf16> -> tensor<128xf16>, tensor<128xf16>
  // CHECK: tile.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %{{.*}} : f32 -> f32
  %1 = tile.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %s : f32 -> f32
  // No operands.
  // CHECK: tile.elementwise_inline_asm "mov.u32 $0, %laneid;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  %2 = tile.elementwise_inline_asm "mov.u32 $0, %laneid;" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  return
}

// CHECK-LABEL: func.func @kernel
// CHECK-SAME: attributes {tile.kernel, tile.num_stages = 3 : i32, tile.num_warps = 4 : i32}
func.func @kernel(%out: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 3 : i32} {
  return
}
