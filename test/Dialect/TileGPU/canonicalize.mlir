// RUN: tile-opt %s -split-input-file -canonicalize | FileCheck %s --enable-var-scope
// Folds of tilegpu.convert_layout and rematerialization of cheap sources.

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: func.func @identity
// CHECK-SAME: (%[[X:.*]]: tensor<128xf32, #{{.*}}>)
func.func @identity(%x: tensor<128xf32, #a>) -> tensor<128xf32, #a> {
  // CHECK-NEXT: return %[[X]]
  %0 = tilegpu.convert_layout %x : tensor<128xf32, #a> -> tensor<128xf32, #a>
  return %0 : tensor<128xf32, #a>
}

// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<128xf32, #[[A:.*]]>)
func.func @chain(%x: tensor<128xf32, #a>) -> tensor<128xf32, #c> {
  // CHECK-NEXT: %[[R:.*]] = tilegpu.convert_layout %[[X]] : tensor<128xf32, #[[A]]> -> tensor<128xf32, #[[C:.*]]>
  // CHECK-NEXT: return %[[R]]
  %0 = tilegpu.convert_layout %x : tensor<128xf32, #a> -> tensor<128xf32, #b>
  %1 = tilegpu.convert_layout %0 : tensor<128xf32, #b> -> tensor<128xf32, #c>
  return %1 : tensor<128xf32, #c>
}

// CHECK-LABEL: func.func @remat
// CHECK-SAME: (%[[S:.*]]: f32)
func.func @remat(%s: f32) -> (tensor<128xf32, #b>, tensor<128xi32, #b>, tensor<128xf32, #b>) {
  // CHECK-DAG: %[[K:.*]] = arith.constant dense<3.000000e+00> : tensor<128xf32, #[[B:.*]]>
  // CHECK-DAG: %[[SP:.*]] = tile.splat %[[S]] : tensor<128xf32, #[[B]]>
  // CHECK-DAG: %[[R:.*]] = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #[[B]]>
  // CHECK-NOT: tilegpu.convert_layout
  // CHECK: return %[[SP]], %[[R]], %[[K]]
  %0 = tile.splat %s : tensor<128xf32, #a>
  %1 = tilegpu.convert_layout %0 : tensor<128xf32, #a> -> tensor<128xf32, #b>
  %2 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #a>
  %3 = tilegpu.convert_layout %2 : tensor<128xi32, #a> -> tensor<128xi32, #b>
  %4 = arith.constant dense<3.0> : tensor<128xf32, #a>
  %5 = tilegpu.convert_layout %4 : tensor<128xf32, #a> -> tensor<128xf32, #b>
  return %1, %3, %5 : tensor<128xf32, #b>, tensor<128xi32, #b>, tensor<128xf32, #b>
}

// -----

// A mask built from a range and a splat (offs_k[:, None] < k_left) is
// rebuilt in the target layout, expand_dims through the slice of it,
// instead of moving through shared memory; a loaded value is not.
#p = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#q = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#sp = #tilegpu.slice<{dim = 1, parent = #p}>
// CHECK-DAG: #[[$Q:.*]] = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$SQ:.*]] = #tilegpu.slice<{dim = 1, parent = #[[$Q]]}>
// CHECK-LABEL: func.func @remat_expression
// CHECK-SAME: (%[[LEFT:.*]]: i32, %[[X:.*]]: tensor<32x1xi32, #{{.*}}>)
func.func @remat_expression(%left: i32, %x: tensor<32x1xi32, #p>) -> (tensor<32x1xi1, #q>, tensor<32x1xi32, #q>) {
  // CHECK-DAG: %[[R:.*]] = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #[[$SQ]]>
  // CHECK-DAG: %[[E:.*]] = tile.expand_dims %[[R]] {axis = 1 : i32} : tensor<32xi32, #[[$SQ]]> -> tensor<32x1xi32, #[[$Q]]>
  // CHECK-DAG: %[[L:.*]] = tile.splat %[[LEFT]] : tensor<32x1xi32, #[[$Q]]>
  // CHECK-DAG: %[[M:.*]] = arith.cmpi slt, %[[E]], %[[L]] : tensor<32x1xi32, #[[$Q]]>
  // CHECK-DAG: %[[CX:.*]] = tilegpu.convert_layout %[[X]]
  // CHECK: return %[[M]], %[[CX]]
  %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #sp>
  %e = tile.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #sp> -> tensor<32x1xi32, #p>
  %l = tile.splat %left : tensor<32x1xi32, #p>
  %m = arith.cmpi slt, %e, %l : tensor<32x1xi32, #p>
  %cm = tilegpu.convert_layout %m : tensor<32x1xi1, #p> -> tensor<32x1xi1, #q>
  %cx = tilegpu.convert_layout %x : tensor<32x1xi32, #p> -> tensor<32x1xi32, #q>
  return %cm, %cx : tensor<32x1xi1, #q>, tensor<32x1xi32, #q>
}

