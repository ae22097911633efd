// RUN: tile-opt %s -split-input-file --tilegpu-allocate-shared-memory --convert-tilegpu-to-llvm -canonicalize | FileCheck %s --enable-var-scope
// Atomics: `atom.SEM.SCOPE.global.OP` per element in inline PTX; float
// max/min as two integer atomics on the bits (Triton's); old values that
// threads other than the owner use go through the op's scratch. ptxas
// checks these atomics in test/gpu/atomics.tile.

// Float max: values >= 0 take a signed max of the bits, values < 0 an
// unsigned min; the old value is the one of the atomic that ran.
#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {tilegpu.num_warps = 1 : i32} {
  // CHECK-LABEL: llvm.func @float_max
  func.func @float_max(%p: !tile.ptr<f32>, %q: !tile.ptr<i32>) attributes {tile.kernel} {
    %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #b>
    %ps = tile.splat %p : tensor<32x!tile.ptr<f32>, #b>
    %a = tile.addptr %ps, %r : tensor<32x!tile.ptr<f32>, #b>, tensor<32xi32, #b>
    %v = arith.sitofp %r : tensor<32xi32, #b> to tensor<32xf32, #b>
    // CHECK: %[[POS:.*]] = llvm.fcmp "oge"
    // CHECK: %[[NEG:.*]] = llvm.fcmp "olt"
    // CHECK: %[[A:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, 0;\0A\09@$3 atom.acq_rel.gpu.global.max.s32 $0, [ $1 + 0 ], $2;", "=r,l,r,b" %{{.*}}, %{{.*}}, %[[POS]]
    // CHECK: %[[B:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, 0;\0A\09@$3 atom.acq_rel.gpu.global.min.u32 $0, [ $1 + 0 ], $2;", "=r,l,r,b" %{{.*}}, %{{.*}}, %[[NEG]]
    // CHECK: llvm.select %[[POS]], %[[A]], %[[B]]
    %old = tile.atomic_rmw max acq_rel gpu %a, %v : tensor<32x!tile.ptr<f32>, #b>
    tile.store %a, %old : tensor<32x!tile.ptr<f32>, #b>
    // CHECK: "mov.b32 $0, 0;\0A\09atom.relaxed.cta.global.cas.b32 $0, [ $1 + 0 ], $2, $3;", "=r,l,r,r"
    %qs = tile.splat %q : tensor<32x!tile.ptr<i32>, #b>
    %qa = tile.addptr %qs, %r : tensor<32x!tile.ptr<i32>, #b>, tensor<32xi32, #b>
    %c = tile.atomic_cas relaxed cta %qa, %r, %r : tensor<32x!tile.ptr<i32>, #b>
    // CHECK: "mov.b32 $0, 0;\0A\09atom.release.sys.global.exch.b32 $0, [ $1 + 0 ], $2;"
    %x = tile.atomic_rmw xchg release sys %qa, %c : tensor<32x!tile.ptr<i32>, #b>
    // CHECK: "mov.b32 $0, 0;\0A\09atom.acquire.gpu.global.max.u32 $0, [ $1 + 0 ], $2;"
    %y = tile.atomic_rmw umax acquire gpu %qa, %c : tensor<32x!tile.ptr<i32>, #b>
    // CHECK: "mov.b32 $0, 0;\0A\09atom.acq_rel.gpu.global.xor.b32 $0, [ $1 + 0 ], $2;"
    %z = tile.atomic_rmw xor acq_rel gpu %qa, %c : tensor<32x!tile.ptr<i32>, #b>
    return
  }
}

// -----

// A scalar compare-and-swap whose old value every thread uses: a barrier
// before it (release; it also orders earlier reads of the slots before the
// stores), thread 0 runs it, stores the old value to slot 0 (the others to
// slot 1), a barrier (acquire), every thread reads slot 0.
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @scalar_cas
  func.func @scalar_cas(%lock: !tile.ptr<i32>, %out: !tile.ptr<i32>) attributes {tile.kernel} {
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    // CHECK: nvvm.barrier0
    // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
    // CHECK: %[[OWN:.*]] = llvm.icmp "eq" %[[TID]]
    // CHECK: %[[OLD:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, 0;\0A\09@$4 atom.acq_rel.gpu.global.cas.b32 $0, [ $1 + 0 ], $2, $3;", "=r,l,r,r,b" %{{.*}}, %{{.*}}, %{{.*}}, %[[OWN]]
    // CHECK-NOT: nvvm.barrier0
    // CHECK: %[[SLOT:.*]] = llvm.select %[[OWN]]
    // CHECK: %[[AT:.*]] = llvm.getelementptr %{{.*}}[%[[SLOT]]]
    // CHECK: llvm.store %[[OLD]], %[[AT]]
    // CHECK: nvvm.barrier0
    // CHECK: llvm.load
    %old = tile.atomic_cas acq_rel gpu %lock, %zero, %one : !tile.ptr<i32>
    tile.store %out, %old : !tile.ptr<i32>
    return
  }
}

// -----

// A scalar add whose old value is unused needs no scratch; relaxed
// ordering needs no barrier.
module attributes {tilegpu.num_warps = 4 : i32} {
  // CHECK-LABEL: llvm.func @scalar_relaxed
  func.func @scalar_relaxed(%p: !tile.ptr<f64>, %v: f64) attributes {tile.kernel} {
    // CHECK-NOT: nvvm.barrier0
    // CHECK: "mov.b64 $0, 0;\0A\09@$3 atom.relaxed.gpu.global.add.f64 $0, [ $1 + 0 ], $2;", "=l,l,l,b"
    // CHECK-NOT: nvvm.barrier0
    %old = tile.atomic_rmw add relaxed gpu %p, %v : !tile.ptr<f64>
    return
  }
}
