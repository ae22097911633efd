// RUN: tile-opt %s -split-input-file -verify-diagnostics
// One case per verifier error of the tile dialect.

// expected-error @+1 {{pointee type must be a signless integer or a floating-point type, got 'index'}}
func.func @ptr_to_index(%p: !tile.ptr<index>)

// -----

func.func @program_id_axis() {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint}}
  %0 = tile.program_id 3 : i32
  return
}

// -----

func.func @num_programs_axis() {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint}}
  %0 = tile.num_programs -1 : i32
  return
}

// -----

func.func @make_range_rank() {
  // expected-error @+1 {{result must be 1-D}}
  %0 = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<4x4xi32>
  return
}

// -----

func.func @make_range_order() {
  // expected-error @+1 {{end (0) must be greater than start (16)}}
  %0 = tile.make_range {end = 0 : i32, start = 16 : i32} : tensor<16xi32>
  return
}

// -----

func.func @make_range_pow2() {
  // expected-error @+1 {{length end - start = 12 must be a power of two}}
  %0 = tile.make_range {end = 12 : i32, start = 0 : i32} : tensor<16xi32>
  return
}

// -----

func.func @make_range_length() {
  // expected-error @+1 {{result length 32 must equal end - start = 16}}
  %0 = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<32xi32>
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @splat_type(%x: f16) {
  // expected-error @+1 {{use of value '%x' expects different type than prior uses: 'f32' vs 'f16'}}
  %0 = tile.splat %x : tensor<16xf32>
  return
}

// -----

func.func @broadcast_rank(%x: tensor<16xf32>) {
  // expected-error @+1 {{source rank 1 must equal result rank 2}}
  %0 = tile.broadcast %x : tensor<16xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @broadcast_dim(%x: tensor<2x16xf32>) {
  // expected-error @+1 {{cannot broadcast shape [2, 16] to [4, 16]: dimension 0 is 2, not 1 or 4}}
  %0 = tile.broadcast %x : tensor<2x16xf32> -> tensor<4x16xf32>
  return
}

// -----

func.func @broadcast_element(%x: tensor<1x16xf32>) {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %0 = tile.broadcast %x : tensor<1x16xf32> -> tensor<4x16xf16>
  return
}

// -----

func.func @expand_dims_axis(%x: tensor<16xf32>) {
  // expected-error @+1 {{axis 2 out of range [0, 1]}}
  %0 = tile.expand_dims %x {axis = 2 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  return
}

// -----

func.func @expand_dims_shape(%x: tensor<16xf32>) {
  // expected-error @+1 {{result shape must be [16, 1], got [1, 16]}}
  %0 = tile.expand_dims %x {axis = 1 : i32} : tensor<16xf32> -> tensor<1x16xf32>
  return
}

// -----

func.func @reshape_count(%x: tensor<16x16xf32>) {
  // expected-error @+1 {{cannot reshape [16, 16] (256 elements) to [128] (128 elements)}}
  %0 = tile.reshape %x : tensor<16x16xf32> -> tensor<128xf32>
  return
}

// -----

func.func @trans_rank(%x: tensor<16xf32>) {
  // expected-error @+1 {{source must be 2-D without an order, got [16]}}
  %0 = tile.trans %x : tensor<16xf32> -> tensor<16xf32>
  return
}

// -----

func.func @trans_order_rank(%x: tensor<2x4x8xf32>) {
  // expected-error @+1 {{order has 2 entries for a source of rank 3}}
  %0 = tile.trans %x {order = array<i32: 1, 0>} : tensor<2x4x8xf32> -> tensor<4x2x8xf32>
  return
}

// -----

func.func @trans_order_permutation(%x: tensor<2x4x8xf32>) {
  // expected-error @+1 {{order must be a permutation of [0, 3)}}
  %0 = tile.trans %x {order = array<i32: 0, 0, 2>} : tensor<2x4x8xf32> -> tensor<2x2x8xf32>
  return
}

// -----

func.func @trans_order_shape(%x: tensor<2x4x8xf32>) {
  // expected-error @+1 {{result shape must be [2, 8, 4], got [2, 4, 8]}}
  %0 = tile.trans %x {order = array<i32: 0, 2, 1>} : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return
}

// -----

func.func @trans_shape(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{result shape must be [32, 16], got [16, 32]}}
  %0 = tile.trans %x : tensor<16x32xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @addptr_shape(%p: tensor<16x!tile.ptr<f32>>, %o: tensor<32xi32>) {
  // expected-error @+1 {{pointer shape [16] and offset shape [32] must be equal}}
  %0 = tile.addptr %p, %o : tensor<16x!tile.ptr<f32>>, tensor<32xi32>
  return
}

// -----

func.func @addptr_scalar_ptr(%p: !tile.ptr<f32>, %o: tensor<16xi32>) {
  // expected-error @+1 {{pointer shape [] and offset shape [16] must be equal}}
  %0 = tile.addptr %p, %o : !tile.ptr<f32>, tensor<16xi32>
  return
}

// -----

// Only the generic form can give `other` without `mask`.
func.func @load_other_without_mask(%p: tensor<16x!tile.ptr<f32>>, %o: tensor<16xi1>) {
  // expected-error @+1 {{'other' requires a 'mask'}}
  %0 = "tile.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<16x!tile.ptr<f32>>, tensor<16xi1>) -> tensor<16xf32>
  return
}

// -----

func.func @load_result_type(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{failed to verify that result has the pointee type of ptr}}
  %0 = "tile.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<16x!tile.ptr<f32>>) -> tensor<16xf16>
  return
}

// -----

func.func @load_mask_shape(%p: tensor<16x!tile.ptr<f32>>, %m: tensor<8xi1>) {
  // expected-error @+1 {{failed to verify that mask is i1 of the shape of ptr}}
  %0 = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<16x!tile.ptr<f32>>, tensor<8xi1>) -> tensor<16xf32>
  return
}

// -----

func.func @store_value_type(%p: tensor<16x!tile.ptr<f16>>, %v: tensor<16xf32>) {
  // expected-error @+1 {{failed to verify that value has the pointee type of ptr}}
  "tile.store"(%p, %v) : (tensor<16x!tile.ptr<f16>>, tensor<16xf32>) -> ()
  return
}

// -----

func.func @atomic_add_type(%p: tensor<16x!tile.ptr<i16>>, %v: tensor<16xi16>) {
  // expected-error @+1 {{atomic add of 'i16' is not supported (f16, bf16, f32, f64, i32, i64)}}
  %0 = tile.atomic_rmw add acq_rel gpu %p, %v : tensor<16x!tile.ptr<i16>>
  return
}

// -----

func.func @atomic_and_float(%p: !tile.ptr<f32>, %v: f32) {
  // expected-error @+1 {{atomic and of 'f32' is not supported (i32, i64)}}
  %0 = tile.atomic_rmw and acq_rel gpu %p, %v : !tile.ptr<f32>
  return
}

// -----

func.func @atomic_max_half(%p: !tile.ptr<f16>, %v: f16) {
  // expected-error @+1 {{atomic max of 'f16' is not supported (f32, f64, i32, i64)}}
  %0 = tile.atomic_rmw max relaxed gpu %p, %v : !tile.ptr<f16>
  return
}

// -----

func.func @atomic_cas_byte(%p: !tile.ptr<i8>, %v: i8) {
  // expected-error @+1 {{atomic compare-and-swap of 'i8' is not supported (16-, 32- or 64-bit elements)}}
  %0 = tile.atomic_cas acq_rel gpu %p, %v, %v : !tile.ptr<i8>
  return
}

// -----

func.func @atomic_bad_sem(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'sem' [relaxed, acquire, release, acq_rel]}}
  %0 = tile.atomic_rmw add seq_cst gpu %p, %v : !tile.ptr<i32>
  return
}

