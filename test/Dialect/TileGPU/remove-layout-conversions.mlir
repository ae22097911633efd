// RUN: tile-opt %s --tilegpu-remove-layout-conversions | FileCheck %s --enable-var-scope
// Layout propagation: anchors (loads, stores, dots) keep their layouts, the
// blocks computed from them follow where that removes conversions, cheap
// sources are recreated, loop-invariant conversions leave loops, and
// conversions needed in one branch only move into it.

#c = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#k = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#row = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#row4 = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#col = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#b = #tilegpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-DAG: #[[$C:blocked]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
  // CHECK-DAG: #[[$K:blocked[0-9]+]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
  // CHECK-DAG: #[[$MMA:mma]] = #tilegpu.mma
  // CHECK-DAG: #[[$ROWS:slice[0-9]*]] = #tilegpu.slice<{dim = 1, parent = #[[$C]]}>
  // CHECK-DAG: #[[$MMAROWS:slice[0-9]*]] = #tilegpu.slice<{dim = 1, parent = #[[$MMA]]}>

  // A loop-carried accumulator is carried in the dot's layout.
  // CHECK-LABEL: func.func @loop
  func.func @loop(%x: tensor<64x32xf16, #a>, %y: tensor<32x64xf16, #b>, %n: i32) -> tensor<64x64xf32, #c> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: %[[INIT:.*]] = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #[[$MMA]]>
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #c>
    // CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<64x64xf32, #[[$MMA]]>)
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #c>) : i32 {
      // CHECK-NOT: convert_layout
      // CHECK: %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[ACC]]
      // CHECK-NEXT: scf.yield %[[D]] : tensor<64x64xf32, #[[$MMA]]>
      %c = tilegpu.convert_layout %acc : tensor<64x64xf32, #c> -> tensor<64x64xf32, #mma>
      %d = tile.dot %x, %y, %c : tensor<64x32xf16, #a> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
      %e = tilegpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #c>
      scf.yield %e : tensor<64x64xf32, #c>
    }
    // CHECK: %[[OUT:.*]] = tilegpu.convert_layout %[[R]] : tensor<64x64xf32, #[[$MMA]]> -> tensor<64x64xf32, #[[$C]]>
    // CHECK: return %[[OUT]]
    return %r : tensor<64x64xf32, #c>
  }

  // The pointers are used as #k and advanced as #c: both happen in #k now,
  // the step recreated there, no conversion left in the loop.
  // CHECK-LABEL: func.func @advance
  func.func @advance(%p: tensor<32x64x!tile.ptr<f32>, #c>, %s: i32, %n: i32) -> tensor<32x64xf32, #k> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<32x64xf32, #k>
    // CHECK: %[[P0:.*]] = tilegpu.convert_layout %{{.*}} : tensor<32x64x!tile.ptr<f32>, #[[$C]]> -> tensor<32x64x!tile.ptr<f32>, #[[$K]]>
    // CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[P:.*]] = %[[P0]]) -> (tensor<32x64xf32, #[[$K]]>, tensor<32x64x!tile.ptr<f32>, #[[$K]]>)
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z, %ptrs = %p) -> (tensor<32x64xf32, #k>, tensor<32x64x!tile.ptr<f32>, #c>) : i32 {
      // CHECK-NOT: convert_layout
      // CHECK: %[[X:.*]] = tile.load %[[P]] : tensor<32x64x!tile.ptr<f32>, #[[$K]]>
      // CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %[[X]]
      // CHECK: %[[STEP:.*]] = tile.splat %{{.*}} : tensor<32x64xi32, #[[$K]]>
      // CHECK: %[[NEXT:.*]] = tile.addptr %[[P]], %[[STEP]] : tensor<32x64x!tile.ptr<f32>, #[[$K]]>
      // CHECK: scf.yield %[[SUM]], %[[NEXT]]
      %pk = tilegpu.convert_layout %ptrs : tensor<32x64x!tile.ptr<f32>, #c> -> tensor<32x64x!tile.ptr<f32>, #k>
      %x = tile.load %pk : tensor<32x64x!tile.ptr<f32>, #k>
      %sum = arith.addf %acc, %x : tensor<32x64xf32, #k>
      %step = tile.splat %s : tensor<32x64xi32, #c>
      %next = tile.addptr %ptrs, %step : tensor<32x64x!tile.ptr<f32>, #c>, tensor<32x64xi32, #c>
      scf.yield %sum, %next : tensor<32x64xf32, #k>, tensor<32x64x!tile.ptr<f32>, #c>
    }
    return %r#0 : tensor<32x64xf32, #k>
  }

  // A narrowing cast of a converted block runs before the conversion.
  // CHECK-LABEL: func.func @narrow_first
  func.func @narrow_first(%x: tensor<64x64xf32, #mma>) -> tensor<64x64xf16, #c> {
    // CHECK: %[[T:.*]] = arith.truncf %{{.*}} : tensor<64x64xf32, #[[$MMA]]> to tensor<64x64xf16, #[[$MMA]]>
    // CHECK-NEXT: %[[C:.*]] = tilegpu.convert_layout %[[T]] : tensor<64x64xf16, #[[$MMA]]> -> tensor<64x64xf16, #[[$C]]>
    // CHECK-NEXT: return %[[C]]
    %c = tilegpu.convert_layout %x : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #c>
    %t = arith.truncf %c : tensor<64x64xf32, #c> to tensor<64x64xf16, #c>
    return %t : tensor<64x64xf16, #c>
  }

  // A constant, a range and a splat are created in the layout they are
  // converted to; a chain of conversions back to the start folds away.
  // CHECK-LABEL: func.func @cheap_sources
  func.func @cheap_sources(%s: i32, %x: tensor<64x64xf32, #mma>) -> (tensor<64xi32, #row>, tensor<64xi32, #row>, tensor<64xi32, #row>, tensor<64x64xf32, #mma>) {
    // CHECK-NOT: convert_layout
    // CHECK-DAG: arith.constant dense<7> : tensor<64xi32, #{{.*}}>
    // CHECK-DAG: tile.make_range {{.*}} : tensor<64xi32, #{{.*}}>
    // CHECK-DAG: tile.splat %{{.*}} : tensor<64xi32, #{{.*}}>
    // CHECK: return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} :
    %c = arith.constant dense<7> : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #c}>>
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #c}>>
    %sp = tile.splat %s : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #c}>>
    %c1 = tilegpu.convert_layout %c : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #c}>> -> tensor<64xi32, #row>
    %r1 = tilegpu.convert_layout %r : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #c}>> -> tensor<64xi32, #row>
    %s1 = tilegpu.convert_layout %sp : tensor<64xi32, #tilegpu.slice<{dim = 1, parent = #c}>> -> tensor<64xi32, #row>
    %x1 = tilegpu.convert_layout %x : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #c>
    %x2 = tilegpu.convert_layout %x1 : tensor<64x64xf32, #c> -> tensor<64x64xf32, #mma>
    return %c1, %r1, %s1, %x2 : tensor<64xi32, #row>, tensor<64xi32, #row>, tensor<64xi32, #row>, tensor<64x64xf32, #mma>
  }

  // An elementwise chain between two conversions runs in the dot's layout;
  // the splat is created there.
  // CHECK-LABEL: func.func @elementwise_chain
  func.func @elementwise_chain(%x: tensor<64x64xf32, #mma>, %s: f32) -> tensor<64x64xf32, #mma> {
    // CHECK-NOT: convert_layout
    // CHECK: %[[S:.*]] = tile.splat %{{.*}} : tensor<64x64xf32, #[[$MMA]]>
    // CHECK: %[[M:.*]] = arith.mulf %{{.*}}, %[[S]] : tensor<64x64xf32, #[[$MMA]]>
    // CHECK: %[[E:.*]] = math.exp2 %[[M]] : tensor<64x64xf32, #[[$MMA]]>
    // CHECK-NOT: convert_layout
    // CHECK: return %[[E]]
    %c = tilegpu.convert_layout %x : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #c>
    %sp = tile.splat %s : tensor<64x64xf32, #c>
    %m = arith.mulf %c, %sp : tensor<64x64xf32, #c>
    %e = math.exp2 %m : tensor<64x64xf32, #c>
    %r = tilegpu.convert_layout %e : tensor<64x64xf32, #c> -> tensor<64x64xf32, #mma>
    return %r : tensor<64x64xf32, #mma>
  }

  // Row statistics (softmax): the running maximum is carried in the slice
  // of the tile's layout that the reduction gives (4 registers a thread, as
  // in #row4), and expand_dims of it is the tile's layout again: no
  // conversion.
  // CHECK-LABEL: func.func @row_max
  func.func @row_max(%x: tensor<64x64xf32, #k>, %n: i32) -> tensor<64x64xf32, #k> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK-NOT: convert_layout
    // CHECK: arith.constant dense<0xFF800000> : tensor<64xf32, #[[$KROWS:slice[0-9]*]]>
    // CHECK: scf.for {{.*}} -> (tensor<64xf32, #[[$KROWS]]>)
    // CHECK: tile.reduce max {{.*}} -> tensor<64xf32, #[[$KROWS]]>
    // CHECK: arith.maximumf {{.*}} : tensor<64xf32, #[[$KROWS]]>
    // CHECK: tile.expand_dims {{.*}} : tensor<64xf32, #[[$KROWS]]> -> tensor<64x1xf32, #[[$K]]>
    // CHECK-NOT: convert_layout
    // CHECK: return
    %init = arith.constant dense<0xFF800000> : tensor<64xf32, #row4>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %init) -> (tensor<64xf32, #row4>) : i32 {
      %red = tile.reduce max %x axis = 1 : tensor<64x64xf32, #k> -> tensor<64xf32, #tilegpu.slice<{dim = 1, parent = #k}>>
      %cv = tilegpu.convert_layout %red : tensor<64xf32, #tilegpu.slice<{dim = 1, parent = #k}>> -> tensor<64xf32, #row4>
      %mx = arith.maximumf %m, %cv : tensor<64xf32, #row4>
      scf.yield %mx : tensor<64xf32, #row4>
    }
    %cv2 = tilegpu.convert_layout %r : tensor<64xf32, #row4> -> tensor<64xf32, #tilegpu.slice<{dim = 1, parent = #k}>>
    %e = tile.expand_dims %cv2 {axis = 1 : i32} : tensor<64xf32, #tilegpu.slice<{dim = 1, parent = #k}>> -> tensor<64x1xf32, #k>
    %b = tile.broadcast %e : tensor<64x1xf32, #k> -> tensor<64x64xf32, #k>
    %d = arith.subf %x, %b : tensor<64x64xf32, #k>
    return %d : tensor<64x64xf32, #k>
  }

  // Negative: in the slice of #c every thread would hold 32 copies of the
  // row statistics (#c spreads a row over a whole warp) against one in
  // #row: more registers and 32 times the arithmetic every iteration, so the
  // statistics stay in #row and the conversions stay.
  // CHECK-LABEL: func.func @replicated_rows
  func.func @replicated_rows(%x: tensor<64x64xf32, #c>, %n: i32) -> tensor<64xf32, #row> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: scf.for {{.*}} -> (tensor<64xf32, #[[$ROW:blocked[0-9]*]]>)
    // CHECK: tile.reduce max {{.*}} -> tensor<64xf32, #[[$ROWS]]>
    // CHECK: tilegpu.convert_layout {{.*}} : tensor<64xf32, #[[$ROWS]]> -> tensor<64xf32, #[[$ROW]]>
    // CHECK: arith.maximumf {{.*}} : tensor<64xf32, #[[$ROW]]>
    %init = arith.constant dense<0xFF800000> : tensor<64xf32, #row>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %init) -> (tensor<64xf32, #row>) : i32 {
      %red = tile.reduce max %x axis = 1 : tensor<64x64xf32, #c> -> tensor<64xf32, #tilegpu.slice<{dim = 1, parent = #c}>>
      %cv = tilegpu.convert_layout %red : tensor<64xf32, #tilegpu.slice<{dim = 1, parent = #c}>> -> tensor<64xf32, #row>
      %mx = arith.maximumf %m, %cv : tensor<64xf32, #row>
      scf.yield %mx : tensor<64xf32, #row>
    }
    return %r : tensor<64xf32, #row>
  }

  // A conversion of an expand_dims converts its operand instead, where it
  // folds with the conversion before it; one of a broadcast converts the
  // block before it is broadcast (64 elements, not 4096).
  // CHECK-LABEL: func.func @convert_before_shape_ops
  func.func @convert_before_shape_ops(%r: tensor<64xf32, #row>, %y: tensor<64x1xf32, #col>, %x: tensor<64x64xf32, #c>) -> (tensor<64x64xf32, #c>, tensor<64x64xf32, #c>) {
    // CHECK-DAG: %[[Y:.*]] = tilegpu.convert_layout %{{.*}} : tensor<64x1xf32, #{{.*}}> -> tensor<64x1xf32, #[[$C]]>
    // CHECK-DAG: %[[S:.*]] = tilegpu.convert_layout %{{.*}} : tensor<64xf32, #{{.*}}> -> tensor<64xf32, #[[$ROWS]]>
    // CHECK: %[[E:.*]] = tile.expand_dims %[[S]] {axis = 1 : i32} : tensor<64xf32, #[[$ROWS]]> -> tensor<64x1xf32, #[[$C]]>
    // CHECK-NEXT: tile.broadcast %[[E]]
    // CHECK-NOT: convert_layout
    // CHECK: tile.broadcast %[[Y]] : tensor<64x1xf32, #[[$C]]> -> tensor<64x64xf32, #[[$C]]>
    // CHECK-NOT: convert_layout
    %s = tilegpu.convert_layout %r : tensor<64xf32, #row> -> tensor<64xf32, #tilegpu.slice<{dim = 1, parent = #col}>>
    %e = tile.expand_dims %s {axis = 1 : i32} : tensor<64xf32, #tilegpu.slice<{dim = 1, parent = #col}>> -> tensor<64x1xf32, #col>
    %ec = tilegpu.convert_layout %e : tensor<64x1xf32, #col> -> tensor<64x1xf32, #c>
    %b = tile.broadcast %ec : tensor<64x1xf32, #c> -> tensor<64x64xf32, #c>
    %d = arith.subf %x, %b : tensor<64x64xf32, #c>
    %yb = tile.broadcast %y : tensor<64x1xf32, #col> -> tensor<64x64xf32, #col>
    %yc = tilegpu.convert_layout %yb : tensor<64x64xf32, #col> -> tensor<64x64xf32, #c>
    %m = arith.mulf %x, %yc : tensor<64x64xf32, #c>
    return %d, %m : tensor<64x64xf32, #c>, tensor<64x64xf32, #c>
  }

  // The results of an scf.if take the layout both branches compute in.
  // CHECK-LABEL: func.func @if_results
  func.func @if_results(%x: tensor<64x64xf32, #mma>, %cond: i1) -> tensor<64x64xf32, #mma> {
    // CHECK-NOT: convert_layout
    // CHECK: scf.if %{{.*}} -> (tensor<64x64xf32, #[[$MMA]]>)
    // CHECK: arith.addf {{.*}} : tensor<64x64xf32, #[[$MMA]]>
    // CHECK-NOT: convert_layout
    // CHECK: return
    %c = tilegpu.convert_layout %x : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #c>
    %r = scf.if %cond -> (tensor<64x64xf32, #c>) {
      %a = arith.addf %c, %c : tensor<64x64xf32, #c>
      scf.yield %a : tensor<64x64xf32, #c>
    } else {
      scf.yield %c : tensor<64x64xf32, #c>
    }
    %back = tilegpu.convert_layout %r : tensor<64x64xf32, #c> -> tensor<64x64xf32, #mma>
    return %back : tensor<64x64xf32, #mma>
  }

  // scf.while carries the accumulator in the dot's layout, through both
  // regions.
  // CHECK-LABEL: func.func @while_loop
  func.func @while_loop(%x: tensor<64x32xf16, #a>, %y: tensor<32x64xf16, #b>, %z: tensor<64x64xf32, #c>, %n: i32) -> tensor<64x64xf32, #c> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: %[[INIT:.*]] = tilegpu.convert_layout %{{.*}} : tensor<64x64xf32, #[[$C]]> -> tensor<64x64xf32, #[[$MMA]]>
    // CHECK: %[[W:.*]]:2 = scf.while (%{{.*}} = %[[INIT]], %{{.*}} = %{{.*}}) : (tensor<64x64xf32, #[[$MMA]]>, i32) -> (tensor<64x64xf32, #[[$MMA]]>, i32)
    // CHECK-NOT: convert_layout
    // CHECK: tile.dot
    // CHECK-NOT: convert_layout
    // CHECK: scf.yield
    // CHECK: tilegpu.convert_layout %[[W]]#0 : tensor<64x64xf32, #[[$MMA]]> -> tensor<64x64xf32, #[[$C]]>
    %r:2 = scf.while (%acc = %z, %i = %c0) : (tensor<64x64xf32, #c>, i32) -> (tensor<64x64xf32, #c>, i32) {
      %more = arith.cmpi slt, %i, %n : i32
      scf.condition(%more) %acc, %i : tensor<64x64xf32, #c>, i32
    } do {
    ^bb0(%acc2: tensor<64x64xf32, #c>, %i2: i32):
      %cv = tilegpu.convert_layout %acc2 : tensor<64x64xf32, #c> -> tensor<64x64xf32, #mma>
      %d = tile.dot %x, %y, %cv : tensor<64x32xf16, #a> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
      %e = tilegpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #c>
      %next = arith.addi %i2, %c1 : i32
      scf.yield %e, %next : tensor<64x64xf32, #c>, i32
    }
    return %r#0 : tensor<64x64xf32, #c>
  }

  // A mask built from ranges and splats is recreated in the layout that
  // needs it instead of converted.
  // CHECK-LABEL: func.func @rematerialize_mask
  func.func @rematerialize_mask(%p: tensor<64x64x!tile.ptr<f32>, #k>, %n: i32) -> tensor<64x64xf32, #k> {
    // CHECK-NOT: convert_layout
    // CHECK: tile.make_range
    // CHECK: tile.expand_dims {{.*}} -> tensor<1x64xi32, #[[$K]]>
    // CHECK-NOT: convert_layout
    // CHECK: tile.load
    %r = tile.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #c}>>
    %e = tile.expand_dims %r {axis = 0 : i32} : tensor<64xi32, #tilegpu.slice<{dim = 0, parent = #c}>> -> tensor<1x64xi32, #c>
    %b = tile.broadcast %e : tensor<1x64xi32, #c> -> tensor<64x64xi32, #c>
    %s = tile.splat %n : tensor<64x64xi32, #c>
    %m = arith.cmpi slt, %b, %s : tensor<64x64xi32, #c>
    %mk = tilegpu.convert_layout %m : tensor<64x64xi1, #c> -> tensor<64x64xi1, #k>
    %x = tile.load %p, %mk : tensor<64x64x!tile.ptr<f32>, #k>
    return %x : tensor<64x64xf32, #k>
  }

  // A conversion of a block defined before the loop (attention's Q to its
  // dot-operand layout) runs once, before the loop.
  // CHECK-LABEL: func.func @hoist_invariant
  func.func @hoist_invariant(%q: tensor<64x32xf16, #c>, %y: tensor<32x64xf16, #b>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    // CHECK: %[[Q:.*]] = tilegpu.convert_layout %{{.*}} : tensor<64x32xf16, #[[$C]]> -> tensor<64x32xf16, #{{.*}}>
    // CHECK-NEXT: scf.for
    // CHECK-NOT: convert_layout
    // CHECK: tile.dot %[[Q]]
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>) : i32 {
      %qa = tilegpu.convert_layout %q : tensor<64x32xf16, #c> -> tensor<64x32xf16, #a>
      %d = tile.dot %qa, %y, %acc : tensor<64x32xf16, #a> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    return %r : tensor<64x64xf32, #mma>
  }

  // A conversion only one branch needs moves into that branch.
  // CHECK-LABEL: func.func @sink_into_branch
  func.func @sink_into_branch(%x: tensor<64x64xf32, #mma>, %p: tensor<64x64x!tile.ptr<f32>, #c>, %cond: i1) {
    // CHECK-NOT: convert_layout
    // CHECK: scf.if
    // CHECK-NEXT: %[[V:.*]] = tilegpu.convert_layout %{{.*}} : tensor<64x64xf32, #[[$MMA]]> -> tensor<64x64xf32, #[[$C]]>
    // CHECK-NEXT: tile.store %{{.*}}, %[[V]]
    %v = tilegpu.convert_layout %x : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #c>
    scf.if %cond {
      tile.store %p, %v : tensor<64x64x!tile.ptr<f32>, #c>
    }
    return
  }

  // Negative: a loaded block and a dot result meet at an addition that is
  // stored: global memory keeps its coalesced layout, so the dot result is
  // converted (one conversion), not the load and the sum (two).
  // CHECK-LABEL: func.func @anchors_keep_layouts
  func.func @anchors_keep_layouts(%x: tensor<64x64xf32, #mma>, %p: tensor<64x64x!tile.ptr<f32>, #c>) {
    // CHECK: %[[V:.*]] = tilegpu.convert_layout %{{.*}} : tensor<64x64xf32, #[[$MMA]]> -> tensor<64x64xf32, #[[$C]]>
    // CHECK: %[[L:.*]] = tile.load %{{.*}} : tensor<64x64x!tile.ptr<f32>, #[[$C]]>
    // CHECK: %[[S:.*]] = arith.addf %[[V]], %[[L]] : tensor<64x64xf32, #[[$C]]>
    // CHECK: tile.store %{{.*}}, %[[S]] : tensor<64x64x!tile.ptr<f32>, #[[$C]]>
    %v = tilegpu.convert_layout %x : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #c>
    %l = tile.load %p : tensor<64x64x!tile.ptr<f32>, #c>
    %s = arith.addf %v, %l : tensor<64x64xf32, #c>
    tile.store %p, %s : tensor<64x64x!tile.ptr<f32>, #c>
    return
  }

  // Reductions lower in any layout whose linear layout separates the axis
  // (mma accumulators too): the reduction follows its operand's layout and
  // only its 64 results are converted, not the 4096 inputs.
  // CHECK-LABEL: func.func @reduce_follows_mma
  func.func @reduce_follows_mma(%x: tensor<64x64xf32, #mma>) -> tensor<64xf32, #tilegpu.slice<{dim = 1, parent = #c}>> {
    // CHECK: %[[R:.*]] = tile.reduce max %{{.*}} axis = 1 : tensor<64x64xf32, #[[$MMA]]> -> tensor<64xf32, #[[$MMAROWS]]>
    // CHECK: tilegpu.convert_layout %[[R]]
    %v = tilegpu.convert_layout %x : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #c>
    %r = tile.reduce max %v axis = 1 : tensor<64x64xf32, #c> -> tensor<64xf32, #tilegpu.slice<{dim = 1, parent = #c}>>
    return %r : tensor<64xf32, #tilegpu.slice<{dim = 1, parent = #c}>>
  }

  // Negative: a conversion to a dot operand stays (the dot needs it), and a
  // block converted inside the loop from a value the loop computes stays
  // there.
  // CHECK-LABEL: func.func @operand_conversion_stays
  func.func @operand_conversion_stays(%p: tensor<64x32x!tile.ptr<f16>, #c>, %y: tensor<32x64xf16, #b>, %n: i32) -> tensor<64x64xf32, #mma> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    // CHECK: scf.for
    // CHECK: %[[L:.*]] = tile.load
    // CHECK: tilegpu.convert_layout %[[L]] : tensor<64x32xf16, #[[$C]]> -> tensor<64x32xf16, #{{.*}}>
    // CHECK: tile.dot
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64x64xf32, #mma>) : i32 {
      %l = tile.load %p : tensor<64x32x!tile.ptr<f16>, #c>
      %la = tilegpu.convert_layout %l : tensor<64x32xf16, #c> -> tensor<64x32xf16, #a>
      %d = tile.dot %la, %y, %acc : tensor<64x32xf16, #a> * tensor<32x64xf16, #b> -> tensor<64x64xf32, #mma>
      scf.yield %d : tensor<64x64xf32, #mma>
    }
    return %r : tensor<64x64xf32, #mma>
  }

  // Two layouts meeting at one value: the loop-carried block is advanced
  // in #c and read in #k inside the loop, and also stored in #c after it.
  // Carrying it in #k still wins (one conversion per iteration against two
  // outside the loop).
  // CHECK-LABEL: func.func @conflict_cost
  func.func @conflict_cost(%p: tensor<32x64x!tile.ptr<f32>, #c>, %v: tensor<32x64xf32, #c>, %s: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: scf.for {{.*}} -> (tensor<32x64x!tile.ptr<f32>, #[[$K]]>)
    // CHECK-NOT: convert_layout
    // CHECK: scf.yield
    // CHECK: %[[OUT:.*]] = tilegpu.convert_layout %{{.*}} : tensor<32x64x!tile.ptr<f32>, #[[$K]]> -> tensor<32x64x!tile.ptr<f32>, #[[$C]]>
    // CHECK: tile.store %[[OUT]]
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%ptrs = %p) -> (tensor<32x64x!tile.ptr<f32>, #c>) : i32 {
      %pk = tilegpu.convert_layout %ptrs : tensor<32x64x!tile.ptr<f32>, #c> -> tensor<32x64x!tile.ptr<f32>, #k>
      %x = tile.load %pk : tensor<32x64x!tile.ptr<f32>, #k>
      tile.store %pk, %x : tensor<32x64x!tile.ptr<f32>, #k>
      %step = tile.splat %s : tensor<32x64xi32, #c>
      %next = tile.addptr %ptrs, %step : tensor<32x64x!tile.ptr<f32>, #c>, tensor<32x64xi32, #c>
      scf.yield %next : tensor<32x64x!tile.ptr<f32>, #c>
    }
    tile.store %r, %v : tensor<32x64x!tile.ptr<f32>, #c>
    return
  }

  // A statistic reduced to a scalar: the 1-D block stays in the slice the
  // row reduction gives (a whole-block reduction reduces any layout), no
  // conversion to #row and back.
  // CHECK-LABEL: func.func @reduce_to_scalar
  func.func @reduce_to_scalar(%x: tensor<64x64xf32, #k>) -> f32 {
    // CHECK-NOT: convert_layout
    // CHECK: %[[R:.*]] = tile.reduce sum %{{.*}} axis = 1 : tensor<64x64xf32, #[[$K]]> -> tensor<64xf32, #[[$KROWS:.*]]>
    // CHECK-NEXT: %[[E:.*]] = math.exp %[[R]] : tensor<64xf32, #[[$KROWS]]>
    // CHECK-NEXT: tile.reduce sum %[[E]] axis = 0 : tensor<64xf32, #[[$KROWS]]> -> f32
    %r = tile.reduce sum %x axis = 1 : tensor<64x64xf32, #k> -> tensor<64xf32, #tilegpu.slice<{dim = 1, parent = #k}>>
    %c = tilegpu.convert_layout %r : tensor<64xf32, #tilegpu.slice<{dim = 1, parent = #k}>> -> tensor<64xf32, #row>
    %e = math.exp %c : tensor<64xf32, #row>
    %s = tile.reduce sum %e axis = 0 : tensor<64xf32, #row> -> f32
    return %s : f32
  }
}
