// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --check-prefix=NONE
// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm=compute-capability=80 -canonicalize | FileCheck %s --check-prefix=SM80
// RUN: tile-opt %s -split-input-file --convert-tilegpu-to-llvm=compute-capability=90 -canonicalize | FileCheck %s --check-prefix=SM90
// Exchanges of 16-bit elements through shared memory with ldmatrix (from
// compute capability 75) and stmatrix (from 90) where a side's lanes fit
// the 8x8 matrices and the matrices take fewer wavefronts than vectors
// (SharedExchangeLayout.h). Without a capability (the pass's default), only
// ld/st.shared.

// The bench's ragged f16 transpose (128x64, 8 warps): the source's
// registers run down the columns, 8 of them a 16-byte vector; the result's
// lanes 2-4 read those vectors as the columns of .trans matrices, whose rows
// are its register pairs and lanes 0-1. Without ldmatrix every result
// register is its own 2-byte load.
#src = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
#res = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
module attributes {tilegpu.num_warps = 8 : i32, tilegpu.shared = 16384 : i32} {
  // NONE-LABEL: llvm.func @transpose_f16
  // NONE: nvvm.barrier0
  // NONE-COUNT-4: llvm.store {{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // NONE: nvvm.barrier0
  // NONE-COUNT-32: llvm.load {{.*}} : !llvm.ptr<3> -> f16
  // NONE-NOT: matrix
  // SM80-LABEL: llvm.func @transpose_f16
  // SM80: nvvm.barrier0
  // SM80-COUNT-4: llvm.store {{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
  // SM80-NOT: llvm.store {{.*}}!llvm.ptr<3>
  // SM80: nvvm.barrier0
  // SM80-COUNT-4: "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {$0, $1, $2, $3}, [ $4 + 0 ];", "=r,=r,=r,=r,r" {{.*}} : (i32) -> !llvm.struct<(i32, i32, i32, i32)>
  // SM80-NOT: -> f16
  // SM80: llvm.call @vprintf
  // SM90-LABEL: llvm.func @transpose_f16
  // SM90-COUNT-4: llvm.store {{.*}} : vector<8xf16>, !llvm.ptr<3>
  // SM90-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
  func.func @transpose_f16(%x: f16) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<128x64xf16, #src>
    %t = tile.trans %v {tilegpu.scratch_offset = 0 : i32} : tensor<128x64xf16, #src> -> tensor<64x128xf16, #res>
    tile.print "", %t : tensor<64x128xf16, #res>
    return
  }

  // f32 elements never use the matrix instructions.
  // SM90-LABEL: llvm.func @transpose_f32
  // SM90-NOT: matrix
  // SM90: llvm.call @vprintf
  func.func @transpose_f32(%x: f32) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<128x64xf32, #src>
    %t = tile.trans %v {tilegpu.scratch_offset = 0 : i32} : tensor<128x64xf32, #src> -> tensor<64x128xf32, #res>
    tile.print "", %t : tensor<64x128xf32, #res>
    return
  }
}

// -----

// 16-byte rows to columns and back (64x64 bf16, 4 warps). Rows to
// columns: on sm_90 each side's lanes fit the matrices (the rows' lanes
// 2-4 run down a column: stmatrix.trans; the columns' register pair and
// lanes 0-1 run down one too: ldmatrix); ldmatrix alone is no better than
// the vectors, so sm_80 keeps them. Columns to rows: the columns' 8
// registers along a row are a 16-byte store, the rows read them with
// ldmatrix from sm_80 on (2 elements a load without).
#cols = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#rows = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {tilegpu.num_warps = 4 : i32, tilegpu.shared = 16384 : i32} {
  // NONE-LABEL: llvm.func @rows_to_cols
  // NONE-NOT: matrix
  // NONE: llvm.call @vprintf
  // SM80-LABEL: llvm.func @rows_to_cols
  // SM80-NOT: matrix
  // SM80: llvm.call @vprintf
  // SM90-LABEL: llvm.func @rows_to_cols
  // SM90: nvvm.barrier0
  // SM90-NOT: llvm.store {{.*}}!llvm.ptr<3>
  // SM90-COUNT-4: "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [ $0 + 0 ], {$1, $2, $3, $4};", "r,r,r,r,r" {{.*}} : (i32, i32, i32, i32, i32) -> ()
  // SM90: nvvm.barrier0
  // SM90-NOT: llvm.load {{.*}}!llvm.ptr<3>
  // SM90-COUNT-4: "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {$0, $1, $2, $3}, [ $4 + 0 ];"
  // SM90-NOT: llvm.load {{.*}}!llvm.ptr<3>
  // SM90: llvm.call @vprintf
  func.func @rows_to_cols(%x: bf16) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<64x64xbf16, #rows>
    %c = tilegpu.convert_layout %v {tilegpu.scratch_offset = 0 : i32} : tensor<64x64xbf16, #rows> -> tensor<64x64xbf16, #cols>
    tile.print "", %c : tensor<64x64xbf16, #cols>
    return
  }

  // NONE-LABEL: llvm.func @cols_to_rows
  // NONE-COUNT-16: llvm.load {{.*}} : !llvm.ptr<3> -> vector<2xbf16>
  // SM80-LABEL: llvm.func @cols_to_rows
  // SM80-COUNT-4: llvm.store {{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
  // SM80: nvvm.barrier0
  // SM80-COUNT-4: "ldmatrix.sync.aligned.m8n8.x4.shared.b16
  // SM80-NOT: llvm.load {{.*}}!llvm.ptr<3>
  // SM80: llvm.call @vprintf
  // SM90-LABEL: llvm.func @cols_to_rows
  // SM90-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16
  func.func @cols_to_rows(%x: bf16) attributes {tile.kernel} {
    %v = tile.splat %x : tensor<64x64xbf16, #cols>
    %c = tilegpu.convert_layout %v {tilegpu.scratch_offset = 0 : i32} : tensor<64x64xbf16, #cols> -> tensor<64x64xbf16, #rows>
    tile.print "", %c : tensor<64x64xbf16, #rows>
    return
  }
}