// -----

func.func @ptr_to_int_shape(%p: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{source and result shapes must be equal}}
  %0 = tile.ptr_to_int %p : tensor<16x!tile.ptr<f32>> -> tensor<8xi64>
  return
}

// -----

func.func @ptr_to_int_width(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{result elements must be i64}}
  %0 = tile.ptr_to_int %p : !tile.ptr<f32> -> i32
  return
}

// -----

func.func @int_to_ptr_shape(%a: tensor<16xi64>) {
  // expected-error @+1 {{source and result shapes must be equal}}
  %0 = tile.int_to_ptr %a : tensor<16xi64> -> !tile.ptr<f32>
  return
}

// -----

func.func @int_to_ptr_width(%a: i32) {
  // expected-error @+1 {{source elements must be i64}}
  %0 = tile.int_to_ptr %a : i32 -> !tile.ptr<f32>
  return
}

// -----

func.func @bitcast_shape(%x: tensor<16xf32>) {
  // expected-error @+1 {{source and result shapes must be equal}}
  %0 = tile.bitcast %x : tensor<16xf32> -> tensor<8xi32>
  return
}

// -----

func.func @bitcast_ptr(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{cannot bitcast between pointers and numbers}}
  %0 = tile.bitcast %p : !tile.ptr<f32> -> i64
  return
}