// -----

// The join mask of `tl.join` (a pair index compared with 0), converted to
// the layout that holds pairs in registers: recreated there, through the
// reshape of the range (its source in the layout that keeps each element
// in its thread: 8 registers, as the pair layout's 4 x 2 on a 1 x 1 x 2
// block, every lane and warp a copy).
#row = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#lanes = #tilegpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 16, 2], warpsPerCTA = [1, 4, 1], order = [2, 1, 0]}>
#pairs = #tilegpu.blocked<{sizePerThread = [1, 4, 2], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-DAG: #[[$PAIRS:.*]] = #tilegpu.blocked<{sizePerThread = [1, 4, 2], threadsPerWarp = [4, 8, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
// CHECK-DAG: #[[$TWO:.*]] = #tilegpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @remat_reshape
func.func @remat_reshape() -> tensor<16x32x2xi1, #pairs> {
  // CHECK: %[[R:.*]] = tile.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32, #[[$TWO]]>
  // CHECK-NEXT: %[[R3:.*]] = tile.reshape %[[R]] : tensor<2xi32, #[[$TWO]]> -> tensor<1x1x2xi32, #[[$PAIRS]]>
  // CHECK-NEXT: %[[B:.*]] = tile.broadcast %[[R3]] : tensor<1x1x2xi32, #[[$PAIRS]]> -> tensor<16x32x2xi32, #[[$PAIRS]]>
  // CHECK-NEXT: %[[M:.*]] = arith.cmpi eq, %[[B]], %{{.*}} : tensor<16x32x2xi32, #[[$PAIRS]]>
  // CHECK-NOT: convert_layout
  // CHECK: return %[[M]]
  %r = tile.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32, #row>
  %r3 = tile.reshape %r : tensor<2xi32, #row> -> tensor<1x1x2xi32, #lanes>
  %rb = tile.broadcast %r3 : tensor<1x1x2xi32, #lanes> -> tensor<16x32x2xi32, #lanes>
  %zero = arith.constant dense<0> : tensor<16x32x2xi32, #lanes>
  %first = arith.cmpi eq, %rb, %zero : tensor<16x32x2xi32, #lanes>
  %c = tilegpu.convert_layout %first : tensor<16x32x2xi1, #lanes> -> tensor<16x32x2xi1, #pairs>
  return %c : tensor<16x32x2xi1, #pairs>
}

// -----

// A block converted from a blocked layout is staged from that layout.
#r = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#k = #tilegpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#sh = #tilegpu.nvmma_shared<{swizzle = 128, order = [0, 1]}>
// CHECK-LABEL: func.func @alloc_before_conversion
// CHECK-SAME: (%[[X:.*]]: tensor<64x64xf16, #{{.*}}>)
func.func @alloc_before_conversion(%x: tensor<64x64xf16, #k>) -> !tilegpu.memdesc<64x64xf16, #sh> {
  // CHECK-NEXT: %[[M:.*]] = tilegpu.local_alloc %[[X]] : (tensor<64x64xf16, #{{.*}}>) -> !tilegpu.memdesc<64x64xf16, #{{.*}}>
  // CHECK-NEXT: return %[[M]]
  %c = tilegpu.convert_layout %x : tensor<64x64xf16, #k> -> tensor<64x64xf16, #r>
  %m = tilegpu.local_alloc %c : (tensor<64x64xf16, #r>) -> !tilegpu.memdesc<64x64xf16, #sh>
  return %m : !tilegpu.memdesc<64x64xf16, #sh>
}

// -----

// Inside a loop, blocks defined outside the loop are leaves of a cheap
// expression: they are converted once, after their definition, and the
// per-iteration part is recomputed in the target layout (no conversion in
// the loop). A conversion whose source is defined outside the loop moves out
// of it, and conversions in the source compose.
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @loop_invariant_leaves
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<i32>, %[[N:.*]]: i32)
func.func @loop_invariant_leaves(%p: !tile.ptr<i32>, %n: i32) {
  // CHECK: %[[ROWS:.*]] = tile.load
  // CHECK-NEXT: %[[ROWSB:.*]] = tilegpu.convert_layout %[[ROWS]] : tensor<128xi32, #{{.*}}> -> tensor<128xi32, #[[$B:.*]]>
  // CHECK: scf.for
  // CHECK-NOT: tilegpu.convert_layout
  // CHECK: arith.addi %[[ROWSB]], %{{.*}} : tensor<128xi32, #[[$B]]>
  // CHECK: tile.store
  // CHECK-NEXT: }
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #a>
  %ps = tile.splat %p : tensor<128x!tile.ptr<i32>, #a>
  %pa = tile.addptr %ps, %r : tensor<128x!tile.ptr<i32>, #a>, tensor<128xi32, #a>
  %rows = tile.load %pa : tensor<128x!tile.ptr<i32>, #a>
  %rowsc = tilegpu.convert_layout %rows : tensor<128xi32, #a> -> tensor<128xi32, #c>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %is = tile.splat %i : tensor<128xi32, #c>
    %sum = arith.addi %rowsc, %is : tensor<128xi32, #c>
    %sumb = tilegpu.convert_layout %sum : tensor<128xi32, #c> -> tensor<128xi32, #b>
    %pb = tile.splat %p : tensor<128x!tile.ptr<i32>, #b>
    %q = tile.addptr %pb, %sumb : tensor<128x!tile.ptr<i32>, #b>, tensor<128xi32, #b>
    tile.store %q, %sumb : tensor<128x!tile.ptr<i32>, #b>
  }
  return
}

