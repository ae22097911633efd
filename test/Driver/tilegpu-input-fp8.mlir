// RUN: rm -rf %t && mkdir %t
// RUN: tilec %s --arch=sm_80 -o %t/
// RUN: FileCheck %s --check-prefix=JSON < %t/scale_fp8.json
// RUN: FileCheck %s --check-prefix=PTX < %t/scale_fp8.ptx
// RUN: tilec %s --arch=sm_90a -o - | FileCheck %s --check-prefix=CVT
// A tilegpu input's fp8 pointer parameters are those of a .tile kernel
// (*f8e4m3, *f8e5m2 in the metadata); a scalar fp8 parameter is not, as in
// the language (tilegpu-input-errors.test).

// JSON: "params": [
// JSON-NEXT: {"name": "out", "type": "*f8e4m3", "divisibility": 16},
// JSON-NEXT: {"name": "in", "type": "*f8e5m2", "divisibility": 16},
// JSON-NEXT: {"name": "scale", "type": "f32"}
// JSON-NEXT: ],

// PTX: .visible .entry scale_fp8(
// PTX: ld.global.{{.*}}
// PTX: st.global.{{.*}}
// CVT: cvt.rn.f16x2.e5m2x2
// CVT: cvt.rn.satfinite.e4m3x2.f32

#b = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {tilegpu.num_warps = 4 : i32} {
  func.func @scale_fp8(%out: !tile.ptr<f8E4M3FN> {tile.divisibility = 16 : i32}, %in: !tile.ptr<f8E5M2> {tile.divisibility = 16 : i32}, %scale: f32) attributes {tile.kernel} {
    %offs = tile.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #b>
    %p = tile.splat %in : tensor<512x!tile.ptr<f8E5M2>, #b>
    %pa = tile.addptr %p, %offs : tensor<512x!tile.ptr<f8E5M2>, #b>, tensor<512xi32, #b>
    %x = tile.load %pa : tensor<512x!tile.ptr<f8E5M2>, #b>
    %w = arith.extf %x : tensor<512xf8E5M2, #b> to tensor<512xf32, #b>
    %s = tile.splat %scale : tensor<512xf32, #b>
    %y = arith.mulf %w, %s : tensor<512xf32, #b>
    %z = arith.truncf %y : tensor<512xf32, #b> to tensor<512xf8E4M3FN, #b>
    %q = tile.splat %out : tensor<512x!tile.ptr<f8E4M3FN>, #b>
    %qa = tile.addptr %q, %offs : tensor<512x!tile.ptr<f8E4M3FN>, #b>, tensor<512xi32, #b>
    tile.store %qa, %z : tensor<512x!tile.ptr<f8E4M3FN>, #b>
    return
  }
}