// -----

func.func @bitcast_width(%x: tensor<16xf32>) {
  // expected-error @+1 {{element widths differ: 32 vs 16 bits}}
  %0 = tile.bitcast %x : tensor<16xf32> -> tensor<16xf16>
  return
}

// -----

func.func @dot_rank(%a: tensor<16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{operands must be 2-D, got [16], [16, 16] and [16, 16]}}
  %0 = tile.dot %a, %b, %c : tensor<16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_inner(%a: tensor<16x32xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{inner dimensions differ: a is [16, 32], b is [16, 16]}}
  %0 = tile.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_acc_shape(%a: tensor<16x16xf16>, %b: tensor<16x32xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{accumulator shape [16, 16] must be [16, 32]}}
  %0 = tile.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x32xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_small(%a: tensor<8x16xf16>, %b: tensor<16x16xf16>, %c: tensor<8x16xf32>) {
  // expected-error @+1 {{every dimension must be at least 16, got M=8 N=16 K=16}}
  %0 = tile.dot %a, %b, %c : tensor<8x16xf16> * tensor<16x16xf16> -> tensor<8x16xf32>
  return
}

// -----

func.func @dot_mixed(%a: tensor<16x16xf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{operand element types differ: 'f16' and 'bf16'}}
  %0 = tile.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_f16_acc(%a: tensor<16x16xf16>, %c: tensor<16x16xf16>) {
  // expected-error @+1 {{f16/bf16 inputs accumulate in f32, got 'f16'}}
  %0 = tile.dot %a, %a, %c : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf16>
  return
}

// -----

func.func @dot_f32_acc(%a: tensor<16x16xf32>, %c: tensor<16x16xf64>) {
  // expected-error @+1 {{f32 inputs accumulate in f32, got 'f64'}}
  %0 = tile.dot %a, %a, %c : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf64>
  return
}

// -----

func.func @dot_f64(%a: tensor<16x16xf64>) {
  // expected-error @+1 {{f64 inputs are not supported}}
  %0 = tile.dot %a, %a, %a : tensor<16x16xf64> * tensor<16x16xf64> -> tensor<16x16xf64>
  return
}

// -----

func.func @reduce_axis(%x: tensor<16x16xf32>) {
  // expected-error @+1 {{axis 2 out of range for a 2-D source}}
  %0 = tile.reduce sum %x axis = 2 : tensor<16x16xf32> -> tensor<16xf32>
  return
}

// -----

func.func @reduce_ptr(%x: tensor<16x!tile.ptr<f32>>) {
  // expected-error @+1 {{cannot reduce pointers}}
  %0 = tile.reduce max %x axis = 0 : tensor<16x!tile.ptr<f32>> -> !tile.ptr<f32>
  return
}

// -----

func.func @reduce_result(%x: tensor<4x16xf32>) {
  // expected-error @+1 {{result type must be 'tensor<4xi32>', got 'tensor<4xf32>'}}
  %0 = tile.reduce argmax %x axis = 1 : tensor<4x16xf32> -> tensor<4xf32>
  return
}

// -----

func.func @hint_count(%x: tensor<4x16xi32>) {
  // expected-error @+1 {{'divisibility' needs 2 entries, one per dimension, got 1}}
  %0 = tile.hint %x {divisibility = array<i64: 16>} : tensor<4x16xi32>
  return
}

// -----

func.func @hint_positive(%x: i32) {
  // expected-error @+1 {{'contiguity' entries must be positive}}
  %0 = tile.hint %x {contiguity = array<i64: 0>} : i32
  return
}

// -----

// Blocks are bounded (issue 25): 2^32 x 2^32 elements lowered to a function
// with no memory accesses; the count is taken without overflow.
func.func @splat_too_large(%x: f32) {
  // expected-error @+1 {{'tile.splat' op result #0 'tensor<4294967296x4294967296xf32>' has more than 1048576 (2^20) elements}}
  %0 = tile.splat %x : tensor<4294967296x4294967296xf32>
  return
}

// -----

func.func @splat_just_too_large(%x: f32) {
  // expected-error @+1 {{result #0 'tensor<1024x2048xf32>' has more than 1048576 (2^20) elements}}
  %0 = tile.splat %x : tensor<1024x2048xf32>
  return
}

// -----

func.func @splat_rank0(%x: f32) {
  // expected-error @+1 {{result #0 'tensor<f32>' must have rank 1 or more (a scalar is not a block)}}
  %0 = tile.splat %x : tensor<f32>
  return
}

// -----

func.func @splat_dynamic(%x: f32) {
  // expected-error @+1 {{result #0 'tensor<?xf32>' must have a static shape}}
  %0 = tile.splat %x : tensor<?xf32>
  return
}

// -----

func.func @splat_zero(%x: f32) {
  // expected-error @+1 {{result #0 'tensor<0x16xf32>' has a dimension of size 0}}
  %0 = tile.splat %x : tensor<0x16xf32>
  return
}

// -----

// Every dimension is a power of two, as in the language (the layouts the
// blocks get describe power-of-two extents only).
func.func @splat_not_power_of_two(%x: f32) {
  // expected-error @+1 {{result #0 'tensor<24x32xf32>' has a dimension of size 24, not a power of two}}
  %0 = tile.splat %x : tensor<24x32xf32>
  return
}

// -----

// In a `tile.kernel` function every block is checked, arith and scf too.
func.func @kernel_arith(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  // expected-error @+1 {{'arith.constant' op result #0 'tensor<4x4611686018427387904xf32>' has more than 1048576 (2^20) elements}}
  %c = arith.constant dense<1.0> : tensor<4x4611686018427387904xf32>
  return
}

// -----

// expected-error @+1 {{'func.func' op block argument #0 'tensor<f32>' must have rank 1 or more}}
func.func @kernel_argument(%t: tensor<f32>) attributes {tile.kernel} {
  return
}

// -----

func.func @scan_no_source() {
  // expected-error @+1 {{needs at least one source}}
  "tile.scan"() <{axis = 0 : i32}> ({
  ^bb0:
    tile.combine_yield
  }) : () -> ()
  return
}

// -----

func.func @scan_shapes(%x: tensor<128xf32>, %y: tensor<64xf32>) {
  // expected-error @+1 {{sources must have one shape, got 'tensor<128xf32>' and 'tensor<64xf32>'}}
  %0:2 = tile.scan %x, %y axis = 0 : tensor<128xf32>, tensor<64xf32> -> tensor<128xf32>, tensor<64xf32> {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
    tile.combine_yield %a, %b : f32, f32
  }
  return
}

// -----

func.func @scan_pointers(%x: tensor<128x!tile.ptr<f32>>) {
  // expected-error @+1 {{cannot combine elements of type '!tile.ptr<f32>'}}
  %0 = tile.scan %x axis = 0 : tensor<128x!tile.ptr<f32>> -> tensor<128x!tile.ptr<f32>> {
  ^bb0(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>):
    tile.combine_yield
  }
  return
}

// -----

