// RUN: tile-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm="compute-capability=80" -canonicalize | FileCheck %s --check-prefix=SM80 --enable-var-scope
// RUN: tile-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm="compute-capability=90" -canonicalize | FileCheck %s --check-prefix=SM90 --enable-var-scope
// RUN: tile-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --check-prefix=SM90 --enable-var-scope
// A bf16 atomic add: sm_90's atom.add.noftz.bf16 (also for an unknown
// target, 0); before sm_90, which has no such instruction, a
// compare-and-swap loop on the 16 bits whose sum is rounded once (fma by
// 1.0), the op's ordering on each swap, masked-off lanes skipping it.
// test/Target/atomic-add-bf16.test assembles both with ptxas; the GPU
// suite runs both (test/gpu/atomics.tile float_ops and float_ops_sm80).
#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // SM80-LABEL: llvm.func @bf16_add
  // SM80: llvm.inline_asm has_side_effects asm_dialect = att "{\0A\09.reg .pred changed;\0A\09.reg .b16 one, old, sum, seen;\0A\09mov.b16 $0, 0;\0A\09@!$3 bra $$L_bf16_add_done_${:uid};\0A\09mov.b16 one, 0x3F80;\0A\09ld.global.b16 old, [ $1 + 0 ];\0A$$L_bf16_add_again_${:uid}:\0A\09fma.rn.bf16 sum, old, one, $2;\0A\09atom.release.gpu.global.cas.b16 seen, [ $1 + 0 ], old, sum;\0A\09setp.ne.b16 changed, seen, old;\0A\09mov.b16 old, seen;\0A\09@changed bra $$L_bf16_add_again_${:uid};\0A\09mov.b16 $0, seen;\0A$$L_bf16_add_done_${:uid}:\0A\09}", "=h,l,h,b"
  // SM80-NOT: add.noftz.bf16
  // SM90-LABEL: llvm.func @bf16_add
  // SM90: "mov.b16 $0, 0;\0A\09@$3 atom.release.gpu.global.add.noftz.bf16 $0, [ $1 + 0 ], $2;", "=h,l,h,b"
  // SM90-NOT: cas.b16
  func.func @bf16_add(%p: !tile.ptr<bf16>, %n: i32) attributes {tile.kernel} {
    %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #b>
    %ps = tile.splat %p : tensor<32x!tile.ptr<bf16>, #b>
    %a = tile.addptr %ps, %r : tensor<32x!tile.ptr<bf16>, #b>, tensor<32xi32, #b>
    %ns = tile.splat %n : tensor<32xi32, #b>
    %m = arith.cmpi slt, %r, %ns : tensor<32xi32, #b>
    %v = arith.sitofp %r : tensor<32xi32, #b> to tensor<32xbf16, #b>
    %old = tile.atomic_rmw add release gpu %a, %v, %m : tensor<32x!tile.ptr<bf16>, #b>
    tile.store %a, %old : tensor<32x!tile.ptr<bf16>, #b>
    return
  }
}
