// A host program for the AOT header of examples/vector_add.tile (the lit
// test emit-header.test generates it and compiles this with -fsyntax-only).
#include "vector_add.h"

#include <cstdio>
#include <vector>

int main() try {
  tilec::Device dev = tilec::Device::open(0);
  tilec::Kernel k = tilec_aot::load_vector_add(dev);
  const int n = 1 << 20;
  std::vector<float> x(n, 1.0f), y(n, 2.0f);
  tilec::Buffer<float> dx = dev.alloc<float>(n), dy = dev.alloc<float>(n),
                       out = dev.alloc<float>(n);
  dx.copyFrom(x);
  dy.copyFrom(y);
  const int block = int(k.info().constexprs.at("BLOCK").asInt());
  tilec_aot::launch_vector_add(k, {(n + block - 1) / block}, out, dx, dy, n);
  tilec::Stream stream(dev);
  tilec_aot::launch_vector_add(k, tilec::Grid((n + block - 1) / block),
                               out.data(), dx.data(), dy.data(), n, stream);
  stream.synchronize();
  std::printf("%s %d\n", tilec_aot::vector_add_arch,
              tilec_aot::vector_add_threads_per_block);
  return out.toVector()[0] == 3.0f ? 0 : 1;
} catch (const tilec::Error &e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 1;
}
