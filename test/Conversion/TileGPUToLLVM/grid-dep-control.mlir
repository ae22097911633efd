// RUN: tile-opt %s --convert-tilegpu-to-llvm=compute-capability=90 | FileCheck %s --check-prefix=SM90
// RUN: tile-opt %s --convert-tilegpu-to-llvm=compute-capability=80 | FileCheck %s --check-prefix=SM80
// RUN: %if ptxas %{ tile-opt %s --convert-tilegpu-to-llvm=compute-capability=90 | tile-translate --mlir-to-ptx --arch=sm_90a -o %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// RUN: %if ptxas %{ tile-opt %s --convert-tilegpu-to-llvm=compute-capability=80 | tile-translate --mlir-to-ptx --arch=sm_80 -o %t80.ptx && %ptxas -arch=sm_80 %t80.ptx -o %t80.cubin %}
// tile.gdc_wait / tile.gdc_launch_dependents (programmatic dependent
// launch): griddepcontrol on sm_90 and later, with side effects, in place
// between the accesses around them; nothing on sm_80, which has no
// dependent launch.

module attributes {tilegpu.num_warps = 4 : i32} {
  // SM90-LABEL: llvm.func @gdc
  // SM90: llvm.inline_asm has_side_effects asm_dialect = att "griddepcontrol.wait;", ""
  // SM90: "ld.global.b32
  // SM90: llvm.inline_asm has_side_effects asm_dialect = att "griddepcontrol.launch_dependents;", ""
  // SM90: st.global.b32
  // SM80-LABEL: llvm.func @gdc
  // SM80-NOT: griddepcontrol
  // SM80: llvm.return
  func.func @gdc(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>) attributes {tile.kernel} {
    tile.gdc_wait
    %x = tile.load %q : !tile.ptr<f32>
    tile.gdc_launch_dependents
    tile.store %p, %x : !tile.ptr<f32>
    return
  }
}
