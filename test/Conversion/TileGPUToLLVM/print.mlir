// RUN: tile-opt %s --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// device_print: one vprintf per register with the program id and index.

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-DAG: llvm.mlir.global internal constant @printf_format_{{.*}}("pid (%d, %d, %d) idx (%d) x = %f\0A")
  // CHECK-DAG: llvm.mlir.global internal constant @printf_format_{{.*}}("pid (%d, %d, %d) n = %d\0A")
  // CHECK-DAG: llvm.mlir.global internal constant @printf_format_{{.*}}("hello\0A")
  // CHECK-DAG: llvm.func @vprintf(!llvm.ptr, !llvm.ptr) -> i32
  // CHECK-LABEL: llvm.func @print
  func.func @print(%x: f16, %n: i8) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<32xf16, #b>
    // CHECK: llvm.call @vprintf
    tile.print "hello"
    // CHECK: llvm.fpext %{{.*}} : f16 to f64
    // CHECK: llvm.call @vprintf
    tile.print "x = ", %v : tensor<32xf16, #b>
    // CHECK: llvm.sext %{{.*}} : i8 to i32
    // CHECK: llvm.call @vprintf
    tile.print "n = ", %n : i8
    return
  }
}
