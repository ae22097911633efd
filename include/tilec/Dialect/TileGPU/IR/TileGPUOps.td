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
    element type in shared memory, laid out by a `#tilegpu.shared` encoding.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                    "::mlir::Type":$elementType,
                    "::mlir::Attribute":$encoding);
  let hasCustomAssemblyFormat = 1;
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
  let summary = "acc + a @ b on Hopper tensor cores (wgmma) from shared memory";
  let description = [{
    `a` ([M, K]) and `b` ([K, N]) are f16 or bf16 tiles in shared memory
    with `#tilegpu.nvmma_shared` layouts; the accumulator and the result
    are f32 blocks of an `#tilegpu.mma` layout of version 3. Lowered to
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
  let arguments = (ins TileGPU_MemDescType:$a, TileGPU_MemDescType:$b,
                   AnyRankedTensor:$acc, UnitAttr:$isAsync);
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
  let arguments = (ins AnyRankedTensor:$input, I32Attr:$pendings);
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
  let arguments = (ins I32Attr:$num);
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

#endif // TILEC_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
