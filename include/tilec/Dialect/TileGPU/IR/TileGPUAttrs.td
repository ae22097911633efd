//===- TileGPUAttrs.td - Layout encodings of tilegpu -------*- tablegen -*-===//
//
// The layouts a block of a tilegpu program can have. A layout is a function
// from (register, lane, warp) to an index of the block; LayoutUtils.h derives
// everything the lowering needs from it in one place.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD
#define TILEC_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "tilec/Dialect/TileGPU/IR/TileGPUDialect.td"

class TileGPU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TileGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def TileGPU_BlockedEncodingAttr : TileGPU_Attr<"BlockedEncoding", "blocked"> {
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

def TileGPU_SliceEncodingAttr : TileGPU_Attr<"SliceEncoding", "slice"> {
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

def TileGPU_MmaEncodingAttr : TileGPU_Attr<"MmaEncoding", "mma"> {
  let summary = "Accumulator layout of tensor-core instructions";
  let description = [{
    `versionMajor` 2 is `mma.sync` (sm_80+), 3 is `wgmma` (sm_90a);
    `warpsPerCTA` tiles the block with `instrShape` (M, N[, K]) instructions.

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
}

def TileGPU_DotOperandEncodingAttr
    : TileGPU_Attr<"DotOperandEncoding", "dot_op"> {
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
}

#endif // TILEC_DIALECT_TILEGPU_IR_TILEGPUATTRS_TD
