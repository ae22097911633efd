// RUN: tile-opt %s --tilegpu-test-print-layout -o /dev/null | FileCheck %s
// Each encoding's linear layout, pinned by its bases: the image of each
// register, lane and warp bit (or shared-memory offset bit) as one index
// per block dimension.

#blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 1], order = [1, 0]}>
#rows = #tilegpu.slice<{dim = 1, parent = #blocked}>
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#mma_rows = #tilegpu.slice<{dim = 1, parent = #mma}>
#a = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
#wgmma = #tilegpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 16, 16]}>
#nvmma = #tilegpu.nvmma_shared<{swizzle = 64, order = [1, 0]}>
#swizzled = #tilegpu.shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>

// Registers 4 along dim 1; lanes 8 along dim 1 (4 apart), then 4 along
// dim 0; warps along dim 0; 8 rows wrap twice: a repetition register.
// CHECK-LABEL: layout of @blocked argument 0
// CHECK-NEXT: bases: register: (0, 1) (0, 2) (8, 0); lane: (0, 4) (0, 8) (0, 16) (1, 0) (2, 0); warp: (4, 0); outputs dim0=16 dim1=32
func.func @blocked(%x: tensor<16x32xf32, #blocked>) { return }

// The slice keeps the rows: lanes along dim 1 hold copies (zero bases).
// CHECK-LABEL: layout of @rows argument 0
// CHECK-NEXT: bases: register: (8); lane: (0) (0) (0) (1) (2); warp: (4); outputs dim0=16
func.func @rows(%x: tensor<16xf32, #rows>) { return }

// mma.sync m16n8: register bit 0 the next column, bit 1 eight rows down,
// then the repetitions along N; lanes 2 bits of column pairs, 3 of rows;
// warps (w % 2, w / 2).
// CHECK-LABEL: layout of @mma argument 0
// CHECK-NEXT: bases: register: (0, 1) (8, 0) (0, 16) (32, 0); lane: (0, 2) (0, 4) (1, 0) (2, 0) (4, 0); warp: (16, 0) (0, 8); outputs dim0=64 dim1=32
func.func @mma(%x: tensor<64x32xf32, #mma>) { return }

// Row statistics of the accumulator: the column lanes and the warps along
// N hold copies.
// CHECK-LABEL: layout of @mma_rows argument 0
// CHECK-NEXT: bases: register: (8) (32); lane: (0) (0) (1) (2) (4); warp: (16) (0); outputs dim0=64
func.func @mma_rows(%x: tensor<64xf32, #mma_rows>) { return }

// The A operand (m16k16 per warp): 2 halves per register, 8 rows down, 8
// along K; then K-steps and M repetitions; warps along N hold copies.
// CHECK-LABEL: layout of @operand_a argument 0
// CHECK-NEXT: bases: register: (0, 1) (8, 0) (0, 8) (0, 16) (32, 0); lane: (0, 2) (0, 4) (1, 0) (2, 0) (4, 0); warp: (16, 0) (0, 0); outputs dim0=64 dim1=32
func.func @operand_a(%x: tensor<64x32xf16, #a>) { return }

// The B operand (k16n8 per warp): halves along K, then 8 along K.
// CHECK-LABEL: layout of @operand_b argument 0
// CHECK-NEXT: bases: register: (1, 0) (8, 0) (16, 0) (0, 16); lane: (2, 0) (4, 0) (0, 1) (0, 2) (0, 4); warp: (0, 0) (0, 8); outputs dim0=32 dim1=32
func.func @operand_b(%x: tensor<32x32xf16, #b>) { return }

// wgmma: each warp 16 rows of its warp group's 64, all columns.
// CHECK-LABEL: layout of @wgmma argument 0
// CHECK-NEXT: bases: register: (0, 1) (8, 0) (0, 8); lane: (0, 2) (0, 4) (1, 0) (2, 0) (4, 0); warp: (16, 0) (32, 0); outputs dim0=64 dim1=16
func.func @wgmma(%x: tensor<64x16xf32, #wgmma>) { return }

// A 64-byte swizzle of f16 rows: 32 halves per row; 16-byte chunks (8
// halves) XORed by (row / 2) % 4.
// CHECK-LABEL: layout of @nvmma argument 0
// CHECK-NEXT: bases: offset: (0, 1) (0, 2) (0, 4) (0, 8) (0, 16) (1, 0) (2, 8) (4, 16) (8, 0); outputs dim0=16 dim1=32
func.func @nvmma(%x: !tilegpu.memdesc<16x32xf16, #nvmma>) { return }

// Rows of 8 in chunks of 2 XORed by row % 4.
// CHECK-LABEL: layout of @swizzled argument 0
// CHECK-NEXT: bases: offset: (0, 1) (0, 2) (0, 4) (1, 2) (2, 4) (4, 0); outputs dim0=8 dim1=8
func.func @swizzled(%x: !tilegpu.memdesc<8x8xf16, #swizzled>) { return }
