//===- RegisterPacking.cpp - A block's registers as one LLVM value --------===//
//
// Extracts the registers of a converted block from its struct and inserts
// them back; packs tensor-core operand elements into 32-bit registers.
//
//===----------------------------------------------------------------------===//

#include "RegisterPacking.h"
#include "LLVMBuilders.h"
#include "TF32Rounding.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

SmallVector<Value> mlir::tilegpu::unpackRegisters(OpBuilder &builder,
                                                  Location loc, Value packed) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(packed.getType());
  if (!structType)
    return {packed};
  SmallVector<Value> registers;
  for (unsigned i = 0, e = structType.getBody().size(); i < e; ++i)
    registers.push_back(LLVM::ExtractValueOp::create(builder, loc, packed, i));
  return registers;
}

Value mlir::tilegpu::packRegisters(OpBuilder &builder, Location loc,
                                   ValueRange registers, Type type) {
  if (!isa<LLVM::LLVMStructType>(type))
    return registers.front();
  Value packed = LLVM::UndefOp::create(builder, loc, type);
  for (auto [i, value] : llvm::enumerate(registers))
    packed = LLVM::InsertValueOp::create(builder, loc, packed, value, i);
  return packed;
}

namespace {
/// The members of the struct an `llvm.insertvalue` chain ends in, as far as
/// the chain sets them (a null Value where it does not, or where a nested
/// position writes part of a member).
SmallVector<Value> readInsertChain(LLVM::InsertValueOp head,
                                   unsigned numMembers) {
  SmallVector<Value> members(numMembers);
  SmallVector<bool> known(numMembers, false);
  Value container = head.getResult();
  while (auto insert = container.getDefiningOp<LLVM::InsertValueOp>()) {
    ArrayRef<int64_t> position = insert.getPosition();
    if (position.empty() || position[0] < 0 || position[0] >= numMembers)
      break;
    // The last insert into a member wins: the first one met going back.
    if (!known[position[0]]) {
      known[position[0]] = true;
      if (position.size() == 1)
        members[position[0]] = insert.getValue();
    }
    container = insert.getContainer();
  }
  return members;
}
} // namespace

void mlir::tilegpu::forwardPackedRegisters(Operation *root) {
  DenseMap<Operation *, SmallVector<Value>> chains;
  // The extracts erased so far, each to the value that replaced it: a
  // chain read before may hold one as a member (a block that uses a chain
  // may come before the block that defines one of its members).
  DenseMap<Value, Value> forwarded;
  SmallVector<LLVM::ExtractValueOp> extracts;
  root->walk(
      [&](LLVM::ExtractValueOp extract) { extracts.push_back(extract); });
  for (LLVM::ExtractValueOp extract : extracts) {
    auto head = extract.getContainer().getDefiningOp<LLVM::InsertValueOp>();
    auto structType =
        dyn_cast<LLVM::LLVMStructType>(extract.getContainer().getType());
    ArrayRef<int64_t> position = extract.getPosition();
    if (!head || !structType || position.size() != 1)
      continue;
    auto [it, inserted] = chains.try_emplace(head.getOperation());
    if (inserted)
      it->second = readInsertChain(head, structType.getBody().size());
    if (position[0] < 0 || position[0] >= (int64_t)it->second.size())
      continue;
    Value member = it->second[position[0]];
    if (!member)
      continue;
    while (Value replacement = forwarded.lookup(member))
      member = replacement;
    if (member.getType() != extract.getType())
      continue;
    extract.getResult().replaceAllUsesWith(member);
    forwarded[extract.getResult()] = member;
    extract.erase();
  }
  // The chains nobody reads any more, from their end back (a chain's end
  // may lie inside another chain, erased with it: skipped).
  DenseSet<Operation *> erased;
  for (auto &entry : chains) {
    Operation *op = entry.first;
    while (op && !erased.contains(op) && op->use_empty() &&
           isa<LLVM::InsertValueOp, LLVM::UndefOp, LLVM::PoisonOp>(op)) {
      Operation *container = nullptr;
      if (auto insert = dyn_cast<LLVM::InsertValueOp>(op))
        container = insert.getContainer().getDefiningOp();
      erased.insert(op);
      op->erase();
      op = container;
    }
  }
}

Value mlir::tilegpu::packDotOperand(OpBuilder &builder, Location loc,
                                    ArrayRef<Value> elements) {
  Type i32 = builder.getI32Type();
  if (elements.size() == 1) {
    // tf32: round to nearest (ties away) as the FMA path does; the tensor
    // cores would otherwise truncate the low mantissa bits.
    if (elements.front().getType().isF32())
      return LLVM::BitcastOp::create(
          builder, loc, i32, roundToTF32(builder, loc, elements.front()));
    return LLVM::BitcastOp::create(builder, loc, i32, elements.front());
  }
  auto vectorType =
      VectorType::get({(int64_t)elements.size()}, elements.front().getType());
  Value vector = LLVM::UndefOp::create(builder, loc, vectorType);
  for (auto [i, element] : llvm::enumerate(elements))
    vector = LLVM::InsertElementOp::create(builder, loc, vector, element,
                                           createI32(builder, loc, i));
  return LLVM::BitcastOp::create(builder, loc, i32, vector);
}
