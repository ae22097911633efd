// Compiles a kernel to PTX through an installed libtilec (no GPU needed)
// and shows that compile errors arrive as tilec::Error with diagnostics.
#include "tilec/tilec.h"

#include <cstdio>

int main() {
  const char *source =
      "@kernel\n"
      "def scale(out: *f32, x: *f32, n: i32, B: constexpr = 128):\n"
      "    offs = program_id(0) * B + arange(0, B)\n"
      "    m = offs < n\n"
      "    store(out + offs, 2.0 * load(x + offs, mask=m), mask=m)\n";
  tilec::Compiler cc{tilec::Compiler::Options()};
  tilec::CompiledKernel k =
      cc.compileSourceToPTX(source, "scale.tile", "scale");
  std::printf("compiled scale for %s: %zu bytes of PTX\n", k.meta.arch.c_str(),
              k.binary.size());
  std::size_t entry = k.binary.find(".visible .entry");
  std::printf("%s\n", k.binary.substr(entry, 22).c_str());
  std::printf("signature %s\n", k.meta.signature().c_str());
  try {
    cc.compileSourceToPTX("@kernel\ndef bad(x: *f32):\n    y = nope\n",
                          "inline.tile", "bad");
  } catch (const tilec::Error &e) {
    std::printf("error: %s\n", e.what());
    return 0;
  }
  return 1;
}
