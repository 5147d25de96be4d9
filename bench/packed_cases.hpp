#pragma once
// What the packed-storage benches share (packed_symmetric_bench on the CPU, gpu_packed_bench on
// the GPU): their shapes, the planted tensor each runs on (generate_packed_symmetric, seed 7,
// noise 1e-2: never formed in full), a "DxN" argument, the median of runs that may take seconds,
// and a number printed with a printf format.
#include <cstdio>
#include <string>
#include <vector>

#include "bench/statistics.hpp"
#include "runtime/algorithm/packed_generator.hpp"

namespace tensordiag::bench {

struct PackedShape {
  int order, size;
};

// The shapes both benches run unless told others; `last` the one that tells them apart.
inline std::vector<PackedShape> default_packed_shapes(PackedShape last) {
  return {{3, 32}, {4, 16}, {6, 8}, {3, 128}, {4, 32}, {6, 16}, {8, 8}, {4, 64}, {10, 8}, {6, 32}, last};
}

// "DxN" as a shape; false for anything else.
inline bool parse_packed_shape(const char* text, std::vector<PackedShape>& shapes) {
  int order = 0, size = 0;
  if (std::sscanf(text, "%dx%d", &order, &size) != 2) return false;
  shapes.push_back({order, size});
  return true;
}

template <class T>
runtime::PackedSymmetricTensor<T> planted_packed_case(PackedShape shape) {
  runtime::GeneratorOptions g;
  g.order = shape.order;
  g.size = shape.size;
  g.seed = 7;
  g.noise = 1e-2;
  g.structure = runtime::Structure::symmetric;
  return runtime::generate_packed_symmetric<T>(g).tensor;
}

// The median of 3 values of run(), or the first alone where it is over 5 (seconds).
template <class F>
double median_of_three_below_5(F&& run) {
  std::vector<double> values{run()};
  if (values.front() > 5) return values.front();
  for (int r = 0; r < 2; ++r) values.push_back(run());
  return median(values);
}

inline std::string fixed(double x, const char* format = "%.3f") {
  char text[32];
  std::snprintf(text, sizeof text, format, x);
  return text;
}

}  // namespace tensordiag::bench