// -----

// A conversion of a 40-op expression: recomputed inside a loop (where going
// through shared memory costs barriers every iteration), moved through
// shared memory outside loops (it runs once there).
#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @budget_outside_loops
// CHECK: tilegpu.convert_layout
func.func @budget_outside_loops(%p: !tile.ptr<i32>) {
  %one = arith.constant dense<1> : tensor<128xi32, #a>
  %r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #a>
  %v0 = arith.addi %r, %one : tensor<128xi32, #a>
  %v1 = arith.addi %v0, %one : tensor<128xi32, #a>
  %v2 = arith.addi %v1, %one : tensor<128xi32, #a>
  %v3 = arith.addi %v2, %one : tensor<128xi32, #a>
  %v4 = arith.addi %v3, %one : tensor<128xi32, #a>
  %v5 = arith.addi %v4, %one : tensor<128xi32, #a>
  %v6 = arith.addi %v5, %one : tensor<128xi32, #a>
  %v7 = arith.addi %v6, %one : tensor<128xi32, #a>
  %v8 = arith.addi %v7, %one : tensor<128xi32, #a>
  %v9 = arith.addi %v8, %one : tensor<128xi32, #a>
  %v10 = arith.addi %v9, %one : tensor<128xi32, #a>
  %v11 = arith.addi %v10, %one : tensor<128xi32, #a>
  %v12 = arith.addi %v11, %one : tensor<128xi32, #a>
  %v13 = arith.addi %v12, %one : tensor<128xi32, #a>
  %v14 = arith.addi %v13, %one : tensor<128xi32, #a>
  %v15 = arith.addi %v14, %one : tensor<128xi32, #a>
  %v16 = arith.addi %v15, %one : tensor<128xi32, #a>
  %v17 = arith.addi %v16, %one : tensor<128xi32, #a>
  %v18 = arith.addi %v17, %one : tensor<128xi32, #a>
  %v19 = arith.addi %v18, %one : tensor<128xi32, #a>
  %v20 = arith.addi %v19, %one : tensor<128xi32, #a>
  %v21 = arith.addi %v20, %one : tensor<128xi32, #a>
  %v22 = arith.addi %v21, %one : tensor<128xi32, #a>
  %v23 = arith.addi %v22, %one : tensor<128xi32, #a>
  %v24 = arith.addi %v23, %one : tensor<128xi32, #a>
  %v25 = arith.addi %v24, %one : tensor<128xi32, #a>
  %v26 = arith.addi %v25, %one : tensor<128xi32, #a>
  %v27 = arith.addi %v26, %one : tensor<128xi32, #a>
  %v28 = arith.addi %v27, %one : tensor<128xi32, #a>
  %v29 = arith.addi %v28, %one : tensor<128xi32, #a>
  %v30 = arith.addi %v29, %one : tensor<128xi32, #a>
  %v31 = arith.addi %v30, %one : tensor<128xi32, #a>
  %v32 = arith.addi %v31, %one : tensor<128xi32, #a>
  %v33 = arith.addi %v32, %one : tensor<128xi32, #a>
  %v34 = arith.addi %v33, %one : tensor<128xi32, #a>
  %v35 = arith.addi %v34, %one : tensor<128xi32, #a>
  %v36 = arith.addi %v35, %one : tensor<128xi32, #a>
  %v37 = arith.addi %v36, %one : tensor<128xi32, #a>
  %v38 = arith.addi %v37, %one : tensor<128xi32, #a>
  %v39 = arith.addi %v38, %one : tensor<128xi32, #a>
  %vb = tilegpu.convert_layout %v39 : tensor<128xi32, #a> -> tensor<128xi32, #b>
  %pb = tile.splat %p : tensor<128x!tile.ptr<i32>, #b>
  %q = tile.addptr %pb, %vb : tensor<128x!tile.ptr<i32>, #b>, tensor<128xi32, #b>
  tile.store %q, %vb : tensor<128x!tile.ptr<i32>, #b>
  return
}

