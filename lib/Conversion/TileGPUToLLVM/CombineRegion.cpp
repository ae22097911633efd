//===- CombineRegion.cpp - A user's combine function on scalars -----------===//
//
// Clones a combine region's ops with its arguments bound to registers.
//
//===----------------------------------------------------------------------===//

#include "CombineRegion.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::tilegpu;

SmallVector<Value> mlir::tilegpu::emitCombineRegion(OpBuilder &builder,
                                                    Region &region,
                                                    ArrayRef<Value> earlier,
                                                    ArrayRef<Value> later) {
  Block &block = region.front();
  IRMapping mapping;
  for (auto [arg, value] : llvm::zip(block.getArguments(),
                                     llvm::concat<const Value>(earlier, later)))
    mapping.map(arg, value);
  for (Operation &op : block.without_terminator())
    builder.clone(op, mapping);
  SmallVector<Value> results;
  for (Value yielded : block.getTerminator()->getOperands())
    results.push_back(mapping.lookupOrDefault(yielded));
  return results;
}
