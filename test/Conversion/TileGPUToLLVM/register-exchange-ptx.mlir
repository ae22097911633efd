// RUN: tile-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize -cse | tile-translate --mlir-to-ptx --arch=sm_80 | FileCheck %s
// RUN: %if ptxas %{ tile-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize -cse | tile-translate --mlir-to-ptx --arch=sm_80 -o %t80.ptx && %ptxas -arch=sm_80 %t80.ptx -o %t80.cubin %}
// RUN: %if ptxas %{ tile-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize -cse | tile-translate --mlir-to-ptx --arch=sm_90a -o %t90.ptx && %ptxas -arch=sm_90a %t90.ptx -o %t90.cubin %}
// The register exchanges of register-exchange.mlir down to PTX that ptxas
// accepts: an accumulator row reduction and broadcast, the accumulator to
// the A operand, lanes trading places; no shared memory and no barrier.

#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#a = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#row = #tilegpu.slice<{dim = 1, parent = #mma}>
#rows = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [0, 1]}>
#col = #tilegpu.slice<{dim = 0, parent = #rows}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-NOT: bar.sync
  // CHECK-NOT: .shared
  // CHECK: shfl.sync.bfly.b32
  // CHECK: shfl.sync.idx.b32
  func.func @exchanges(%x: f32, %p: !tile.ptr<i32>) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<64x64xf32, #mma>
    %m = tile.reduce max %v axis = 1 : tensor<64x64xf32, #mma> -> tensor<64xf32, #row>
    %e = tile.expand_dims %m {axis = 1 : i32} : tensor<64xf32, #row> -> tensor<64x1xf32, #mma>
    %b = tile.broadcast %e : tensor<64x1xf32, #mma> -> tensor<64x64xf32, #mma>
    %d = arith.subf %v, %b : tensor<64x64xf32, #mma>
    %h = arith.truncf %d : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
    %o = tilegpu.convert_layout %h : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #a>
    tile.print "", %o : tensor<64x64xf16, #a>
    %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #col>
    %c = tile.expand_dims %r {axis = 0 : i32} : tensor<32xi32, #col> -> tensor<1x32xi32, #rows>
    %w = tile.broadcast %c : tensor<1x32xi32, #rows> -> tensor<16x32xi32, #rows>
    %t = tilegpu.convert_layout %w : tensor<16x32xi32, #rows> -> tensor<16x32xi32, #cols>
    tile.print "", %t : tensor<16x32xi32, #cols>
    return
  }
}