// CHECK-LABEL: func.func @budget_in_loops
// CHECK: scf.for
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.store
func.func @budget_in_loops(%p: !tile.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %one = tile.splat %i : tensor<128xi32, #a>
    %r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #a>
    %v0 = arith.addi %r, %one : tensor<128xi32, #a>
    %v1 = arith.addi %v0, %one : tensor<128xi32, #a>
    %v2 = arith.addi %v1, %one : tensor<128xi32, #a>
    %v3 = arith.addi %v2, %one : tensor<128xi32, #a>
    %v4 = arith.addi %v3, %one : tensor<128xi32, #a>
    %v5 = arith.addi %v4, %one : tensor<128xi32, #a>
    %v6 = arith.addi %v5, %one : tensor<128xi32, #a>
    %v7 = arith.addi %v6, %one : tensor<128xi32, #a>
    %v8 = arith.addi %v7, %one : tensor<128xi32, #a>
    %v9 = arith.addi %v8, %one : tensor<128xi32, #a>
    %v10 = arith.addi %v9, %one : tensor<128xi32, #a>
    %v11 = arith.addi %v10, %one : tensor<128xi32, #a>
    %v12 = arith.addi %v11, %one : tensor<128xi32, #a>
    %v13 = arith.addi %v12, %one : tensor<128xi32, #a>
    %v14 = arith.addi %v13, %one : tensor<128xi32, #a>
    %v15 = arith.addi %v14, %one : tensor<128xi32, #a>
    %v16 = arith.addi %v15, %one : tensor<128xi32, #a>
    %v17 = arith.addi %v16, %one : tensor<128xi32, #a>
    %v18 = arith.addi %v17, %one : tensor<128xi32, #a>
    %v19 = arith.addi %v18, %one : tensor<128xi32, #a>
    %v20 = arith.addi %v19, %one : tensor<128xi32, #a>
    %v21 = arith.addi %v20, %one : tensor<128xi32, #a>
    %v22 = arith.addi %v21, %one : tensor<128xi32, #a>
    %v23 = arith.addi %v22, %one : tensor<128xi32, #a>
    %v24 = arith.addi %v23, %one : tensor<128xi32, #a>
    %v25 = arith.addi %v24, %one : tensor<128xi32, #a>
    %v26 = arith.addi %v25, %one : tensor<128xi32, #a>
    %v27 = arith.addi %v26, %one : tensor<128xi32, #a>
    %v28 = arith.addi %v27, %one : tensor<128xi32, #a>
    %v29 = arith.addi %v28, %one : tensor<128xi32, #a>
    %v30 = arith.addi %v29, %one : tensor<128xi32, #a>
    %v31 = arith.addi %v30, %one : tensor<128xi32, #a>
    %v32 = arith.addi %v31, %one : tensor<128xi32, #a>
    %v33 = arith.addi %v32, %one : tensor<128xi32, #a>
    %v34 = arith.addi %v33, %one : tensor<128xi32, #a>
    %v35 = arith.addi %v34, %one : tensor<128xi32, #a>
    %v36 = arith.addi %v35, %one : tensor<128xi32, #a>
    %v37 = arith.addi %v36, %one : tensor<128xi32, #a>
    %v38 = arith.addi %v37, %one : tensor<128xi32, #a>
    %v39 = arith.addi %v38, %one : tensor<128xi32, #a>
    %vb = tilegpu.convert_layout %v39 : tensor<128xi32, #a> -> tensor<128xi32, #b>
    %pb = tile.splat %p : tensor<128x!tile.ptr<i32>, #b>
    %q = tile.addptr %pb, %vb : tensor<128x!tile.ptr<i32>, #b>, tensor<128xi32, #b>
    tile.store %q, %vb : tensor<128x!tile.ptr<i32>, #b>
  }
  return
}

