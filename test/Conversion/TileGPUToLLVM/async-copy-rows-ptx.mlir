// RUN: tile-opt %s --tilegpu-pipeline=tma=false -canonicalize -cse --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize -cse -o %t.mlir
// RUN: tile-translate %t.mlir --mlir-to-ptx --arch=sm_90a | FileCheck %s
// RUN: %if ptxas %{ tile-translate %t.mlir --mlir-to-ptx --arch=sm_80 -o %t80.ptx && %ptxas -arch=sm_80 %t80.ptx -o %t80.cubin %}
// RUN: %if ptxas %{ tile-translate %t.mlir --mlir-to-ptx --arch=sm_90a -o %t90.ptx && %ptxas -arch=sm_90a %t90.ptx -o %t90.cubin %}
// A row loop without dots pipelined through a ring of row-major tiles
// (pipeline-no-dot.mlir) down to PTX that ptxas accepts for sm_80 and
// sm_90a: each thread copies its 4 consecutive f32 of a 512-element row in
// one 16-byte cp.async.cg (zero bytes where masked off) and reads them back
// in one ld.shared.v4; the masked-off part becomes -inf again (selp).

// CHECK-LABEL: .visible .entry rows(
// Prologue: rows lb and lb + step, a commit group each.
// CHECK: cp.async.cg.shared.global [ %r{{[0-9]+}} + 0 ], [ %rd{{[0-9]+}} + 0 ], 16, %r{{[0-9]+}};
// CHECK: cp.async.commit_group;
// CHECK: cp.async.cg.shared.global
// CHECK: cp.async.commit_group;
// CHECK: $L__BB0_[[LOOP:[0-9]+]]:
// CHECK: cp.async.wait_group 1;
// CHECK: bar.sync 0;
// CHECK: cp.async.cg.shared.global
// CHECK: cp.async.commit_group;
// CHECK: ld.shared.v4.b32
// CHECK-COUNT-4: selp.f32 {{.*}}, 0fFF800000, %p{{[0-9]+}};
// CHECK: st.global.v4.b32
// CHECK: @%p{{[0-9]+}} bra $L__BB0_[[LOOP]];
// CHECK: cp.async.wait_group 0;
// CHECK: bar.sync 0;

#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  func.func @rows(%out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %in: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %stride: i32 {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %lb: i32, %ub: i32, %step: i32) attributes {tile.kernel} {
    // Rows lb and lb + step into slots 0 and 1, each masked by "the row exists".
    // This row's copies have landed; then row + 2 * step into the slot read last.
    %cols = tile.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %ns = tile.splat %n : tensor<512xi32, #b>
    %mask = arith.cmpi slt, %cols, %ns : tensor<512xi32, #b>
    %ninf = arith.constant dense<0xFF800000> : tensor<512xf32, #b>
    scf.for %row = %lb to %ub step %step : i32 {
      %off = arith.muli %row, %stride : i32
      %base = tile.addptr %in, %off : !tile.ptr<f32>, i32
      %bs = tile.splat %base : tensor<512x!tile.ptr<f32>, #b>
      %p = tile.addptr %bs, %cols : tensor<512x!tile.ptr<f32>, #b>, tensor<512xi32, #b>
      %x = tile.load %p, %mask, %ninf : tensor<512x!tile.ptr<f32>, #b>
      %m = tile.reduce max %x axis = 0 : tensor<512xf32, #b> -> f32
      %ms = tile.splat %m : tensor<512xf32, #b>
      %y = arith.subf %x, %ms : tensor<512xf32, #b>
      %obase = tile.addptr %out, %off : !tile.ptr<f32>, i32
      %os = tile.splat %obase : tensor<512x!tile.ptr<f32>, #b>
      %q = tile.addptr %os, %cols : tensor<512x!tile.ptr<f32>, #b>, tensor<512xi32, #b>
      tile.store %q, %y, %mask : tensor<512x!tile.ptr<f32>, #b>
    } {tile.num_stages = 3 : i32}
    return
  }
}
