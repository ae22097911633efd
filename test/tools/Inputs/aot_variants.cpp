// A host program over a multi-variant AOT header (emit-header.test): which
// embedded variant each launch runs, on the fake CUDA driver.
#include "vector_add.h"

#include <cstdio>

int main() {
  try {
    tilec::Device device = tilec::Device::open(0);
    tilec::Kernel k = tilec_aot::load_vector_add(device);
    auto out = device.alloc<float>(4096 + 64);
    auto x = device.alloc<float>(4096 + 64);
    auto y = device.alloc<float>(4096 + 64);
    auto show = [](const char *what, const tilec::Kernel &variant) {
      const tilec::KernelMetadata &meta = variant.info();
      std::printf("%s: x aligned to %u, n divisible by %u%s\n", what,
                  meta.params[1].divisibility, meta.params[3].divisibility,
                  meta.params[3].equalToOne ? ", n == 1" : "");
    };
    show("n=4096", k.specializedFor(out, x, y, 4096));
    show("n=1000", k.specializedFor(out, x, y, 1000));
    show("n=1", k.specializedFor(out, x, y, 1));
    show("x+1 n=4096", k.specializedFor(out, x.data() + 1, y, 4096));
    k.launch({16}, out, x, y, 4096);
    k.launch({16}, out, x.data() + 1, y, 4096);
    std::printf("variants: %zu\n", k.numVariants());
  } catch (const tilec::Error &e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
  return 0;
}
