//===- TileGPUAttrs.td - Layout encodings of tilegpu -------*- tablegen -*-===//
//
// The layouts a block of a tilegpu program can have. A layout is a function
// from (register, lane, warp) to an index of the block, written once as a
// linear map over F2 (LinearLayoutConversions.h); LayoutUtils.h derives
// what else the passes need from it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD
#define TILEC_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/TensorEncoding.td"
include "tilec/Dialect/TileGPU/IR/TileGPUDialect.td"

class TileGPU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TileGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def TileGPU_BlockedEncodingAttr : TileGPU_Attr<"BlockedEncoding", "blocked",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "Blocked layout: contiguous runs per thread, tiled by lanes and warps";
  let description = [{
    Each thread holds `sizePerThread[d]` contiguous elements along each
    dimension `d`; `threadsPerWarp` (product 32) and `warpsPerCTA` (product
    `num_warps`) lanes and warps tile the block; `order` lists dimensions
    fastest first (lane and warp ids are split over dimensions in this
    order). A block larger than one tile wraps around: each thread holds one
    run per tile. A block smaller than one tile is held by several threads
    at once (duplicates).

    Element (register `r`, lane `l`, warp `w`) along dimension `d`, where the
    register's position along `d` is `k` (0 .. elemsPerThread[d]):
    `((k / spt) * spt * tpw * wpc + w_d * tpw * spt + l_d * spt + k % spt) mod shape[d]`.

    Example:
    ```mlir
    #blocked = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"unsigned">:$sizePerThread,
    ArrayRefParameter<"unsigned">:$threadsPerWarp,
    ArrayRefParameter<"unsigned">:$warpsPerCTA,
    ArrayRefParameter<"unsigned">:$order
  );
  let assemblyFormat =
      "`<` `{` `sizePerThread` `=` `[` $sizePerThread `]` `,` `threadsPerWarp` `=` `[` $threadsPerWarp `]` `,` `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,` `order` `=` `[` $order `]` `}` `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The rank of the blocks this layout applies to.
    unsigned getRank() const { return getOrder().size(); }
    /// The total number of warps.
    unsigned getNumWarps() const;
  }];
}

def TileGPU_SliceEncodingAttr : TileGPU_Attr<"SliceEncoding", "slice",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "A parent layout with dimension `dim` removed";
  let description = [{
    The layout of `reduce(x, axis=dim)` when `x` has layout `parent`, and
    the source layout of `expand_dims(x, dim)`: the threads of the parent
    that differ only along `dim` hold the same elements.

    Example:
    ```mlir
    #s = #tilegpu.slice<{dim = 1, parent = #blocked}>
    ```
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

def TileGPU_SharedEncodingAttr : TileGPU_Attr<"SharedEncoding", "shared"> {
  let summary = "A tile staged in shared memory, swizzled against bank conflicts";
  let description = [{
    Row-major in `order` (fastest first); rows are XOR-swizzled in groups of
    `vec` elements: row `i` uses phase `(i / perPhase) mod maxPhase`.
    `vec = perPhase = maxPhase = 1` is unswizzled.

    Example:
    ```mlir
    #shared = #tilegpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
    ```
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase,
                    "unsigned":$maxPhase, ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat =
      "`<` `{` `vec` `=` $vec `,` `perPhase` `=` $perPhase `,` `maxPhase` `=` $maxPhase `,` `order` `=` `[` $order `]` `}` `>`";
}

def TileGPU_NVMMASharedEncodingAttr
    : TileGPU_Attr<"NVMMASharedEncoding", "nvmma_shared"> {
  let summary = "A tile in shared memory as the wgmma instructions read it";
  let description = [{
    The dimension `order[0]` is contiguous; it is cut into columns of
    `swizzle` bytes (32, 64 or 128), stored one after the other, each
    `rows x swizzle` bytes (the other dimension gives the rows). Within a
    column, the 16-byte chunk `c` of row `r` is stored at chunk
    `c ^ ((r * swizzle / 128) mod (swizzle / 16))`: the byte offset's bits
    4.. are XORed with its bits 7.. (the hardware's swizzle of the same
    width). Buffers start on 1024-byte boundaries.

    Example:
    ```mlir
    #shared = #tilegpu.nvmma_shared<{swizzle = 128, order = [1, 0]}>
    ```
  }];
  let parameters = (ins "unsigned":$swizzle, ArrayRefParameter<"unsigned">:$order);
  let assemblyFormat =
      "`<` `{` `swizzle` `=` $swizzle `,` `order` `=` `[` $order `]` `}` `>`";
  let genVerifyDecl = 1;
}

def TileGPU_MmaEncodingAttr : TileGPU_Attr<"MmaEncoding", "mma",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "Accumulator layout of tensor-core instructions";
  let description = [{
    `versionMajor` 2 is `mma.sync` (sm_80+), 3 is `wgmma` (sm_90a);
    `warpsPerCTA` tiles the block with `instrShape` (M, N[, K]) instructions.
    Version 3 puts all warps along M (`warpsPerCTA = [numWarps, 1]`, a
    multiple of 4): warp group `g` owns rows `64 g .. 64 g + 63` of every
    `16 * numWarps` rows and all columns; each warp's registers are those
    of version 2 with one warp along N.

    Example:
    ```mlir
    #mma = #tilegpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
    ```
  }];
  let parameters = (ins "unsigned":$versionMajor,
                    ArrayRefParameter<"unsigned">:$warpsPerCTA,
                    ArrayRefParameter<"unsigned">:$instrShape);
  let assemblyFormat =
      "`<` `{` `versionMajor` `=` $versionMajor `,` `warpsPerCTA` `=` `[` $warpsPerCTA `]` `,` `instrShape` `=` `[` $instrShape `]` `}` `>`";
  let genVerifyDecl = 1;
}

def TileGPU_DotOperandEncodingAttr
    : TileGPU_Attr<"DotOperandEncoding", "dot_op",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "Layout of an operand of a dot whose result has layout `parent`";
  let description = [{
    `opIdx` 0 is the left operand (A), 1 the right (B); `kWidth` elements
    along K per register group.

    Example:
    ```mlir
    #a = #tilegpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
    ```
  }];
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent,
                    "unsigned":$kWidth);
  let assemblyFormat = "`<` `{` struct(params) `}` `>`";
  let genVerifyDecl = 1;
}

#endif // TILEC_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD
