// The generator's chunks (generate_diagonalizable_rows, what `tensordiag generate` streams): every
// entry is T[i_1..i_D] = sum_l S_l prod_n Q_n[i_n, l] of the definition, summed in the same order
// (so exactly equal), the chunks arrive in file order for both layouts, also where a chunk fixes
// more than the slowest mode, and the noise keeps its relative size.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "runtime/algorithm/generator.hpp"
#include "runtime/algorithm/random_stream.hpp"

using namespace tensordiag::runtime;

namespace {

// The definition at one multi-index: the product in mode order, the terms in order of l.
double defined_entry(const GeneratedTensor<double>& g, const std::vector<int>& index) {
  double sum = 0.0;
  for (std::size_t l = 0; l < g.diagonal.size(); ++l) {
    double term = g.diagonal[l];
    for (std::size_t n = 0; n < index.size(); ++n) term *= g.factors[n](index[n], static_cast<int>(l));
    sum += term;
  }
  return sum;
}

}  // namespace

TEST_CASE("generator chunks: the definition's entries, exactly, in file order") {
  struct Case {
    int order, size;
  };
  // 2^22 and 4^12 entries: rows of 2^21 and 4^11 entries, over 2^20, so a chunk fixes two modes.
  for (const Case c : {Case{4, 5}, Case{22, 2}, Case{12, 4}})
    for (const Layout layout : {Layout::c_order, Layout::fortran_order}) {
      CAPTURE(c.order);
      CAPTURE(c.size);
      GeneratorOptions options;
      options.order = c.order;
      options.size = c.size;
      options.seed = 90 + static_cast<unsigned>(c.order);
      options.layout = layout;
      std::vector<double> file;
      std::size_t chunks = 0;
      const GeneratedTensor<double> g = generate_diagonalizable_rows<double>(options, [&](const double* chunk, std::size_t length) {
        CHECK(length <= (std::size_t{1} << 20));
        file.insert(file.end(), chunk, chunk + length);
        ++chunks;
      });
      REQUIRE(file.size() == entry_count(c.order, c.size));
      CHECK(chunks >= static_cast<std::size_t>(c.size));
      const auto strides = strides_of(c.order, c.size, layout);
      RandomStream pick(7);
      std::size_t differing = 0;
      for (int trial = 0; trial < 2000; ++trial) {
        std::vector<int> index(static_cast<std::size_t>(c.order));
        std::ptrdiff_t offset = 0;
        for (int n = 0; n < c.order; ++n) {
          index[static_cast<std::size_t>(n)] = static_cast<int>(pick.uniform() * c.size);
          offset += index[static_cast<std::size_t>(n)] * strides[static_cast<std::size_t>(n)];
        }
        differing += file[static_cast<std::size_t>(offset)] == defined_entry(g, index) ? 0 : 1;
      }
      CHECK(differing == 0);
    }
}

TEST_CASE("generator chunks: the noise has the asked relative size, and the whole tensor is the chunks") {
  GeneratorOptions options;
  options.order = 12;
  options.size = 4;
  options.seed = 3;
  options.noise = 0.25;
  std::vector<double> noisy;
  generate_diagonalizable_rows<double>(options, [&](const double* chunk, std::size_t length) {
    noisy.insert(noisy.end(), chunk, chunk + length);
  });
  options.noise = 0.0;
  std::vector<double> clean;
  generate_diagonalizable_rows<double>(options, [&](const double* chunk, std::size_t length) {
    clean.insert(clean.end(), chunk, chunk + length);
  });
  double difference2 = 0.0, clean2 = 0.0;
  for (std::size_t i = 0; i < clean.size(); ++i) {
    difference2 += (noisy[i] - clean[i]) * (noisy[i] - clean[i]);
    clean2 += clean[i] * clean[i];
  }
  CHECK(std::sqrt(difference2 / clean2) == doctest::Approx(0.25).epsilon(1e-12));
  options.noise = 0.25;
  CHECK(generate_diagonalizable<double>(options).tensor.values() == noisy);
}
