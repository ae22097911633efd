//===- TileGPUOps.td - Operations of the tilegpu dialect ---*- tablegen -*-===//
//
// Layout conversion and explicit shared-memory buffers.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
#define TILEC_DIALECT_TILEGPU_IR_TILEGPUOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "tilec/Dialect/TileGPU/IR/TileGPUDialect.td"
include "tilec/Dialect/TileGPU/IR/TileGPUAttrs.td"

class TileGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<TileGPU_Dialect, mnemonic, traits>;

def TileGPU_MemDescType : TypeDef<TileGPU_Dialect, "MemDesc"> {
  let mnemonic = "memdesc";
  let summary = "A buffer in shared memory holding a tile";
  let description = [{
    `!tilegpu.memdesc<64x32xf16, #shared>`: a tile of the given shape and
    element type in shared memory, laid out by a `#tilegpu.shared` or
    `#tilegpu.nvmma_shared` encoding. The shape has rank 1 or more, no
    dimension below 1 and at most 2^20 elements (as a block).
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                    "::mlir::Type":$elementType,
                    "::mlir::Attribute":$encoding);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TileGPU_TensorMapType : TypeDef<TileGPU_Dialect, "TensorMap"> {
  let mnemonic = "tensor_map";
  let summary = "A TMA tensor map copying boxes into a swizzled tile";
  let description = [{
    `!tilegpu.tensor_map<128x64xf16, #shared>`: the address of a tensor map
    (the copy engine's description of a 2-D tensor in global memory) whose
    box is `128x64` elements, written into shared memory with the
    `#tilegpu.nvmma_shared` layout `#shared`: its contiguous dimension
    spans the layout's swizzle width. Only the thread that created it
    (thread 0) holds the address.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$boxShape,
                    "::mlir::Type":$elementType,
                    "::mlir::Attribute":$encoding);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TileGPU_ConvertLayoutOp : TileGPU_Op<"convert_layout",
    [Pure, SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "Move a block's elements to the threads of another layout";
  let description = [{
    Lowered through shared memory (registers -> shared -> barrier ->
    registers) unless both layouts put every element in the same thread.

    Example:
    ```mlir
    %y = tilegpu.convert_layout %x : tensor<128xf32, #a> -> tensor<128xf32, #b>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def TileGPU_LocalAllocOp : TileGPU_Op<"local_alloc",
    [MemoryEffects<[MemAlloc, MemWrite]>]> {
  let summary = "A shared-memory buffer, optionally initialized from a block";
  let description = [{
    Shared-memory allocation gives each buffer an offset (attribute
    `offset`, bytes) from the liveness of its uses.

    Example:
    ```mlir
    %buf = tilegpu.local_alloc %x : (tensor<64x32xf16, #blocked>) -> !tilegpu.memdesc<64x32xf16, #shared>
    %empty = tilegpu.local_alloc : () -> !tilegpu.memdesc<64x32xf16, #shared>
    ```
    A block converted from a blocked layout is stored from that layout (the
    conversion folds away): any register layout can be written to shared
    memory.
  }];
  let arguments = (ins Optional<AnyRankedTensor>:$src,
                   OptionalAttr<I64Attr>:$offset);
  let results = (outs TileGPU_MemDescType:$result);
  let assemblyFormat = "($src^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def TileGPU_LocalLoadOp : TileGPU_Op<"local_load", [MemoryEffects<[MemRead]>]> {
  let summary = "Read a shared-memory tile into registers of a layout";
  let description = [{
    Example:
    ```mlir
    %x = tilegpu.local_load %buf : !tilegpu.memdesc<64x32xf16, #shared> -> tensor<64x32xf16, #blocked>
    ```
  }];
  let arguments = (ins TileGPU_MemDescType:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` type($result)";
  let hasVerifier = 1;
}

def TileGPU_LocalStoreOp : TileGPU_Op<"local_store", [MemoryEffects<[MemWrite]>]> {
  let summary = "Write a block held in registers to a shared-memory tile";
  let description = [{
    Example:
    ```mlir
    tilegpu.local_store %x, %buf : tensor<64x32xf16, #blocked> -> !tilegpu.memdesc<64x32xf16, #shared>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$src, TileGPU_MemDescType:$dst);
  let assemblyFormat =
      "$src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))";
  let hasVerifier = 1;
}

def TileGPU_WarpGroupDotOp : TileGPU_Op<"warpgroup_dot",
    [MemoryEffects<[MemRead]>, AllTypesMatch<["acc", "result"]>]> {
  let summary = "acc + a @ b on Hopper tensor cores (wgmma)";
  let description = [{
    `a` ([M, K]) and `b` ([K, N]) are f16, bf16 or f32 (tf32) tiles in
    shared memory with `#tilegpu.nvmma_shared` layouts; `a` may instead be
    a block in registers (f16 or bf16) with the `#tilegpu.dot_op` layout
    (opIdx 0, kWidth 2) of the accumulator's. The accumulator and the
    result are f32 blocks of an `#tilegpu.mma` layout of version 3. Lowered to
    `wgmma.mma_async` m64nNk16 instructions (one per 64 rows of a warp
    group and k-step of 16), then waits for them. With `isAsync` it does not
    wait: the result is still being computed until a
    `tilegpu.warpgroup_dot_wait` with fewer pending groups; until then it
    may only feed another warp-group dot's accumulator or that wait.

    Example:
    ```mlir
    %d = tilegpu.warpgroup_dot %a, %b, %c : !tilegpu.memdesc<128x64xf16, #shared>, !tilegpu.memdesc<64x128xf16, #shared> -> tensor<128x128xf32, #mma>
    ```
  }];
  let arguments = (ins AnyTypeOf<[TileGPU_MemDescType, AnyRankedTensor]>:$a,
                   TileGPU_MemDescType:$b, AnyRankedTensor:$acc,
                   UnitAttr:$isAsync);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat =
      "$a `,` $b `,` $acc attr-dict `:` qualified(type($a)) `,` qualified(type($b)) `->` type($result)";
  let hasVerifier = 1;
}

def TileGPU_WarpGroupDotWaitOp : TileGPU_Op<"warpgroup_dot_wait",
    [AllTypesMatch<["input", "result"]>]> {
  let summary = "Wait until at most `pendings` asynchronous warp-group dots run";
  let description = [{
    The result is `input` (an accumulator of asynchronous warp-group
    dots); with `pendings = 0` every dot it depends on has completed.

    Example:
    ```mlir
    %d = tilegpu.warpgroup_dot_wait %acc {pendings = 0 : i32} : tensor<128x128xf32, #mma>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$input,
                   ConfinedAttr<I32Attr, [IntNonNegative]>:$pendings);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def TileGPU_MemDescIndexOp : TileGPU_Op<"memdesc_index", [Pure]> {
  let summary = "One tile of a multi-buffered shared-memory allocation";
  let description = [{
    `%buf` holds `S` tiles (its leading dimension); the result is tile
    `%index`, laid out as the buffer.

    Example:
    ```mlir
    %t = tilegpu.memdesc_index %buf[%i] : !tilegpu.memdesc<3x128x64xf16, #shared> -> !tilegpu.memdesc<128x64xf16, #shared>
    ```
  }];
  let arguments = (ins TileGPU_MemDescType:$src, I32:$index);
  let results = (outs TileGPU_MemDescType:$result);
  let assemblyFormat =
      "$src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def TileGPU_MemDescTransOp : TileGPU_Op<"memdesc_trans", [Pure]> {
  let summary = "A 2-D shared-memory tile viewed transposed";
  let description = [{
    The same bytes as `%src`, indexed (j, i) where `%src` is indexed (i, j):
    the shape is reversed and so is the encoding's `order` (which dimension
    is contiguous); nothing moves. A `trans()` of a loaded block that a dot
    reads is staged as the block itself, then viewed transposed.

    Example:
    ```mlir
    %t = tilegpu.memdesc_trans %buf : !tilegpu.memdesc<64x32xf16, #tilegpu.nvmma_shared<{swizzle = 64, order = [1, 0]}>> -> !tilegpu.memdesc<32x64xf16, #tilegpu.nvmma_shared<{swizzle = 64, order = [0, 1]}>>
    ```
  }];
  let arguments = (ins TileGPU_MemDescType:$src);
  let results = (outs TileGPU_MemDescType:$result);
  let assemblyFormat =
      "$src attr-dict `:` qualified(type($src)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def TileGPU_AsyncCopyGlobalToLocalOp
    : TileGPU_Op<"async_copy_global_to_local",
                 [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Start copying a block of global memory into a shared tile";
  let description = [{
    Each thread starts asynchronous copies (`cp.async`) of the elements its
    pointers (a block of `!tile.ptr`) address into the tile `dst`; where
    `mask` is false the element becomes zero. The copies complete at a
    later `tilegpu.async_wait` of their commit group.

    Example:
    ```mlir
    tilegpu.async_copy_global_to_local %ptrs, %t, %mask : tensor<128x64x!tile.ptr<f16>, #blocked> -> !tilegpu.memdesc<128x64xf16, #shared> mask tensor<128x64xi1, #blocked>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$src, TileGPU_MemDescType:$dst,
                   Optional<AnyRankedTensor>:$mask);
  let assemblyFormat =
      "$src `,` $dst (`,` $mask^)? attr-dict `:` type($src) `->` qualified(type($dst)) (`mask` type($mask)^)?";
  let hasVerifier = 1;
}

def TileGPU_AsyncCommitGroupOp : TileGPU_Op<"async_commit_group"> {
  let summary = "Close the group of copies started since the last commit";
  let description = [{
    Example:
    ```mlir
    tilegpu.async_commit_group
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def TileGPU_AsyncWaitOp : TileGPU_Op<"async_wait"> {
  let summary = "Wait until at most `num` commit groups are still copying";
  let description = [{
    Waits for this thread's copies only; a barrier makes all threads'
    copies visible.

    Example:
    ```mlir
    tilegpu.async_wait {num = 1 : i32}
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$num);
  let assemblyFormat = "attr-dict";
}

def TileGPU_FenceAsyncSharedOp : TileGPU_Op<"fence_async_shared"> {
  let summary = "Order earlier shared-memory writes before tensor-core reads";
  let description = [{
    `fence.proxy.async.shared::cta`: this thread's writes to shared memory
    become visible to later `wgmma` reads (the async proxy).

    Example:
    ```mlir
    tilegpu.fence_async_shared
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def TileGPU_BarrierOp : TileGPU_Op<"barrier"> {
  let summary = "Block-wide barrier making shared-memory writes visible";
  let description = [{
    Inserted by barrier insertion between a write and a read of the same
    shared-memory bytes by different threads.

    Example:
    ```mlir
    tilegpu.barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Bulk tensor copies (TMA) and shared-memory barriers (sm_90)
//===----------------------------------------------------------------------===//

def TileGPU_TilePointer
    : Type<CPred<"::llvm::isa<::mlir::tile::PointerType>($_self)">,
           "tile pointer">;

def TileGPU_CreateTensorMapOp : TileGPU_Op<"create_tensor_map",
    [MemoryEffects<[MemAlloc, MemWrite]>]> {
  let summary = "Build a tensor map for a 2-D tensor in a global-memory slot";
  let description = [{
    A warp (a kernel's maps are built by different warps) assembles a
    tiled tensor map in the op's shared-memory scratch (128 bytes, 128-byte
    aligned) and copies it into the block's slot of the module's
    tensor-map pool: base address `base`, extents `dim0 x dim1`
    (elements, in the tile's dimension order; coordinates at or past them,
    or negative, read as zero), the stride of the non-contiguous dimension
    `stride` (elements; the contiguous one has stride 1), box and swizzle
    from the result type, and releases its writes to the copy engine. The
    result, the map's address, is the same in every thread; thread 0 may
    copy through it after a block barrier and `tilegpu.fence_tensor_map`.
    Slots are guarded by spin locks, so that concurrent launches of the
    kernel cannot share one: with `lock`, thread 0 first takes the slot's
    lock (then a block barrier), which also guards the maps created after it
    without `lock` until `tilegpu.release_tensor_map` of this one. Requires
    sm_90a (`tensormap.replace`).

    Example:
    ```mlir
    %tm = tilegpu.create_tensor_map %a, %m, %k, %lda {lock} : !tile.ptr<f16> -> !tilegpu.tensor_map<128x64xf16, #shared>
    ```
  }];
  let arguments = (ins TileGPU_TilePointer:$base, I64:$dim0, I64:$dim1,
                   I64:$stride, UnitAttr:$lock);
  let results = (outs TileGPU_TensorMapType:$result);
  let assemblyFormat =
      "$base `,` $dim0 `,` $dim1 `,` $stride attr-dict `:` qualified(type($base)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

def TileGPU_FenceTensorMapOp : TileGPU_Op<"fence_tensor_map",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Make a tensor map built by another thread visible to thread 0";
  let description = [{
    After the block barrier that follows `tilegpu.create_tensor_map`,
    thread 0 acquires the map for the copy engine
    (`fence.proxy.tensormap::generic.acquire`), which also drops any copy of
    the slot's previous map the engine cached.

    Example:
    ```mlir
    tilegpu.fence_tensor_map %tm : !tilegpu.tensor_map<128x64xf16, #shared>
    ```
  }];
  let arguments = (ins TileGPU_TensorMapType:$map);
  let assemblyFormat = "$map attr-dict `:` qualified(type($map))";
}

def TileGPU_ReleaseTensorMapOp : TileGPU_Op<"release_tensor_map",
    [MemoryEffects<[MemFree]>]> {
  let summary = "Give a tensor map's slot back to the pool";
  let description = [{
    Thread 0 unlocks the slot of a map created with `lock` (and so of the
    maps created under it); every copy through them must have completed
    (waited for on its barrier).

    Example:
    ```mlir
    tilegpu.release_tensor_map %tm : !tilegpu.tensor_map<128x64xf16, #shared>
    ```
  }];
  let arguments = (ins TileGPU_TensorMapType:$map);
  let assemblyFormat = "$map attr-dict `:` qualified(type($map))";
}

def TileGPU_AsyncTMACopyGlobalToLocalOp
    : TileGPU_Op<"async_tma_copy_global_to_local",
                 [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Start bulk tensor copies of one tile into shared memory";
  let description = [{
    Where `pred` holds, thread 0 starts `cp.async.bulk.tensor` copies of
    the tile whose first element has coordinates `[coord0, coord1]` into
    `dst` (one box per swizzle-wide column); they signal completion of
    their bytes on the mbarrier `barrier` (see `tilegpu.barrier_expect`).

    Example:
    ```mlir
    tilegpu.async_tma_copy_global_to_local %tm[%x, %y] %t, %bar, %p : !tilegpu.tensor_map<128x64xf16, #shared> -> !tilegpu.memdesc<128x64xf16, #shared>, !tilegpu.memdesc<1xi64, #plain>
    ```
  }];
  let arguments = (ins TileGPU_TensorMapType:$map, I32:$coord0, I32:$coord1,
                   TileGPU_MemDescType:$dst, TileGPU_MemDescType:$barrier,
                   I1:$pred);
  let assemblyFormat =
      "$map `[` $coord0 `,` $coord1 `]` $dst `,` $barrier `,` $pred attr-dict `:` qualified(type($map)) `->` qualified(type($dst)) `,` qualified(type($barrier))";
  let hasVerifier = 1;
}

def TileGPU_InitBarrierOp : TileGPU_Op<"init_barrier",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "Initialize a shared-memory mbarrier";
  let description = [{
    Thread 0 initializes the mbarrier `barrier` (one i64) expecting `count`
    arrivals per phase and makes the initialization visible to the copy
    engine; a block barrier must follow before other threads use it.

    Example:
    ```mlir
    tilegpu.init_barrier %bar, 1 : !tilegpu.memdesc<1xi64, #plain>
    ```
  }];
  let arguments = (ins TileGPU_MemDescType:$barrier, I32Attr:$count);
  let assemblyFormat = "$barrier `,` $count attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def TileGPU_InvalBarrierOp : TileGPU_Op<"inval_barrier",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "Invalidate a shared-memory mbarrier before its bytes are reused";
  let description = [{
    Example:
    ```mlir
    tilegpu.inval_barrier %bar : !tilegpu.memdesc<1xi64, #plain>
    ```
  }];
  let arguments = (ins TileGPU_MemDescType:$barrier);
  let assemblyFormat = "$barrier attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def TileGPU_BarrierExpectOp : TileGPU_Op<"barrier_expect",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "Arrive on an mbarrier expecting `bytes` of copies";
  let description = [{
    Where `pred` holds, thread 0 arrives on `barrier` and adds `bytes` to
    the bytes its current phase waits for.

    Example:
    ```mlir
    tilegpu.barrier_expect %bar, 49152, %p : !tilegpu.memdesc<1xi64, #plain>
    ```
  }];
  let arguments = (ins TileGPU_MemDescType:$barrier, I32Attr:$bytes, I1:$pred);
  let assemblyFormat = "$barrier `,` $bytes `,` $pred attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def TileGPU_WaitBarrierOp : TileGPU_Op<"wait_barrier",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Wait until an mbarrier completes the phase of parity `phase`";
  let description = [{
    Every thread waits; afterwards the bytes the phase's copies wrote are
    visible to it (and to its warp-group dots).

    Example:
    ```mlir
    tilegpu.wait_barrier %bar, %phase : !tilegpu.memdesc<1xi64, #plain>
    ```
  }];
  let arguments = (ins TileGPU_MemDescType:$barrier, I32:$phase);
  let assemblyFormat = "$barrier `,` $phase attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

#endif // TILEC_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
