//===- CompileOptions.cpp - The options of one kernel compile -------------===//
//
// The validation of compile options and their canonical key text.
//
//===----------------------------------------------------------------------===//

#include "tilec/Support/CompileOptions.h"

using namespace tilec;

bool CompileOptions::isValidNumWarps(long long numWarps) {
  return numWarps >= 1 && numWarps <= kMaxNumWarps &&
         (numWarps & (numWarps - 1)) == 0;
}

bool CompileOptions::isValidNumStages(long long numStages) {
  return numStages >= 1 && numStages <= kMaxNumStages;
}

std::string CompileOptions::validate() const {
  if (!arch.empty() && !Target::parse(arch))
    return "unknown target '" + arch + "' (" + Target::getSupportedNames() +
           ")";
  if (numWarps != 0 && !isValidNumWarps(numWarps))
    return "num_warps = " + std::to_string(numWarps) +
           " is not a power of two from 1 to " + std::to_string(kMaxNumWarps);
  if (numStages != 0 && !isValidNumStages(numStages))
    return "num_stages = " + std::to_string(numStages) + " is not from 1 to " +
           std::to_string(kMaxNumStages);
  if (optLevel != 0 && optLevel != 3)
    return "optimization level " + std::to_string(optLevel) +
           " is not supported (0 or 3)";
  if (pointerAlignment == 0 || (pointerAlignment & (pointerAlignment - 1)))
    return "pointer alignment " + std::to_string(pointerAlignment) +
           " is not a power of two";
  return "";
}

Target CompileOptions::getTarget() const {
  if (std::optional<Target> target = Target::parse(arch))
    return *target;
  return Target::getDefault();
}

std::string CompileOptions::getKeyText() const {
  std::string text;
  auto field = [&](const char *name, const std::string &value) {
    text += name;
    text += '=';
    text += std::to_string(value.size());
    text += ':';
    text += value;
    text += '\n';
  };
  field("arch", getTarget().str());
  field("num_warps", std::to_string(numWarps));
  field("num_stages", std::to_string(numStages));
  field("opt", std::to_string(optLevel));
  field("pointer_alignment", std::to_string(pointerAlignment));
  field("divisible", std::to_string(divisibleParams.size()));
  for (const std::string &name : divisibleParams)
    field("name", name);
  field("unit", std::to_string(unitParams.size()));
  for (const std::string &name : unitParams)
    field("name", name);
  field("fp_fusion", fpFusion ? "1" : "0");
  // Only when set, so that the keys of earlier compiles stay the same.
  if (lineInfo)
    field("line_info", "1");
  if (spareRegisters)
    field("spare_registers", "1");
  // Only when given, so that the keys of earlier compiles stay the same.
  if (!unalignedParams.empty()) {
    field("unaligned", std::to_string(unalignedParams.size()));
    for (const std::string &name : unalignedParams)
      field("name", name);
  }
  return text;
}