func.func @scan_axis(%x: tensor<128xf32>) {
  // expected-error @+1 {{axis 1 out of range for a 1-D source}}
  %0 = tile.scan %x axis = 1 : tensor<128xf32> -> tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    tile.combine_yield %a : f32
  }
  return
}

// -----

func.func @scan_region_arguments(%x: tensor<128xf32>) {
  // expected-error @+1 {{combine region must take 2 arguments of types ('f32', 'f32')}}
  %0 = tile.scan %x axis = 0 : tensor<128xf32> -> tensor<128xf32> {
  ^bb0(%a: f32):
    tile.combine_yield %a : f32
  }
  return
}

// -----

func.func @scan_yield(%x: tensor<128xf32>) {
  %0 = tile.scan %x axis = 0 : tensor<128xf32> -> tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.constant 0 : i32
    // expected-error @+1 {{must yield 1 values of types ('f32')}}
    tile.combine_yield %c : i32
  }
  return
}

// -----

func.func @scan_terminator(%x: tensor<128xf32>) {
  // expected-error @+1 {{combine region must end with tile.combine_yield}}
  %0 = tile.scan %x axis = 0 : tensor<128xf32> -> tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    func.return
  }
  return
}

// -----

// A combine block with no operation at all (found by the tileir fuzzer: the
// verifier read past the block).
func.func @scan_empty_block(%x: tensor<128xf32>) {
  // expected-error @+1 {{combine region must end with tile.combine_yield}}
  %0 = tile.scan %x axis = 0 : tensor<128xf32> -> tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
  }
  return
}

// -----

func.func @reduce_empty_region(%x: tensor<128xf32>) {
  // expected-error @+1 {{region with 1 blocks}}
  %0 = tile.combine_reduce %x axis = 0 : tensor<128xf32> -> f32 {
  }
  return
}

// -----

func.func @scan_memory(%x: tensor<128xf32>, %p: !tile.ptr<f32>) {
  %0 = tile.scan %x axis = 0 : tensor<128xf32> -> tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    // expected-error @+1 {{is not allowed in a combine region (it computes on scalars, without memory effects or regions)}}
    %c = tile.load %p : !tile.ptr<f32>
    tile.combine_yield %c : f32
  }
  return
}

// -----

func.func @scan_results(%x: tensor<128xf32>) {
  // expected-error @+1 {{needs one result per source, got 0 for 1}}
  "tile.scan"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    tile.combine_yield %a : f32
  }) : (tensor<128xf32>) -> ()
  return
}

// -----

func.func @scan_result_type(%x: tensor<128xf32>) {
  // expected-error @+1 {{result type must be 'tensor<128xf32>', got 'tensor<128xf16>'}}
  %0 = tile.scan %x axis = 0 : tensor<128xf32> -> tensor<128xf16> {
  ^bb0(%a: f32, %b: f32):
    tile.combine_yield %a : f32
  }
  return
}

// -----

func.func @combine_reduce_results(%x: tensor<128xf32>) {
  // expected-error @+1 {{needs one result per source, got 2 for 1}}
  %0:2 = tile.combine_reduce %x axis = 0 : tensor<128xf32> -> f32, f32 {
  ^bb0(%a: f32, %b: f32):
    tile.combine_yield %a : f32
  }
  return
}

// -----

func.func @combine_reduce_result_type(%x: tensor<4x128xf32>) {
  // expected-error @+1 {{result type must be 'tensor<4xf32>', got 'tensor<128xf32>'}}
  %0 = tile.combine_reduce %x axis = 1 : tensor<4x128xf32> -> tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    tile.combine_yield %a : f32
  }
  return
}

// -----

func.func @combine_yield_parent(%x: f32) {
  // expected-error @+1 {{expects parent op to be one of 'tile.scan, tile.combine_reduce'}}
  tile.combine_yield %x : f32
}

// -----

func.func @inline_asm_no_result(%x: f32) {
  // expected-error @+1 {{needs at least one result}}
  "tile.elementwise_inline_asm"(%x) <{asm_string = "", constraints = "r", packed_element = 1 : i32, pure = false}> : (f32) -> ()
  return
}

