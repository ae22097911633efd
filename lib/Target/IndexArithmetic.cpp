//===- IndexArithmetic.cpp - LLVM IR passes over address arithmetic -------===//
//
// DistributeConstantOffsetsPass and ChainStridedProductsPass (see the
// header for what each rewrites and why).
//
//===----------------------------------------------------------------------===//

#include "IndexArithmetic.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/PatternMatch.h"

#include <map>
#include <numeric>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace tilec::detail {

PreservedAnalyses
DistributeConstantOffsetsPass::run(Function &function,
                                   FunctionAnalysisManager &) {
  bool changed = false;
  for (Instruction &inst : make_early_inc_range(instructions(function))) {
    auto *op = dyn_cast<BinaryOperator>(&inst);
    Value *base;
    const APInt *offset, *amount;
    if (!op ||
        (op->getOpcode() != Instruction::Mul &&
         op->getOpcode() != Instruction::Shl) ||
        !op->hasNoUnsignedWrap() ||
        !match(op->getOperand(1), m_APInt(amount)) ||
        !match(op->getOperand(0), m_NUWAddLike(m_Value(base), m_APInt(offset))))
      continue;
    bool isShift = op->getOpcode() == Instruction::Shl;
    if (isShift && amount->uge(amount->getBitWidth()))
      continue;
    IRBuilder<> builder(op);
    Constant *amountValue = ConstantInt::get(op->getType(), *amount);
    Value *scaled = isShift ? builder.CreateShl(base, amountValue, "",
                                                /*HasNUW=*/true)
                            : builder.CreateNUWMul(base, amountValue);
    APInt scaledOffset = isShift ? offset->shl(*amount) : *offset * *amount;
    Value *sum = builder.CreateNUWAdd(
        scaled, ConstantInt::get(op->getType(), scaledOffset));
    sum->takeName(op);
    op->replaceAllUsesWith(sum);
    op->eraseFromParent();
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

namespace {
/// `value` as `ext(X + C)`: X, the extension (0 when none) and C, sign- or
/// zero-extended to the product's width as the extension is.
struct OffsetForm {
  Value *base = nullptr;
  unsigned extension = 0;
  APInt offset;
};

OffsetForm matchOffsetForm(Value *value) {
  Value *base;
  const APInt *offset;
  unsigned width = value->getType()->getIntegerBitWidth();
  if (match(value, m_ZExt(m_NUWAddLike(m_Value(base), m_APInt(offset)))))
    return OffsetForm{base, Instruction::ZExt, offset->zext(width)};
  if (match(value, m_SExt(m_NSWAddLike(m_Value(base), m_APInt(offset)))))
    return OffsetForm{base, Instruction::SExt, offset->sext(width)};
  // Without an extension, (X + C) * S = X * S + C * S wraps or not alike.
  if (match(value, m_AddLike(m_Value(base), m_APInt(offset))))
    return OffsetForm{base, 0, *offset};
  // X itself, C = 0: the row the others are constants away from.
  if (match(value, m_ZExt(m_Value(base))))
    return OffsetForm{base, Instruction::ZExt, APInt(width, 0)};
  if (match(value, m_SExt(m_Value(base))))
    return OffsetForm{base, Instruction::SExt, APInt(width, 0)};
  return OffsetForm{value, 0, APInt(width, 0)};
}

/// One product `ext(X + C) * S` of a group.
struct Member {
  BinaryOperator *product;
  APInt offset;
};

/// The one address `getelementptr T, B, product` of every member, all with
/// the same `T` and `B`; null when the members' uses are anything else.
GetElementPtrInst *getCommonAddress(ArrayRef<Member> members) {
  GetElementPtrInst *first = nullptr;
  for (const Member &member : members) {
    if (!member.product->hasOneUse())
      return nullptr;
    auto *gep = dyn_cast<GetElementPtrInst>(member.product->user_back());
    if (!gep || gep->getParent() != member.product->getParent() ||
        gep->getNumIndices() != 1 || gep->getOperand(1) != member.product)
      return nullptr;
    if (first && (gep->getPointerOperand() != first->getPointerOperand() ||
                  gep->getSourceElementType() != first->getSourceElementType()))
      return nullptr;
    first = first ? first : gep;
  }
  return first;
}

/// Replaces the members' products (or, when they all only address one
/// array, their addresses) by a chain: see ChainStridedProductsPass.
void chainProducts(Value *base, unsigned extension, Value *stride,
                   SmallVector<Member> &members) {
  // Everything is computed at the group's first product (X and S are
  // operands there, so they dominate it, and it dominates the others); with
  // addresses, after it and after the array's pointer when that is defined
  // later in the block (every address is after both).
  IRBuilder<> builder(members.front().product);
  GetElementPtrInst *address = getCommonAddress(members);
  if (address) {
    Instruction *last = members.front().product;
    auto *pointer = dyn_cast<Instruction>(address->getPointerOperand());
    if (pointer && pointer->getParent() == last->getParent() &&
        last->comesBefore(pointer))
      last = pointer;
    builder.SetInsertPoint(last->getParent(),
                           std::next(BasicBlock::iterator(last)));
  }
  llvm::stable_sort(members, [](const Member &a, const Member &b) {
    return a.offset.slt(b.offset);
  });
  Type *type = stride->getType();
  Value *extended =
      extension
          ? builder.CreateCast(Instruction::CastOps(extension), base, type)
          : base;
  Value *current = builder.CreateMul(extended, stride);
  if (!members.front().offset.isZero())
    current = builder.CreateAdd(
        current, builder.CreateMul(
                     stride, ConstantInt::get(type, members.front().offset)));
  Type *element = address ? address->getSourceElementType() : nullptr;
  if (address)
    current = builder.CreateGEP(element, address->getPointerOperand(), current);
  // Each distinct offset C_k gets its value from an earlier one: the one
  // C_k - 2^m * g away (g the greatest common divisor of C_k - C_0, 2^m the
  // highest power of two in (C_k - C_0) / g) when the group has it, else the
  // previous offset's. For rows k * g apart that is a binary tree: every
  // value one add from another, and at most log2(count) adds from the
  // first, so the loads they address are not serialized behind a chain.
  uint64_t g = 0;
  for (const Member &member : members)
    g = std::gcd(g, (member.offset - members.front().offset).getZExtValue());
  std::map<int64_t, Value *> valueByOffset, stepByDifference;
  auto getStep = [&](int64_t difference) {
    Value *&step = stepByDifference[difference];
    if (!step)
      step =
          difference == 1
              ? stride
              : builder.CreateMul(stride, ConstantInt::get(type, difference));
    return step;
  };
  int64_t first = members.front().offset.getSExtValue();
  valueByOffset[first] = current;
  int64_t previous = first;
  for (Member &member : members) {
    int64_t offset = member.offset.getSExtValue();
    Value *&value = valueByOffset[offset];
    if (!value) {
      uint64_t multiple = uint64_t(offset - first) / g;
      int64_t difference = int64_t(g << llvm::Log2_64(multiple));
      int64_t from = valueByOffset.count(offset - difference)
                         ? offset - difference
                         : previous;
      Value *step = getStep(offset - from);
      value = address ? builder.CreateGEP(element, valueByOffset[from], step)
                      : builder.CreateAdd(valueByOffset[from], step);
    }
    previous = offset;
    Instruction *replaced = address
                                ? cast<Instruction>(member.product->user_back())
                                : member.product;
    value->takeName(replaced);
    replaced->replaceAllUsesWith(value);
  }
  for (Member &member : members) {
    if (address)
      cast<Instruction>(member.product->user_back())->eraseFromParent();
    member.product->eraseFromParent();
  }
}
} // namespace

PreservedAnalyses
ChainStridedProductsPass::run(Function &function,
                              FunctionAnalysisManager &analyses) {
  if (!analyses.getResult<LoopAnalysis>(function).empty())
    return PreservedAnalyses::all();
  bool changed = false;
  for (BasicBlock &block : function) {
    // Groups by (X, extension, S), in order of their first product. Either
    // operand of a product may be S, so each product is a candidate of two
    // groups; the larger groups take theirs first.
    MapVector<std::tuple<Value *, unsigned, Value *>, SmallVector<Member>>
        groups;
    for (Instruction &inst : block) {
      auto *op = dyn_cast<BinaryOperator>(&inst);
      if (!op || op->getOpcode() != Instruction::Mul ||
          !op->getType()->isIntegerTy() ||
          op->getType()->getIntegerBitWidth() > 64)
        continue;
      for (unsigned side = 0; side < 2; ++side) {
        Value *stride = op->getOperand(1 - side);
        if (isa<Constant>(stride))
          continue;
        OffsetForm form = matchOffsetForm(op->getOperand(side));
        SmallVector<Member> &group =
            groups[{form.base, form.extension, stride}];
        // `x * x` is the same candidate from both sides.
        if (group.empty() || group.back().product != op)
          group.push_back({op, form.offset});
      }
    }
    SmallVector<decltype(groups)::value_type *> order;
    for (auto &group : groups)
      order.push_back(&group);
    llvm::stable_sort(order, [](auto *a, auto *b) {
      return a->second.size() > b->second.size();
    });
    SmallPtrSet<Instruction *, 32> rewritten;
    for (auto *group : order) {
      auto &[key, candidates] = *group;
      SmallVector<Member> members;
      for (Member &member : candidates)
        if (!rewritten.contains(member.product))
          members.push_back(member);
      if (members.size() < 2)
        continue;
      for (Member &member : members)
        rewritten.insert(member.product);
      chainProducts(std::get<0>(key), std::get<1>(key), std::get<2>(key),
                    members);
      changed = true;
    }
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

/// The signed 32-bit word that `value` extends (a `sext i32`, a `zext i32`
/// of a value known non-negative, or a constant that fits), or null.
static Value *getSignedWord(Value *value, const DataLayout &layout) {
  Type *i32 = Type::getInt32Ty(value->getContext());
  if (auto *ext = dyn_cast<SExtInst>(value))
    return ext->getSrcTy() == i32 ? ext->getOperand(0) : nullptr;
  if (auto *ext = dyn_cast<ZExtInst>(value))
    return ext->getSrcTy() == i32 &&
                   (ext->hasNonNeg() ||
                    isKnownNonNegative(ext->getOperand(0), layout))
               ? ext->getOperand(0)
               : nullptr;
  if (auto *constant = dyn_cast<ConstantInt>(value))
    return constant->getValue().isSignedIntN(32)
               ? ConstantInt::get(i32, constant->getSExtValue())
               : nullptr;
  return nullptr;
}

PreservedAnalyses
WidenProductsOfWordsPass::run(Function &function,
                              FunctionAnalysisManager &analyses) {
  if (!analyses.getResult<LoopAnalysis>(function).empty())
    return PreservedAnalyses::all();
  SmallVector<BinaryOperator *> products;
  for (Instruction &inst : instructions(function))
    if (auto *mul = dyn_cast<BinaryOperator>(&inst))
      if (mul->getOpcode() == Instruction::Mul &&
          mul->getType()->isIntegerTy(64))
        products.push_back(mul);
  const DataLayout &layout = function.getDataLayout();
  bool changed = false;
  for (BinaryOperator *mul : products) {
    Value *a = getSignedWord(mul->getOperand(0), layout);
    Value *b = getSignedWord(mul->getOperand(1), layout);
    if (!a || !b || (isa<Constant>(a) && isa<Constant>(b)))
      continue;
    if (isa<Constant>(a))
      std::swap(a, b);
    // A constant factor is an immediate operand.
    Type *i32 = a->getType();
    auto *type =
        FunctionType::get(mul->getType(), {i32, i32}, /*isVarArg=*/false);
    InlineAsm *wide = InlineAsm::get(type, "mul.wide.s32 $0, $1, $2;",
                                     isa<Constant>(b) ? "=l,r,n" : "=l,r,r",
                                     /*hasSideEffects=*/false);
    IRBuilder<> builder(mul);
    CallInst *call = builder.CreateCall(wide, {a, b});
    mul->replaceAllUsesWith(call);
    SmallVector<Value *, 2> extensions(mul->operands());
    mul->eraseFromParent();
    for (Value *extension : extensions)
      if (auto *inst = dyn_cast<CastInst>(extension))
        if (inst->use_empty())
          inst->eraseFromParent();
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace tilec::detail