// -----

// A small load (32 elements, fewer than the 128 threads: each thread holds
// at most one) of cheap addresses is loaded again in the conversion's
// layout (a page table's entries that both the rows and the columns of a
// tile need); a load of 128 elements is converted. A small load with a
// store between it and the conversion is loaded again right after itself,
// where it reads what it read (mamba's selective-state update: x, dt, D and
// z loaded as 1-D vectors, used along a state tile's rows after the state
// is stored).
#l1 = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#l2 = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#ls = #tilegpu.slice<{dim = 1, parent = #l2}>
// CHECK-DAG: #[[$L2:.*]] = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$LS:.*]] = #tilegpu.slice<{dim = 1, parent = #[[$L2]]}>
// CHECK-LABEL: func.func @small_loads
// CHECK-SAME: (%[[P:[^:]*]]: !tile.ptr<i32>, %[[N:[^:]*]]: i32)
func.func @small_loads(%p: !tile.ptr<i32>, %n: i32) -> (tensor<32xi32, #ls>, tensor<128xi32, #ls>, tensor<32xi32, #ls>) {
  // CHECK: %[[PS:.*]] = tile.splat %[[P]] : tensor<32x!tile.ptr<i32>, #[[$LS]]>
  // CHECK-NEXT: %[[R:.*]] = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #[[$LS]]>
  // CHECK-NEXT: %[[Q:.*]] = tile.addptr %[[PS]], %[[R]] : tensor<32x!tile.ptr<i32>, #[[$LS]]>
  // CHECK-NEXT: %[[R2:.*]] = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #[[$LS]]>
  // CHECK-NEXT: %[[NS:.*]] = tile.splat %[[N]] : tensor<32xi32, #[[$LS]]>
  // CHECK-NEXT: %[[M:.*]] = arith.cmpi slt, %[[R2]], %[[NS]] : tensor<32xi32, #[[$LS]]>
  // CHECK-NEXT: %[[V:.*]] = tile.load %[[Q]], %[[M]] : tensor<32x!tile.ptr<i32>, #[[$LS]]>
  %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #l1>
  %ps = tile.splat %p : tensor<32x!tile.ptr<i32>, #l1>
  %q = tile.addptr %ps, %r : tensor<32x!tile.ptr<i32>, #l1>, tensor<32xi32, #l1>
  %ns = tile.splat %n : tensor<32xi32, #l1>
  %m = arith.cmpi slt, %r, %ns : tensor<32xi32, #l1>
  %v = tile.load %q, %m : tensor<32x!tile.ptr<i32>, #l1>
  %cv = tilegpu.convert_layout %v : tensor<32xi32, #l1> -> tensor<32xi32, #ls>
  // CHECK: %[[BIG:.*]] = tile.load %{{.*}} : tensor<128x!tile.ptr<i32>, #{{.*}}>
  // CHECK-NEXT: tilegpu.convert_layout %[[BIG]]
  %r128 = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #l1>
  %ps128 = tile.splat %p : tensor<128x!tile.ptr<i32>, #l1>
  %q128 = tile.addptr %ps128, %r128 : tensor<128x!tile.ptr<i32>, #l1>, tensor<128xi32, #l1>
  %big = tile.load %q128 : tensor<128x!tile.ptr<i32>, #l1>
  %cbig = tilegpu.convert_layout %big : tensor<128xi32, #l1> -> tensor<128xi32, #ls>
  // CHECK: %[[W:.*]] = tile.load %{{.*}} : tensor<32x!tile.ptr<i32>, #[[$LS]]>
  // CHECK-NEXT: tile.store
  // CHECK-NEXT: return %[[V]], %{{.*}}, %[[W]]
  %w = tile.load %q : tensor<32x!tile.ptr<i32>, #l1>
  tile.store %p, %n : !tile.ptr<i32>
  %cw = tilegpu.convert_layout %w : tensor<32xi32, #l1> -> tensor<32xi32, #ls>
  return %cv, %cbig, %cw : tensor<32xi32, #ls>, tensor<128xi32, #ls>, tensor<32xi32, #ls>
}
