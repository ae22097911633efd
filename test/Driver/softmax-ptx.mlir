// RUN: tile-opt %s --tilec-llvm | tile-translate --mlir-to-ptx --arch=sm_90 | FileCheck %s
// RUN: %if ptxas %{ tile-opt %s --tilec-llvm | tile-translate --mlir-to-ptx --arch=sm_90 -o %t.sm90.ptx && %ptxas -arch=sm_90 %t.sm90.ptx -o /dev/null %}
// RUN: %if ptxas %{ tile-opt %s --tilec-llvm | tile-translate --mlir-to-ptx --arch=sm_80 -o %t.sm80.ptx && %ptxas -arch=sm_80 %t.sm80.ptx -o /dev/null %}
// The whole pipeline on a row softmax: tile IR to PTX that ptxas accepts.

// CHECK: .target sm_90
// CHECK: .visible .entry softmax(
// CHECK-NEXT: .param .u64 .ptr .global .align 1 softmax_param_0,
// CHECK-NEXT: .param .u64 .ptr .global .align 1 softmax_param_1,
// CHECK-NEXT: .param .u32 softmax_param_2,
// CHECK-NEXT: .param .u32 softmax_param_3
// CHECK: .reqntid 128, 1, 1
// CHECK: ld.global.b32
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync 0
// CHECK: ex2.approx
// CHECK-NOT: call
// CHECK: st.global.b32
func.func @softmax(%out: !tile.ptr<f32>, %inp: !tile.ptr<f32>, %stride: i32, %n: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %row = tile.program_id 0 : i32
  %cols = tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %ns = tile.splat %n : tensor<1024xi32>
  %mask = arith.cmpi slt, %cols, %ns : tensor<1024xi32>
  %rs = arith.muli %row, %stride : i32
  %p = tile.addptr %inp, %rs : !tile.ptr<f32>, i32
  %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>>
  %pa = tile.addptr %ps, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<1024xf32>
  %x = tile.load %pa, %mask, %ninf : tensor<1024x!tile.ptr<f32>>
  %m = tile.reduce max %x axis = 0 : tensor<1024xf32> -> f32
  %ms = tile.splat %m : tensor<1024xf32>
  %z = arith.subf %x, %ms : tensor<1024xf32>
  %e = math.exp %z : tensor<1024xf32>
  %s = tile.reduce sum %e axis = 0 : tensor<1024xf32> -> f32
  %ss = tile.splat %s : tensor<1024xf32>
  %y = arith.divf %e, %ss : tensor<1024xf32>
  %q = tile.addptr %out, %rs : !tile.ptr<f32>, i32
  %qs = tile.splat %q : tensor<1024x!tile.ptr<f32>>
  %qa = tile.addptr %qs, %cols : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %qa, %y, %mask : tensor<1024x!tile.ptr<f32>>
  return
}
