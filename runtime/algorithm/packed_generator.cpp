#include "runtime/algorithm/packed_generator.hpp"

#include <cmath>

#include "runtime/algorithm/for_each_tuple.hpp"
#include "runtime/algorithm/haar_orthogonal.hpp"
#include "runtime/algorithm/packed_figures.hpp"
#include "runtime/algorithm/random_stream.hpp"
#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

template <class T>
GeneratedPackedTensor<T> generate_packed_symmetric(const GeneratorOptions& options) {
  if (options.structure != Structure::symmetric)
    throw user_error("packed storage holds symmetric tensors: generate it with --structure symmetric");
  check_packed_shape(options.order, options.size);
  check_noise(options.noise);
  RandomStream random(options.seed);
  GeneratedPackedTensor<T> out;
  for (int i = 0; i < options.size; ++i) out.diagonal.push_back(random.gaussian());
  out.q = haar_orthogonal(options.size, random);

  PackedSymmetricTensor<double> clean(options.order, options.size);
  const int parts = tuple_parts(clean.count(), std::size_t{1} << 14, 0);
  for_each_tuple(clean.index(), parts, [&](int, std::size_t position, std::span<const int> tuple) {
    double sum = 0.0;
    for (int l = 0; l < options.size; ++l) {
      double term = out.diagonal[static_cast<std::size_t>(l)];
      for (const int i : tuple) term *= out.q(i, l);
      sum += term;
    }
    clean.values()[position] = sum;
  });
  stop_if_cancelled(options.cancelled);
  if (options.noise > 0) {
    PackedSymmetricTensor<double> g(options.order, options.size);
    for (double& x : g.values()) x = random.gaussian();
    const double scale = options.noise * std::sqrt(packed_norm2(clean, 0) / packed_norm2(g, 0));
    for (std::size_t e = 0; e < clean.count(); ++e) clean.values()[e] += scale * g.values()[e];
  }
  std::vector<T> values(clean.values().begin(), clean.values().end());
  for (const T x : values) check_generated_value(x, options.noise);
  out.tensor = PackedSymmetricTensor<T>(options.order, options.size, std::move(values));
  return out;
}

template GeneratedPackedTensor<float> generate_packed_symmetric(const GeneratorOptions&);
template GeneratedPackedTensor<double> generate_packed_symmetric(const GeneratorOptions&);

}  // namespace tensordiag::runtime
