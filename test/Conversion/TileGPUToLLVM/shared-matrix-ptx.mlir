// RUN: tile-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm=compute-capability=80 -canonicalize -cse | tile-translate --mlir-to-ptx --arch=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: tile-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm=compute-capability=90 -canonicalize -cse | tile-translate --mlir-to-ptx --arch=sm_90a | FileCheck %s --check-prefix=SM90
// RUN: %if ptxas %{ tile-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm=compute-capability=80 -canonicalize -cse | tile-translate --mlir-to-ptx --arch=sm_80 -o %t80.ptx && %ptxas -arch=sm_80 %t80.ptx -o %t80.cubin %}
// RUN: %if ptxas %{ tile-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm=compute-capability=90 -canonicalize -cse | tile-translate --mlir-to-ptx --arch=sm_90a -o %t90.ptx && %ptxas -arch=sm_90a %t90.ptx -o %t90.cubin %}
// The whole compile of the bench's f16 transpose passes the target's
// capability to the lowering: ldmatrix.trans on sm_80 and sm_90a, PTX that
// ptxas accepts.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: tilec %tilec_src_root/bench/kernels/transpose.tile -k transpose_f16 -D BLOCK_M=128 -D BLOCK_N=64 --num-warps=8 --arch=sm_80 -o %t.dir/sm80/
// RUN: tilec %tilec_src_root/bench/kernels/transpose.tile -k transpose_f16 -D BLOCK_M=128 -D BLOCK_N=64 --num-warps=8 --arch=sm_90a -o %t.dir/sm90a/
// RUN: FileCheck %s --check-prefix=BENCH < %t.dir/sm80/transpose_f16.ptx
// RUN: FileCheck %s --check-prefix=BENCH < %t.dir/sm90a/transpose_f16.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t.dir/sm80/transpose_f16.ptx -o %t.dir/sm80.cubin %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t.dir/sm90a/transpose_f16.ptx -o %t.dir/sm90a.cubin %}
// BENCH: bar.sync 0
// BENCH-COUNT-4: st.shared.v4.b32
// BENCH: bar.sync 0
// BENCH-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// BENCH-NOT: ld.shared
// The exchanges of shared-matrix.mlir (f16, bf16 and i16) down to PTX.

#src = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
#res = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
#cols = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 8], order = [0, 1]}>
#rows = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {tilegpu.num_warps = 8 : i32} {
  // SM80-LABEL: .entry transpose_f16
  // SM80-COUNT-4: st.shared.v4.b32
  // SM80: bar.sync 0
  // SM80-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
  // SM80-NOT: ld.shared
  // SM90-LABEL: .entry transpose_f16
  // SM90-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
  func.func @transpose_f16(%p: !tile.ptr<f16>) attributes {tile.kernel} {
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #src}>>
    %e = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #src}>> -> tensor<1x64xi32, #src>
    %b = tile.broadcast %e : tensor<1x64xi32, #src> -> tensor<128x64xi32, #src>
    %f = arith.sitofp %b : tensor<128x64xi32, #src> to tensor<128x64xf16, #src>
    %t = tile.trans %f : tensor<128x64xf16, #src> -> tensor<64x128xf16, #res>
    tile.print "", %t : tensor<64x128xf16, #res>
    return
  }

  // SM80-LABEL: .entry rows_to_cols
  // SM80-NOT: matrix
  // SM80: .entry cols_to_rows
  // SM90-LABEL: .entry rows_to_cols
  // SM90-COUNT-4: stmatrix.sync.aligned.m8n8.x4.trans.shared.b16
  // SM90: bar.sync 0
  // SM90-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16
  // SM90-NOT: ld.shared
  func.func @rows_to_cols(%x: bf16) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<128x64xbf16, #rows>
    %c = tilegpu.convert_layout %v : tensor<128x64xbf16, #rows> -> tensor<128x64xbf16, #cols>
    tile.print "", %c : tensor<128x64xbf16, #cols>
    return
  }

  // SM80-COUNT-4: st.shared.v4.b32
  // SM80: bar.sync 0
  // SM80-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16
  // SM80-NOT: ld.shared
  func.func @cols_to_rows(%x: i16) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<128x64xi16, #cols>
    %c = tilegpu.convert_layout %v : tensor<128x64xi16, #cols> -> tensor<128x64xi16, #rows>
    tile.print "", %c : tensor<128x64xi16, #rows>
    return
  }
}
