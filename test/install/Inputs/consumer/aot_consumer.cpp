// Uses the AOT header that the installed tilec generated at build time;
// links only tilec::runtime. Prints the embedded metadata (no GPU needed).
#include "vector_add.h"

#include <cstdio>

int main() {
  tilec::KernelMetadata meta =
      tilec::KernelMetadata::fromJson(tilec_aot::vector_add_detail::metadata);
  std::printf("AOT kernel %s for %s: %s, BLOCK=%lld\n", meta.kernel.c_str(),
              tilec_aot::vector_add_arch, meta.signature().c_str(),
              static_cast<long long>(meta.constexprs.at("BLOCK").asInt()));
  return 0;
}
