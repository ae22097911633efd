//===- TileOps.td - Operations of the tile dialect ---------*- tablegen -*-===//
//
// Every operation a .tile kernel needs beyond `arith`, `math` and `scf`:
// program indexing, index ranges, shape manipulation, pointer arithmetic,
// memory access, `dot`, reductions, hints and debug printing.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_TILEOPS_TD
#define TILEC_DIALECT_TILE_IR_TILEOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "tilec/Dialect/Tile/IR/TileDialect.td"
include "tilec/Dialect/Tile/IR/TileTypes.td"
include "tilec/Dialect/Tile/IR/TileAttrs.td"

// Every operand and result block of a tile op is static, of rank >= 1,
// with dimensions >= 1 and at most kMaxBlockElements (2^20) elements
// (mlir::tile::verifyBlockType).
def Tile_BoundedBlocks : NativeOpTrait<"BoundedBlocks"> {
  let cppNamespace = "::mlir::tile";
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, !listconcat(traits, [Tile_BoundedBlocks])>;

def Tile_GridAxis : ConfinedAttr<I32Attr, [IntMinValue<0>, IntMaxValue<2>]>;

//===----------------------------------------------------------------------===//
// Program indexing
//===----------------------------------------------------------------------===//

def Tile_ProgramIdOp : Tile_Op<"program_id", [Pure]> {
  let summary = "Index of this program along a grid axis";
  let description = [{
    The index (0-based) of the running program along grid axis `axis`
    (0, 1 or 2). One program is one CUDA thread block.

    Example:
    ```mlir
    %pid = tile.program_id 0 : i32
    ```
  }];
  let arguments = (ins Tile_GridAxis:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def Tile_NumProgramsOp : Tile_Op<"num_programs", [Pure]> {
  let summary = "Number of programs along a grid axis";
  let description = [{
    The grid size along axis `axis` (0, 1 or 2).

    Example:
    ```mlir
    %n = tile.num_programs 1 : i32
    ```
  }];
  let arguments = (ins Tile_GridAxis:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def Tile_MakeRangeOp : Tile_Op<"make_range", [Pure]> {
  let summary = "The block [start, end) of consecutive i32";
  let description = [{
    A 1-D block holding `start, start + 1, ..., end - 1`. `end - start` must
    be a power of two and equal the block's length.

    Example:
    ```mlir
    %r = tile.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    ```
  }];
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs Tile_I32Tensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def Tile_SplatOp : Tile_Op<"splat", [Pure,
    TypesMatchWith<"source type matches the result's element type",
                   "result", "src", "::mlir::getElementTypeOrSelf($_self)">]> {
  let summary = "A block with every element equal to a scalar";
  let description = [{
    Example:
    ```mlir
    %b = tile.splat %x : tensor<64x64xf32>
    ```
  }];
  let arguments = (ins Tile_Scalar:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
  let hasFolder = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Repeat a block along its unit dimensions";
  let description = [{
    Each dimension of the source is either equal to the result's or 1, in
    which case it is repeated. Ranks are equal: insert unit dimensions with
    `tile.expand_dims` first.

    Example:
    ```mlir
    %b = tile.broadcast %x : tensor<1x128xf32> -> tensor<64x128xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Insert a unit dimension at `axis`";
  let description = [{
    `x[:, None]` in the language.

    Example:
    ```mlir
    %e = tile.expand_dims %x {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Reinterpret a block with another shape, same element count";
  let description = [{
    Elements keep their row-major order.

    Example:
    ```mlir
    %r = tile.reshape %x : tensor<16x16xf32> -> tensor<256xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_TransOp : Tile_Op<"trans", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Permute the dimensions of a block";
  let description = [{
    Dimension `i` of the result is dimension `order[i]` of the source
    (`tl.permute(x, order)`, `tl.trans(x, *dims)`). Without `order` the
    source is 2-D and the op transposes it (`order = [1, 0]`).

    Example:
    ```mlir
    %t = tile.trans %x : tensor<32x64xf16> -> tensor<64x32xf16>
    %p = tile.trans %y {order = array<i32: 0, 2, 1>} : tensor<8x2x4xf32> -> tensor<8x4x2xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, OptionalAttr<DenseI32ArrayAttr>:$order);
  let extraClassDeclaration = [{
    /// The permutation: `order`, or [1, 0] when it is absent.
    llvm::SmallVector<int32_t> getPermutation() {
      if (std::optional<llvm::ArrayRef<int32_t>> o = getOrder())
        return llvm::SmallVector<int32_t>(*o);
      return {1, 0};
    }
  }];
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Pointers and memory
//===----------------------------------------------------------------------===//

def Tile_AddPtrOp : Tile_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Advance pointers by offsets counted in elements";
  let description = [{
    `ptr + offset` in the language: each pointer is advanced by its offset
    times the size of the pointee. `ptr` and `offset` have the same shape
    (both scalars, or blocks of one shape).

    Example:
    ```mlir
    %p = tile.addptr %base, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_IntLike:$offset);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat =
      "$ptr `,` $offset attr-dict `:` type($result) `,` type($offset)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_LoadOp : Tile_Op<"load", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead]>,
    TypesMatchWith<"result has the pointee type of ptr", "ptr", "result",
                   "::mlir::tile::getPointeeTypeLike($_self)">,
    TypesMatchWith<"mask is i1 of the shape of ptr", "ptr", "mask",
                   "::mlir::tile::getI1TypeLike($_self)",
                   "($_op.getOperands().size() <= 1) || std::equal_to<>()">,
    TypesMatchWith<"other has the pointee type of ptr", "ptr", "other",
                   "::mlir::tile::getPointeeTypeLike($_self)",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "Load from global memory, lanes guarded by a mask";
  let description = [{
    Loads the element each pointer points at. Where `mask` is false nothing
    is read and the result is `other`, or zero without `other`.

    Example:
    ```mlir
    %x = tile.load %p, %m, %other : tensor<128x!tile.ptr<f32>>
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Optional<Tile_BoolLike>:$mask,
                   Optional<Tile_Any>:$other);
  let results = (outs Tile_Any:$result);
  let assemblyFormat =
      "$ptr (`,` $mask^)? (`,` $other^)? attr-dict `:` type($ptr)";
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Value":$ptr, CArg<"::mlir::Value", "{}">:$mask,
                   CArg<"::mlir::Value", "{}">:$other)>
  ];
}

def Tile_StoreOp : Tile_Op<"store", [MemoryEffects<[MemWrite]>,
    TypesMatchWith<"value has the pointee type of ptr", "ptr", "value",
                   "::mlir::tile::getPointeeTypeLike($_self)">,
    TypesMatchWith<"mask is i1 of the shape of ptr", "ptr", "mask",
                   "::mlir::tile::getI1TypeLike($_self)",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "Store to global memory, lanes guarded by a mask";
  let description = [{
    Where `mask` is false nothing is written.

    Example:
    ```mlir
    tile.store %p, %v, %m : tensor<128x!tile.ptr<f32>>
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Any:$value,
                   Optional<Tile_BoolLike>:$mask);
  let assemblyFormat = "$ptr `,` $value (`,` $mask^)? attr-dict `:` type($ptr)";
  let hasCanonicalizer = 1;
}

def Tile_AtomicRMWOp : Tile_Op<"atomic_rmw", [
    MemoryEffects<[MemRead, MemWrite]>,
    TypesMatchWith<"value has the pointee type of ptr", "ptr", "value",
                   "::mlir::tile::getPointeeTypeLike($_self)">,
    TypesMatchWith<"result has the pointee type of ptr", "ptr", "result",
                   "::mlir::tile::getPointeeTypeLike($_self)">,
    TypesMatchWith<"mask is i1 of the shape of ptr", "ptr", "mask",
                   "::mlir::tile::getI1TypeLike($_self)",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "Atomic read-modify-write of global memory; yields the old values";
  let description = [{
    Each lane atomically combines its value with the element at its pointer
    and yields the element as it was before. Masked-off lanes touch no
    memory and yield zero. `sem` orders the lane's other memory accesses
    around the atomic (`relaxed`, `acquire`, `release`, `acq_rel`) with the
    threads of `scope` (`cta`, `gpu`, `sys`), as PTX's `atom.sem.scope`.

    Kinds and element types (Triton's `tl.atomic_*`):
    - `add`: f16, bf16, f32, f64, i32, i64 (integers wrap);
    - `max`, `min`: i32, i64 signed; `umax`, `umin`: i32, i64 unsigned;
      on f32 and f64 as Triton does them, on the bits: for `max` a value
      `>= 0` (-0.0 too) is a signed-integer max, a value `< 0` an
      unsigned-integer min (for `min`: signed min and unsigned max), which
      orders floats of either sign as numbers; a NaN value changes nothing
      and yields zero;
    - `and`, `or`, `xor`: i32, i64;
    - `xchg`: i32, i64, f32, f64 (stores the value).

    Example:
    ```mlir
    %old = tile.atomic_rmw add acq_rel gpu %p, %v, %m : tensor<128x!tile.ptr<f32>>
    ```
  }];
  let arguments = (ins Tile_AtomicRMWKind:$kind, Tile_MemSemantic:$sem,
                   Tile_MemSyncScope:$scope, Tile_PtrLike:$ptr,
                   Tile_Any:$value, Optional<Tile_BoolLike>:$mask);
  let results = (outs Tile_Any:$result);
  let assemblyFormat = [{
    $kind $sem $scope $ptr `,` $value (`,` $mask^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_AtomicCASOp : Tile_Op<"atomic_cas", [
    MemoryEffects<[MemRead, MemWrite]>,
    TypesMatchWith<"cmp has the pointee type of ptr", "ptr", "cmp",
                   "::mlir::tile::getPointeeTypeLike($_self)">,
    TypesMatchWith<"value has the pointee type of ptr", "ptr", "value",
                   "::mlir::tile::getPointeeTypeLike($_self)">,
    TypesMatchWith<"result has the pointee type of ptr", "ptr", "result",
                   "::mlir::tile::getPointeeTypeLike($_self)">]> {
  let summary = "Atomic compare-and-swap of global memory; yields the old values";
  let description = [{
    Each lane atomically compares the element at its pointer with `cmp`,
    bit for bit, stores `value` there when they are equal, and yields the
    element as it was before. Elements of 16, 32 or 64 bits; `sem` and
    `scope` as `tile.atomic_rmw`.

    Example:
    ```mlir
    %old = tile.atomic_cas acq_rel gpu %lock, %zero, %one : !tile.ptr<i32>
    ```
  }];
  let arguments = (ins Tile_MemSemantic:$sem, Tile_MemSyncScope:$scope,
                   Tile_PtrLike:$ptr, Tile_Any:$cmp, Tile_Any:$value);
  let results = (outs Tile_Any:$result);
  let assemblyFormat = [{
    $sem $scope $ptr `,` $cmp `,` $value attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_PtrToIntOp : Tile_Op<"ptr_to_int", [Pure]> {
  let summary = "The 64-bit address held by pointers";
  let description = [{
    Example:
    ```mlir
    %a = tile.ptr_to_int %p : !tile.ptr<f32> -> i64
    ```
  }];
  let arguments = (ins Tile_PtrLike:$src);
  let results = (outs Tile_IntLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_IntToPtrOp : Tile_Op<"int_to_ptr", [Pure]> {
  let summary = "Pointers from 64-bit addresses";
  let description = [{
    Example:
    ```mlir
    %p = tile.int_to_ptr %a : i64 -> !tile.ptr<f32>
    ```
  }];
  let arguments = (ins Tile_IntLike:$src);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_BitcastOp : Tile_Op<"bitcast", [Pure]> {
  let summary = "Reinterpret bits: same shape, same element width";
  let description = [{
    Also turns a pointer into a pointer to another pointee type. Numeric
    conversions (`x.to(f16)`) use `arith` (`extf`, `truncf`, `sitofp`, ...).

    Example:
    ```mlir
    %b = tile.bitcast %x : tensor<64xf32> -> tensor<64xi32>
    ```
  }];
  let arguments = (ins Tile_Any:$src);
  let results = (outs Tile_Any:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_ElementwiseInlineAsmOp : Tile_Op<"elementwise_inline_asm", [
    Elementwise, DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "PTX applied to each element (Triton's inline_asm_elementwise)";
  let description = [{
    `inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack)`:
    the PTX `asm_string` runs once per `packed_element` elements of each
    thread, in any order, with the LLVM inline-asm `constraints` (outputs
    first, then inputs, as `"=r,r"`) and `$N` operands. Within one run,
    elements narrower than 32 bits are packed into 32-bit registers (up to
    `packed_element` of them, the first in the low bits), so an asm taking
    `packed_element` f16 values with 2 per register names
    `packed_element / 2` registers per operand and result. Operands and
    results are blocks of one shape, or all scalars. Unless `pure`, the
    asm has side effects: it is neither removed nor merged with another.

    Example:
    ```mlir
    %t = tile.elementwise_inline_asm "tanh.approx.f32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<128xf32> -> tensor<128xf32>
    ```
  }];
  let arguments = (ins StrAttr:$asm_string, StrAttr:$constraints,
                   BoolAttr:$pure,
                   ConfinedAttr<I32Attr, [IntMinValue<1>]>:$packed_element,
                   Variadic<Tile_Any>:$args);
  let results = (outs Variadic<Tile_Any>:$result);
  let assemblyFormat = [{
    $asm_string attr-dict ($args^ `:` type($args))? `->` type($result)
  }];
  let extraClassDeclaration = [{
    /// How many elements of `type` (an operand's or result's) one asm
    /// register holds: up to 32 bits' worth, at most `packed_element`.
    unsigned getElementsPerRegister(::mlir::Type type);
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Matrix multiply and reductions
//===----------------------------------------------------------------------===//

def Tile_DotOp : Tile_Op<"dot", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "Matrix product with accumulator: result = a * b + acc";
  let description = [{
    `a` is MxK, `b` is KxN, `acc` and the result MxN; every dimension is at
    least 16. f16 and bf16 inputs accumulate in f32; f32 inputs are rounded
    to tf32 unless `inputPrecision = ieee`.

    Example:
    ```mlir
    %d = tile.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %e = tile.dot %x, %y, %z inputPrecision = ieee : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    ```
  }];
  let arguments = (ins Tile_FloatTensor:$a, Tile_FloatTensor:$b,
                   Tile_FloatTensor:$acc,
                   DefaultValuedAttr<Tile_InputPrecision,
                       "::mlir::tile::InputPrecision::TF32">:$inputPrecision);
  let results = (outs Tile_FloatTensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc (`inputPrecision` `=` $inputPrecision^)? attr-dict `:`
    type($a) `*` type($b) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ReduceOp : Tile_Op<"reduce", [Pure]> {
  let summary = "Reduce a block along one axis";
  let description = [{
    `sum`, `max`, `min` give the element type; `argmax`/`argmin` give the i32
    index of the first extreme element. The result has the axis removed; a
    1-D source gives a scalar.

    Example:
    ```mlir
    %m = tile.reduce max %x axis = 1 : tensor<4x128xf32> -> tensor<4xf32>
    %s = tile.reduce sum %y axis = 0 : tensor<128xf32> -> f32
    ```
  }];
  let arguments = (ins Tile_ReduceKind:$kind, Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Any:$result);
  let assemblyFormat = [{
    $kind $src `axis` `=` $axis attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Scans and reductions with a combine function
//===----------------------------------------------------------------------===//

// The element types a combine function takes: integers and floats.
def Tile_CombineScalar : AnyTypeOf<[Tile_Int, Tile_Float]>;

class Tile_CombineOp<string mnemonic, list<Trait> traits = []>
    : Tile_Op<mnemonic, !listconcat(traits, [Pure])> {
  let regions = (region SizedRegion<1>:$combine);
  let hasVerifier = 1;
}

def Tile_ScanOp : Tile_CombineOp<"scan"> {
  let summary = "Inclusive scan of blocks along one axis with a combine region";
  let description = [{
    `tl.associative_scan(srcs, axis, combine_fn, reverse)` (and `cumsum`,
    `cumprod`): element `i` of each result is the combination, in axis
    order, of the sources' elements `0..i` along `axis` (`i..n-1`, from the
    end, when `reverse`). The region takes the element types of the sources
    twice (the accumulated values first, then the next element's) and
    yields one value per source with `tile.combine_yield`; it must be
    associative and free of memory effects. Results have the sources' types.

    Example:
    ```mlir
    %c = tile.scan %x axis = 0 : tensor<128xf32> -> tensor<128xf32> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tile.combine_yield %s : f32
    }
    ```
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, I32Attr:$axis,
                   UnitAttr:$reverse);
  let results = (outs Variadic<Tile_Tensor>:$results);
  let assemblyFormat = [{
    $srcs `axis` `=` $axis (`reverse` $reverse^)? attr-dict `:` type($srcs)
    `->` type($results) $combine
  }];
}

def Tile_CombineReduceOp : Tile_CombineOp<"combine_reduce"> {
  let summary = "Reduce blocks along one axis with a combine region";
  let description = [{
    `tl.reduce(srcs, axis, combine_fn)` (and `xor_sum`): the sources'
    elements along `axis` combined by the region (as `tile.scan`'s) into one
    value per source; the results have the axis removed (scalars for 1-D
    sources). The order of combination is unspecified (the region must be
    associative and commutative for a defined result, as in Triton).

    Example:
    ```mlir
    %v, %i = tile.combine_reduce %x, %idx axis = 1
        : tensor<4x64xf32>, tensor<4x64xi32> -> tensor<4xf32>, tensor<4xi32> {
    ^bb0(%v0: f32, %i0: i32, %v1: f32, %i1: i32):
      %gt = arith.cmpf ogt, %v0, %v1 : f32
      %v = arith.select %gt, %v0, %v1 : f32
      %i = arith.select %gt, %i0, %i1 : i32
      tile.combine_yield %v, %i : f32, i32
    }
    ```
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<Tile_Any>:$results);
  let assemblyFormat = [{
    $srcs `axis` `=` $axis attr-dict `:` type($srcs) `->` type($results)
    $combine
  }];
}

def Tile_CombineYieldOp : Tile_Op<"combine_yield", [Pure, Terminator,
    ReturnLike, ParentOneOf<["ScanOp", "CombineReduceOp"]>]> {
  let summary = "The combined values of a scan's or reduction's region";
  let description = [{
    Ends the combine region of `tile.scan` and `tile.combine_reduce`: one
    value per source, of its element type.

    Example:
    ```mlir
    tile.combine_yield %s : f32
    ```
  }];
  let arguments = (ins Variadic<Tile_CombineScalar>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

//===----------------------------------------------------------------------===//
// Hints and debugging
//===----------------------------------------------------------------------===//

def Tile_HintOp : Tile_Op<"hint", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "Promises about a value's divisibility and contiguity";
  let description = [{
    `multiple_of(x, n)` and `max_contiguous(x, n)` in the language. The
    result is the source; the attributes hold one entry per dimension (one for
    a scalar): `divisibility` (each element is a multiple of it) and
    `contiguity` (runs of this many consecutive values along the dimension).
    Coalescing reads them; lowering drops the op.

    Example:
    ```mlir
    %h = tile.hint %x {contiguity = array<i64: 128>, divisibility = array<i64: 16>} : tensor<128xi32>
    ```
  }];
  let arguments = (ins Tile_Any:$src,
                   OptionalAttr<DenseI64ArrayAttr>:$divisibility,
                   OptionalAttr<DenseI64ArrayAttr>:$contiguity);
  let results = (outs Tile_Any:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_PrintOp : Tile_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "Print values from the device at run time";
  let description = [{
    `device_print("fmt", x)`: each thread prints the prefix and the
    elements it holds, with the program id.

    Example:
    ```mlir
    tile.print "x = ", %x : tensor<128xf32>
    ```
  }];
  let arguments = (ins StrAttr:$prefix, Variadic<Tile_Any>:$args);
  let assemblyFormat = "$prefix (`,` $args^ `:` type($args))? attr-dict";
}

def Tile_DebugBarrierOp : Tile_Op<"debug_barrier",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Synchronize the threads of a program (Triton's debug_barrier)";
  let description = [{
    `debug_barrier()`: every thread of the program waits here until all
    have arrived, and their shared and global memory accesses before it are
    visible to each other after it (`bar.sync 0`). Memory effects keep
    other memory operations from moving across it.

    Example:
    ```mlir
    tile.debug_barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_GridDepWaitOp : Tile_Op<"gdc_wait",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Wait for the grids this one depends on (Triton's gdc_wait)";
  let description = [{
    `tl.extra.cuda.gdc_wait()`: under programmatic dependent launch (a
    launch with `launch_pdl`), waits until the grids this one depends on
    have completed and their memory is visible (`griddepcontrol.wait` on
    sm_90 and later). Before sm_90 there is no dependent launch, and stream
    order already gives that: nothing is emitted. Memory effects keep
    memory operations from moving across it.

    Example:
    ```mlir
    tile.gdc_wait
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_GridDepLaunchDependentsOp : Tile_Op<"gdc_launch_dependents",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Let dependent grids start (Triton's gdc_launch_dependents)";
  let description = [{
    `tl.extra.cuda.gdc_launch_dependents()`: under programmatic dependent
    launch, the grid launched after this one on the stream may start once
    every program of this grid has passed here or ended
    (`griddepcontrol.launch_dependents` on sm_90 and later; nothing
    before). The dependent grid must `gdc_wait` before it reads what this
    one writes.

    Example:
    ```mlir
    tile.gdc_launch_dependents
    ```
  }];
  let assemblyFormat = "attr-dict";
}

#endif // TILEC_DIALECT_TILE_IR_TILEOPS_TD
