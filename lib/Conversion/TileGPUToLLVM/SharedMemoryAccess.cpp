//===- SharedMemoryAccess.cpp - Shared-memory addresses and accesses ------===//
//
// The dynamic shared-memory array, barriers and loads and stores of shared
// memory, scalar and row-wise vector (padded tiles for ldmatrix).
//
//===----------------------------------------------------------------------===//

#include "SharedMemoryAccess.h"
#include "InlineAsm.h"
#include "LLVMBuilders.h"
#include "LayoutIndexing.h"
#include "TypeConverter.h"

#include "tilec/Dialect/TileGPU/IR/LayoutUtils.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tilegpu;

Value mlir::tilegpu::getScratchBase(OpBuilder &builder, Location loc,
                                    Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  MLIRContext *context = builder.getContext();
  auto global = module.lookupSymbol<LLVM::GlobalOp>(kSharedMemoryName);
  if (!global) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    auto arrayType = LLVM::LLVMArrayType::get(IntegerType::get(context, 8), 0);
    global = LLVM::GlobalOp::create(
        builder, loc, arrayType, /*isConstant=*/false, LLVM::Linkage::External,
        kSharedMemoryName, Attribute(),
        /*alignment=*/kNVMMASharedAlignment, kSharedAddressSpace);
  }
  Value base = LLVM::AddressOfOp::create(builder, loc, global);
  int64_t offset = 0;
  if (auto attr =
          op->getAttrOfType<IntegerAttr>(tilegpu::kScratchOffsetAttrName))
    offset = attr.getInt();
  if (offset == 0)
    return base;
  return gep(builder, loc, builder.getI8Type(), base,
             createI32(builder, loc, offset));
}

SmallVector<Value> mlir::tilegpu::getScratchSectionBases(OpBuilder &builder,
                                                         Location loc,
                                                         Value base,
                                                         TypeRange types,
                                                         int64_t slots) {
  SmallVector<Value> bases;
  // (A named vector: the range of a for-loop does not keep a temporary
  // that an ArrayRef views alive.)
  SmallVector<int64_t> sections = getScratchSections(types, slots);
  for (int64_t offset : ArrayRef(sections).drop_back())
    bases.push_back(offset == 0 ? base
                                : gep(builder, loc, builder.getI8Type(), base,
                                      createI32(builder, loc, offset)));
  return bases;
}

void mlir::tilegpu::createBarrier(OpBuilder &builder, Location loc) {
  NVVM::Barrier0Op::create(builder, loc);
}

void mlir::tilegpu::removeBackToBackBarriers(Operation *root) {
  SmallVector<Operation *> redundant;
  root->walk([&](Block *block) {
    bool afterBarrier = false;
    for (Operation &op : *block) {
      if (isa<NVVM::Barrier0Op>(op)) {
        if (afterBarrier)
          redundant.push_back(&op);
        afterBarrier = true;
      } else if (!isMemoryEffectFree(&op) || op.getNumRegions() != 0) {
        afterBarrier = false;
      }
    }
  });
  for (Operation *op : redundant)
    op->erase();
}

void mlir::tilegpu::createAsyncProxyFence(OpBuilder &builder, Location loc) {
  createInlineAsm(builder, loc, Type(), ValueRange(), kAsyncProxyFencePtx, "");
}

void mlir::tilegpu::storeShared(OpBuilder &builder, Location loc, Value ptr,
                                Value value) {
  if (value.getType().isInteger(1))
    value = LLVM::ZExtOp::create(builder, loc, builder.getI8Type(), value);
  LLVM::StoreOp::create(builder, loc, value, ptr);
}

Value mlir::tilegpu::loadShared(OpBuilder &builder, Location loc, Type type,
                                Value ptr) {
  if (type.isInteger(1)) {
    Value byte = LLVM::LoadOp::create(builder, loc, builder.getI8Type(), ptr);
    return LLVM::TruncOp::create(builder, loc, type, byte);
  }
  return LLVM::LoadOp::create(builder, loc, type, ptr);
}

Value mlir::tilegpu::rowElementAddress(OpBuilder &builder, Location loc,
                                       Type element, Value base, Value row,
                                       Value col, int64_t stride) {
  Value offset = LLVM::AddOp::create(
      builder, loc,
      LLVM::MulOp::create(builder, loc, row, createI32(builder, loc, stride)),
      col);
  return gep(builder, loc, element, base, offset);
}

void mlir::tilegpu::storeSharedRows(OpBuilder &builder, Location loc,
                                    RankedTensorType type,
                                    ArrayRef<Value> registers, Value base,
                                    int64_t stride) {
  Type element = registers.front().getType();
  unsigned bytes = element.getIntOrFloatBitWidth() / 8;
  unsigned run = getContiguousRegisterRun(type, 16 / bytes);
  auto indices = emitIndices(builder, loc, type, getThreadIds(builder, loc));
  for (unsigned reg = 0; reg < registers.size(); reg += run) {
    Value ptr = rowElementAddress(builder, loc, element, base, indices[reg][0],
                                  indices[reg][1], stride);
    if (run == 1) {
      LLVM::StoreOp::create(builder, loc, registers[reg], ptr);
      continue;
    }
    auto vectorType = VectorType::get({run}, element);
    Value vector = LLVM::UndefOp::create(builder, loc, vectorType);
    for (unsigned i = 0; i < run; ++i)
      vector = LLVM::InsertElementOp::create(
          builder, loc, vector, registers[reg + i], createI32(builder, loc, i));
    LLVM::StoreOp::create(builder, loc, vector, ptr, /*alignment=*/run * bytes);
  }
}
