//===- PtxasWorkarounds.cpp - Code shapes that ptxas miscompiles ----------===//

#include "PtxasWorkarounds.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <string>

using namespace llvm;

void tilec::detail::hideIntegerMinMaxFromPtxas(Module &module) {
  SmallVector<IntrinsicInst *> calls;
  for (Function &function : module)
    for (Instruction &inst : instructions(function))
      if (auto *call = dyn_cast<IntrinsicInst>(&inst))
        if (call->getType()->isIntegerTy(32) &&
            (call->getIntrinsicID() == Intrinsic::smin ||
             call->getIntrinsicID() == Intrinsic::smax ||
             call->getIntrinsicID() == Intrinsic::umin ||
             call->getIntrinsicID() == Intrinsic::umax))
          calls.push_back(call);
  for (IntrinsicInst *call : calls) {
    const char *compare = "lt.s32";
    switch (call->getIntrinsicID()) {
    case Intrinsic::smax:
      compare = "gt.s32";
      break;
    case Intrinsic::umin:
      compare = "lo.u32";
      break;
    case Intrinsic::umax:
      compare = "hi.u32";
      break;
    default:
      break;
    }
    // $0 = ($1 <compare> $2) ? $1 : $2
    std::string text = std::string("{\n\t.reg .pred p;\n\tsetp.") + compare +
                       " p, $1, $2;\n\tselp.b32 $0, $1, $2, p;\n\t}";
    Type *i32 = call->getType();
    auto *type = FunctionType::get(i32, {i32, i32}, /*isVarArg=*/false);
    InlineAsm *select = InlineAsm::get(type, text, "=r,r,r",
                                       /*hasSideEffects=*/false);
    IRBuilder<> builder(call);
    Value *result = builder.CreateCall(
        select, {call->getArgOperand(0), call->getArgOperand(1)});
    call->replaceAllUsesWith(result);
    call->eraseFromParent();
  }
}