// -----

func.func @inline_asm_i1(%x: tensor<16xi1>) {
  // expected-error @+1 {{cannot pass i1 values to inline asm; convert them to a wider integer}}
  %0 = tile.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<16xi1> -> tensor<16xi32>
  return
}

// -----

func.func @inline_asm_pack_not_power_of_two(%x: tensor<16xi8>) {
  // expected-error @+1 {{packed_element (3) must be a power of two for 'i8' elements, which share 32-bit registers}}
  %0 = tile.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 3 : i32, pure = true} %x : tensor<16xi8> -> tensor<16xi8>
  return
}

// -----

func.func @inline_asm_pack_partial_register(%x: tensor<16xi8>) {
  // expected-error @+1 {{packed_element (6) must be a multiple of the 4 'i8' elements a register holds}}
  %0 = tile.elementwise_inline_asm "" {constraints = "=r,=r,r,r", packed_element = 6 : i32, pure = true} %x : tensor<16xi8> -> tensor<16xi8>
  return
}

// -----

func.func @inline_asm_constraints(%x: tensor<16xf32>) {
  // expected-error @+1 {{constraints "=r,r,~{memory}" name 1 output and 1 input; the asm takes 2 and 2 (results, then operands: one per register of packed_element = 2 elements)}}
  %0 = tile.elementwise_inline_asm "" {constraints = "=r,r,~{memory}", packed_element = 2 : i32, pure = true} %x : tensor<16xf32> -> tensor<16xf32>
  return
}

// -----

func.func @inline_asm_bad_constraint(%x: tensor<16xf32>) {
  // expected-error @+1 {{constraints "=r,m": input 'm' is not one register class of r, l, h, c, f, d, or the number of an output it is tied to}}
  %0 = tile.elementwise_inline_asm "" {constraints = "=r,m", packed_element = 1 : i32, pure = true} %x : tensor<16xf32> -> tensor<16xf32>
  return
}

// -----

func.func @inline_asm_outputs_inputs(%x: tensor<16xf32>) {
  // expected-error @+1 {{constraints "=r,=r" name 2 outputs and 0 inputs; the asm takes 1 and 1}}
  %0 = tile.elementwise_inline_asm "" {constraints = "=r,=r", packed_element = 1 : i32, pure = true} %x : tensor<16xf32> -> tensor<16xf32>
  return
}

// -----

func.func @inline_asm_dollar(%x: tensor<16xf32>) {
  // expected-error @+1 {{asm "mov.b32 $0, $#;": '$' must be followed by an operand number ($0, ${0}) or by '$' (a literal dollar sign)}}
  %0 = tile.elementwise_inline_asm "mov.b32 $0, $#;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<16xf32> -> tensor<16xf32>
  return
}

// -----

func.func @inline_asm_operand_number(%x: tensor<16xf32>) {
  // expected-error @+1 {{asm "mov.b32 $0, ${2};": operand $2 does not exist: the constraints name $0 to $1}}
  %0 = tile.elementwise_inline_asm "mov.b32 $0, ${2};" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %x : tensor<16xf32> -> tensor<16xf32>
  return
}

// -----

func.func @inline_asm_tie_type(%x: tensor<16xi32>) {
  // expected-error @+1 {{constraints "=r,0" tie input 0 to output 0, a register of another type}}
  %0 = tile.elementwise_inline_asm "" {constraints = "=r,0", packed_element = 1 : i32, pure = true} %x : tensor<16xi32> -> tensor<16xf32>
  return
}

// -----

func.func @inline_asm_shapes(%x: tensor<16xf32>, %y: tensor<8xf32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %0 = tile.elementwise_inline_asm "" {constraints = "=r,r,r", packed_element = 1 : i32, pure = true} %x, %y : tensor<16xf32>, tensor<8xf32> -> tensor<16xf32>
  return
}

// -----

func.func @inline_asm_packed_element(%x: f32) {
  // expected-error @+1 {{attribute 'packed_element' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 1}}
  %0 = tile.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 0 : i32, pure = true} %x : f32 -> f32
  return
}
