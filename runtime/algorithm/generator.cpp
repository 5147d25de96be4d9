#include "runtime/algorithm/generator.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "runtime/core/errors.hpp"
#include "runtime/algorithm/haar_orthogonal.hpp"
#include "runtime/algorithm/random_stream.hpp"
#include "runtime/algorithm/skew_blocks.hpp"

namespace tensordiag::runtime {

namespace {

// T[i_1..i_D] = sum_l S_l prod_n Q_n[i_n, l], accumulated one rank-one term at a time with the
// product over the leading modes carried down a recursion (N^D multiply-adds per term).
void add_rank_one(std::vector<double>& t, const std::vector<std::ptrdiff_t>& strides,
                  const std::vector<Matrix<double>>& q, int l, int mode, double prefix, std::ptrdiff_t offset) {
  const int n = q[0].n;
  if (mode == static_cast<int>(q.size())) {
    t[static_cast<std::size_t>(offset)] += prefix;
    return;
  }
  for (int i = 0; i < n; ++i)
    add_rank_one(t, strides, q, l, mode + 1, prefix * q[static_cast<std::size_t>(mode)](i, l),
                 offset + i * strides[static_cast<std::size_t>(mode)]);
}

// The same terms for one chunk of the file: the entries whose indices in the `fixed` modes (the
// slowest in memory) are `index[mode]`; offsets within the chunk (the fixed modes add none), the
// product in the same mode order, so each entry sums the same numbers in the same order as the
// whole tensor's.
void add_rank_one_chunk(std::vector<double>& t, const std::vector<std::ptrdiff_t>& strides,
                        const std::vector<Matrix<double>>& q, int l, int mode, double prefix, std::ptrdiff_t offset,
                        const std::vector<bool>& fixed, const std::vector<int>& index) {
  const int n = q[0].n;
  if (mode == static_cast<int>(q.size())) {
    t[static_cast<std::size_t>(offset)] += prefix;
    return;
  }
  const auto m = static_cast<std::size_t>(mode);
  if (fixed[m]) {
    add_rank_one_chunk(t, strides, q, l, mode + 1, prefix * q[m](index[m], l), offset, fixed, index);
    return;
  }
  for (int i = 0; i < n; ++i)
    add_rank_one_chunk(t, strides, q, l, mode + 1, prefix * q[m](i, l), offset + i * strides[m], fixed, index);
}

void check_generator_options(const GeneratorOptions& options) {
  const bool one_factor = shares_one_factor(options.structure);
  if (options.order < min_order(options.structure))
    throw user_error(one_factor ? "generate needs order >= 2"
                                : "generate needs order >= 3 (order 2 is a matrix: use an SVD)");
  if (options.size < 2) throw user_error("generate needs size >= 2");
  if (options.structure == Structure::skew && options.size < options.order)
    throw user_error("generate --structure skew needs size >= order (a skew-symmetric tensor with fewer indices "
                     "than modes is zero)");
  check_noise(options.noise);
}

// t <- t x_1 Q ... x_D Q, (X x_n Q)[.. j@n ..] = sum_i Q[j, i] X[.. i@n ..], a mode at a time.
void multiply_every_mode(std::vector<double>& t, int size, const std::vector<std::ptrdiff_t>& strides, const Matrix<double>& q) {
  std::vector<double> fiber(static_cast<std::size_t>(size));
  const auto count = static_cast<std::ptrdiff_t>(t.size());
  for (const std::ptrdiff_t stride : strides)
    for (std::ptrdiff_t base = 0; base < count; base += stride * size)
      for (std::ptrdiff_t e = 0; e < stride; ++e) {
        double* x = t.data() + base + e;
        for (int i = 0; i < size; ++i) fiber[static_cast<std::size_t>(i)] = x[i * stride];
        for (int j = 0; j < size; ++j) {
          double sum = 0.0;
          for (int i = 0; i < size; ++i) sum += q(j, i) * fiber[static_cast<std::size_t>(i)];
          x[j * stride] = sum;
        }
      }
}

// The planted skew core: C[pi(B_k)] = sign(pi) S_k for every permutation pi of the block
// B_k = (kD, .., kD+D-1), zero elsewhere.
void place_skew_blocks(std::vector<double>& t, int order, const std::vector<std::ptrdiff_t>& strides,
                       const std::vector<double>& blocks) {
  std::vector<int> perm(static_cast<std::size_t>(order));
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    for (int n = 0; n < order; ++n) perm[static_cast<std::size_t>(n)] = n;
    do {
      int inversions = 0;
      std::ptrdiff_t offset = 0;
      for (std::size_t n = 0; n < perm.size(); ++n) {
        for (std::size_t m = n + 1; m < perm.size(); ++m) inversions += perm[n] > perm[m];
        offset += (static_cast<std::ptrdiff_t>(k) * order + perm[n]) * strides[n];
      }
      t[static_cast<std::size_t>(offset)] = (inversions % 2 ? -1.0 : 1.0) * blocks[k];
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
}

}  // namespace

void check_noise(double noise) {
  if (!(noise >= 0) || !std::isfinite(noise)) throw user_error("noise must be a finite number >= 0");
}

template <class T>
void check_generated_value(T value, double noise) {
  if (!std::isfinite(value))
    throw user_error("noise " + (std::ostringstream() << noise).str() + " is too large: the tensor's values overflow " +
                     std::string(to_string(dtype_of<T>())));
}

template <class T>
GeneratedTensor<T> generate_diagonalizable_rows(const GeneratorOptions& options,
                                               const std::function<void(const T* row, std::size_t length)>& sink) {
  check_generator_options(options);
  if (options.structure != Structure::general)
    throw internal_error("generate_diagonalizable_rows: structure general only (symmetric noise is symmetrized whole)");
  RandomStream random(options.seed);
  GeneratedTensor<T> out;
  for (int i = 0; i < options.size; ++i) out.diagonal.push_back(random.gaussian());
  for (int n = 0; n < options.order; ++n) out.factors.push_back(haar_orthogonal(options.size, random));
  const RandomStream noise_stream = random;  // the noise comes next, in file order

  // Chunks of the file: the k slowest memory modes fixed, k the least that keeps a chunk within
  // 2^20 entries (or all but the fastest mode).
  const int order = options.order;
  const auto strides = strides_of(order, options.size, options.layout);
  int fixed_modes = 1;
  while (fixed_modes < order - 1 && entry_count(order - fixed_modes, options.size) > (std::size_t{1} << 20)) ++fixed_modes;
  std::vector<int> slowest;  // memory order, slowest first
  for (int k = 0; k < fixed_modes; ++k) slowest.push_back(options.layout == Layout::c_order ? k : order - 1 - k);
  std::vector<bool> fixed(static_cast<std::size_t>(order), false);
  for (const int mode : slowest) fixed[static_cast<std::size_t>(mode)] = true;
  const std::size_t length = entry_count(order - fixed_modes, options.size);
  const std::size_t chunks = entry_count(fixed_modes, options.size);
  std::vector<double> clean(length);
  std::vector<int> index(static_cast<std::size_t>(order), 0);
  const auto clean_chunk = [&](std::size_t chunk) {
    stop_if_cancelled(options.cancelled);
    for (int k = fixed_modes - 1; k >= 0; --k, chunk /= static_cast<std::size_t>(options.size))
      index[static_cast<std::size_t>(slowest[static_cast<std::size_t>(k)])] =
          static_cast<int>(chunk % static_cast<std::size_t>(options.size));
    std::fill(clean.begin(), clean.end(), 0.0);
    for (int l = 0; l < options.size; ++l)
      add_rank_one_chunk(clean, strides, out.factors, l, 0, out.diagonal[static_cast<std::size_t>(l)], 0, fixed, index);
  };
  // ||T||^2 and ||G||^2, each summed in file order, before anything can be written: a first pass.
  double scale = 0.0;
  if (options.noise > 0) {
    RandomStream g = noise_stream;
    double norm_t = 0.0, norm_g = 0.0;
    for (std::size_t chunk = 0; chunk < chunks; ++chunk) {
      clean_chunk(chunk);
      for (const double x : clean) {
        const double y = g.gaussian();
        norm_t += x * x;
        norm_g += y * y;
      }
    }
    scale = options.noise * std::sqrt(norm_t / norm_g);
  }
  RandomStream g = noise_stream;
  std::vector<T> values(length);
  for (std::size_t chunk = 0; chunk < chunks; ++chunk) {
    clean_chunk(chunk);
    for (std::size_t k = 0; k < length; ++k) {
      values[k] = static_cast<T>(options.noise > 0 ? clean[k] + scale * g.gaussian() : clean[k]);
      check_generated_value(values[k], options.noise);
    }
    sink(values.data(), length);
  }
  return out;
}

// The sorted index is its own representative, so one pass in any order leaves each orbit with its
// sorted entry's value, signed.
template <class V>
void symmetrize_by_sorted_index(std::vector<V>& g, int order, int size, const std::vector<std::ptrdiff_t>& strides,
                                int sign) {
  std::vector<int> index(static_cast<std::size_t>(order));
  for (std::size_t flat = 0; flat < g.size(); ++flat) {
    std::ptrdiff_t offset = 0;
    std::size_t rest = flat;
    for (int n = order - 1; n >= 0; --n) {  // flat in C order, any bijection would do
      index[static_cast<std::size_t>(n)] = static_cast<int>(rest % static_cast<std::size_t>(size));
      rest /= static_cast<std::size_t>(size);
    }
    for (int n = 0; n < order; ++n) offset += index[static_cast<std::size_t>(n)] * strides[static_cast<std::size_t>(n)];
    int inversions = 0;
    bool repeated = false;
    for (std::size_t n = 0; n < index.size(); ++n)
      for (std::size_t m = n + 1; m < index.size(); ++m) {
        inversions += index[n] > index[m];
        repeated = repeated || index[n] == index[m];
      }
    std::sort(index.begin(), index.end());
    std::ptrdiff_t sorted = 0;
    for (int n = 0; n < order; ++n) sorted += index[static_cast<std::size_t>(n)] * strides[static_cast<std::size_t>(n)];
    if (sign > 0) g[static_cast<std::size_t>(offset)] = g[static_cast<std::size_t>(sorted)];
    else g[static_cast<std::size_t>(offset)] = repeated ? V(0) : (inversions % 2 ? -1.0 : 1.0) * g[static_cast<std::size_t>(sorted)];
  }
}

template void symmetrize_by_sorted_index(std::vector<double>&, int, int, const std::vector<std::ptrdiff_t>&, int);
template void symmetrize_by_sorted_index(std::vector<std::complex<double>>&, int, int,
                                         const std::vector<std::ptrdiff_t>&, int);

template <class T>
GeneratedTensor<T> generate_diagonalizable(const GeneratorOptions& options) {
  check_generator_options(options);
  if (options.structure == Structure::general) {
    std::vector<T> values;
    values.reserve(entry_count(options.order, options.size));
    GeneratedTensor<T> out = generate_diagonalizable_rows<T>(
        options, [&values](const T* chunk, std::size_t length) { values.insert(values.end(), chunk, chunk + length); });
    out.tensor = HostTensor<T>(options.order, options.size, options.layout, std::move(values));
    return out;
  }
  // Symmetric or skew: one Q in every mode, and noise (anti)symmetrized over the whole tensor.
  const bool skew = options.structure == Structure::skew;
  RandomStream random(options.seed);
  GeneratedTensor<T> out;
  const int planted = skew ? skew_block_count(options.order, options.size) : options.size;
  for (int i = 0; i < planted; ++i) out.diagonal.push_back(random.gaussian());
  for (int n = 0; n < options.order; ++n)
    out.factors.push_back(n > 0 ? out.factors.front() : haar_orthogonal(options.size, random));

  const auto strides = strides_of(options.order, options.size, options.layout);
  std::vector<double> t(entry_count(options.order, options.size), 0.0);
  if (skew) {
    place_skew_blocks(t, options.order, strides, out.diagonal);
    stop_if_cancelled(options.cancelled);
    multiply_every_mode(t, options.size, strides, out.factors.front());
  }
  for (int l = 0; !skew && l < options.size; ++l) {
    stop_if_cancelled(options.cancelled);
    add_rank_one(t, strides, out.factors, l, 0, out.diagonal[static_cast<std::size_t>(l)], 0);
  }
  if (options.noise > 0) {
    stop_if_cancelled(options.cancelled);
    std::vector<double> g(t.size());
    double norm_t = 0.0, norm_g = 0.0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      g[i] = random.gaussian();
      norm_t += t[i] * t[i];
    }
    symmetrize_by_sorted_index(g, options.order, options.size, strides, skew ? -1 : 1);
    for (std::size_t i = 0; i < t.size(); ++i) norm_g += g[i] * g[i];
    const double scale = options.noise * std::sqrt(norm_t / norm_g);
    for (std::size_t i = 0; i < t.size(); ++i) t[i] += scale * g[i];
  }
  out.tensor = HostTensor<T>(options.order, options.size, options.layout, std::vector<T>(t.begin(), t.end()));
  for (std::size_t i = 0; i < out.tensor.count(); ++i) check_generated_value(out.tensor.values()[i], options.noise);
  return out;
}

template GeneratedTensor<float> generate_diagonalizable_rows(const GeneratorOptions&,
                                                             const std::function<void(const float*, std::size_t)>&);
template GeneratedTensor<double> generate_diagonalizable_rows(const GeneratorOptions&,
                                                              const std::function<void(const double*, std::size_t)>&);
template void check_generated_value(float, double);
template void check_generated_value(double, double);
template GeneratedTensor<float> generate_diagonalizable(const GeneratorOptions&);
template GeneratedTensor<double> generate_diagonalizable(const GeneratorOptions&);

}  // namespace tensordiag::runtime
