// RUN: rm -rf %t && mkdir %t
// RUN: tilec %s -k to_mma --arch=sm_80 -o %t/k.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t/k.ptx
// RUN: FileCheck %s --check-prefix=JSON < %t/k.json
// RUN: %if ptxas %{ %ptxas -arch=sm_80 %t/k.ptx -o /dev/null %}
// RUN: tilec %s --emit=tilegpu -o - | FileCheck %s --check-prefix=IR
// RUN: cat %s | tilec - --from=tilegpu -o %t/all/ && ls %t/all | FileCheck %s --check-prefix=DIR
// tilec compiles tilegpu IR whose blocks carry their layouts (a .mlir file,
// or --from=tilegpu) from after layout assignment on: the layouts stay as
// written (no coalescing, tensor-core selection or propagation), shared
// memory is allocated, and the PTX and metadata are as for a .tile kernel,
// the parameters named by the SSA names of the kernel's arguments.

// PTX: .target sm_80
// PTX: .visible .entry to_mma(
// PTX-NEXT: .param .u64 .ptr .global .align 1 to_mma_param_0,
// PTX-NEXT: .param .u64 .ptr .global .align 1 to_mma_param_1,
// PTX-NEXT: .param .f32 to_mma_param_2,
// PTX-NEXT: .param .u32 to_mma_param_3
// PTX: .reqntid 128, 1, 1
// PTX: st.shared
// PTX: bar.sync 0
// PTX: ld.shared
// PTX-NOT: .entry

// JSON: "kernel": "to_mma",
// JSON-NEXT: "arch": "sm_80",
// JSON-NEXT: "num_warps": 4,
// JSON-NEXT: "num_stages": 2,
// JSON-NEXT: "threads_per_block": 128,
// JSON-NEXT: "shared_bytes": {{[1-9][0-9]*}},
// JSON-NEXT: "params": [
// JSON-NEXT: {"name": "dst", "type": "*f32"},
// JSON-NEXT: {"name": "src", "type": "*f32", "divisibility": 16},
// JSON-NEXT: {"name": "scale", "type": "f32"},
// JSON-NEXT: {"name": "arg3", "type": "i32"}
// JSON-NEXT: ],
// JSON-NEXT: "constexprs": {},

// IR: #blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// IR: #mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// IR: module attributes {tilegpu.num_warps = 4 : i32, tilegpu.shared = {{[1-9][0-9]*}} : i32}
// IR-LABEL: func.func @to_mma
// IR: tile.load %{{.*}} : tensor<32x32x!tile.ptr<f32>, #blocked>
// IR: tilegpu.convert_layout %{{.*}} : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #mma>
// IR: tile.store %{{.*}} : tensor<32x32x!tile.ptr<f32>, #mma>
// IR-LABEL: func.func @empty

// DIR: empty.json
// DIR-NEXT: empty.ptx
// DIR-NEXT: to_mma.json
// DIR-NEXT: to_mma.ptx

#blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  // dst[i, j] = src[i, j] * scale, loaded in #blocked and stored from #mma.
  func.func @to_mma(%dst: !tile.ptr<f32>, %src: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %scale: f32, %0: i32) attributes {tile.kernel, tile.num_stages = 2 : i32} {
    %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>>
    %r2 = tile.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #tilegpu.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %c = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>>
    %c2 = tile.expand_dims %c {axis = 0 : i32} : tensor<32xi32, #tilegpu.slice<{dim = 0, parent = #blocked}>> -> tensor<1x32xi32, #blocked>
    %ld = arith.constant dense<32> : tensor<32x1xi32, #blocked>
    %ro = arith.muli %r2, %ld : tensor<32x1xi32, #blocked>
    %rb = tile.broadcast %ro : tensor<32x1xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %cb = tile.broadcast %c2 : tensor<1x32xi32, #blocked> -> tensor<32x32xi32, #blocked>
    %off = arith.addi %rb, %cb : tensor<32x32xi32, #blocked>
    %p = tile.splat %src : tensor<32x32x!tile.ptr<f32>, #blocked>
    %pa = tile.addptr %p, %off : tensor<32x32x!tile.ptr<f32>, #blocked>, tensor<32x32xi32, #blocked>
    %x = tile.load %pa : tensor<32x32x!tile.ptr<f32>, #blocked>
    %y = tilegpu.convert_layout %x : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #mma>
    %s = tile.splat %scale : tensor<32x32xf32, #mma>
    %z = arith.mulf %y, %s : tensor<32x32xf32, #mma>
    %off2 = tilegpu.convert_layout %off : tensor<32x32xi32, #blocked> -> tensor<32x32xi32, #mma>
    %q = tile.splat %dst : tensor<32x32x!tile.ptr<f32>, #mma>
    %qa = tile.addptr %q, %off2 : tensor<32x32x!tile.ptr<f32>, #mma>, tensor<32x32xi32, #mma>
    tile.store %qa, %z : tensor<32x32x!tile.ptr<f32>, #mma>
    return
  }

  func.func @empty() attributes {tile.kernel} {
    return
  }
}
