// The HOSVD start (issue 11 item 4): the bases are the Gram matrices' eigenvectors (orthogonal, by
// decreasing eigenvalue, signed), the rotated tensor is T x_n Q_n^T by a plain loop, and a run from
// it reconstructs T itself, with its history on T's scale and its tolerance meaning what it says.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "cli_workspace.hpp"
#include "random_tensor.hpp"
#include "scoped_environment.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/algorithm/hosvd_start.hpp"
#include "runtime/algorithm/symmetry_check.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/diagonalize_distributed.hpp"
#include "runtime/engines/gpu_hosvd_start.hpp"
#include "runtime/io/npy.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using tensordiag::testing::random_tensor;

namespace {

// Entry `flat` of `tensor` as its D indices.
std::vector<int> indices_of(const HostTensor<double>& tensor, std::size_t flat) {
  std::vector<int> index(static_cast<std::size_t>(tensor.order()));
  for (int n = 0; n < tensor.order(); ++n)
    index[static_cast<std::size_t>(n)] =
        static_cast<int>(flat / static_cast<std::size_t>(tensor.strides()[static_cast<std::size_t>(n)]) %
                         static_cast<std::size_t>(tensor.size()));
  return index;
}

std::size_t flat_of(const HostTensor<double>& tensor, const std::vector<int>& index) {
  std::size_t flat = 0;
  for (int n = 0; n < tensor.order(); ++n)
    flat += static_cast<std::size_t>(index[static_cast<std::size_t>(n)]) *
            static_cast<std::size_t>(tensor.strides()[static_cast<std::size_t>(n)]);
  return flat;
}

// G_n[i][j] = sum of T[.., i, ..] T[.., j, ..] over the other indices, entry by entry.
std::vector<double> plain_gram(const HostTensor<double>& tensor, int mode) {
  const int n = tensor.size();
  std::vector<double> g(static_cast<std::size_t>(n) * n, 0.0);
  for (std::size_t flat = 0; flat < tensor.count(); ++flat) {
    std::vector<int> index = indices_of(tensor, flat);
    const int i = index[static_cast<std::size_t>(mode)];
    for (int j = 0; j < n; ++j) {
      index[static_cast<std::size_t>(mode)] = j;
      g[static_cast<std::size_t>(i) * n + j] += tensor.data()[flat] * tensor.data()[flat_of(tensor, index)];
    }
  }
  return g;
}

// tensor x_mode M, entry by entry: out[.., j, ..] = sum_i M[j, i] tensor[.., i, ..].
HostTensor<double> plain_mode_product(const HostTensor<double>& tensor, int mode, const Matrix<double>& m) {
  HostTensor<double> out(tensor.order(), tensor.size(), tensor.layout());
  for (std::size_t flat = 0; flat < out.count(); ++flat) {
    std::vector<int> index = indices_of(out, flat);
    const int j = index[static_cast<std::size_t>(mode)];
    double sum = 0;
    for (int i = 0; i < tensor.size(); ++i) {
      index[static_cast<std::size_t>(mode)] = i;
      sum += m(j, i) * tensor.data()[flat_of(tensor, index)];
    }
    out.data()[flat] = sum;
  }
  return out;
}

Matrix<double> transposed(const Matrix<double>& m) {
  Matrix<double> t = m;
  for (int i = 0; i < m.n; ++i)
    for (int j = 0; j < m.n; ++j) t(i, j) = m(j, i);
  return t;
}

// A seeded diagonalizable tensor S x_1 Q_1 ... x_D Q_D (symmetric: one Q) plus relative noise.
HostTensor<double> planted(int order, int size, unsigned seed, double noise, Structure structure = Structure::general) {
  GeneratorOptions generator;
  generator.order = order;
  generator.size = size;
  generator.seed = seed;
  generator.noise = noise;
  generator.structure = structure;
  return generate_diagonalizable<double>(generator).tensor;
}

double max_abs(const HostTensor<double>& tensor) {
  double largest = 0;
  for (std::size_t k = 0; k < tensor.count(); ++k) largest = std::max(largest, std::abs(tensor.data()[k]));
  return largest;
}

constexpr double eps = std::numeric_limits<double>::epsilon();

}  // namespace

TEST_CASE("hosvd start: the bases are the Gram matrices' ordered, signed eigenvectors, the rotation is T x_n Q_n^T") {
  for (const Layout layout : {Layout::c_order, Layout::fortran_order})
    for (const auto& [order, size] : {std::pair{3, 5}, std::pair{4, 4}, std::pair{5, 3}}) {
      CAPTURE(order);
      CAPTURE(size);
      const auto tensor = random_tensor<double>(order, size, 6100u + static_cast<unsigned>(order * size), layout);
      const HosvdStart<double> start = hosvd_start(tensor, 1);
      REQUIRE(start.bases.size() == static_cast<std::size_t>(order));
      HostTensor<double> expected = tensor;
      for (int mode = 0; mode < order; ++mode) {
        const Matrix<double>& q = start.bases[static_cast<std::size_t>(mode)];
        CHECK(orthogonality_error(std::vector<Matrix<double>>{q}) <= 10 * size * eps);
        const std::vector<double> g = plain_gram(tensor, mode);
        double g_norm = 0;
        for (const double x : g) g_norm += x * x;
        g_norm = std::sqrt(g_norm);
        double previous = std::numeric_limits<double>::infinity();
        for (int k = 0; k < size; ++k) {
          // Column k: G q = lambda q with lambda = q^T G q, lambda not increasing with k.
          double lambda = 0, residual = 0;
          for (int i = 0; i < size; ++i)
            for (int j = 0; j < size; ++j) lambda += q(i, k) * g[static_cast<std::size_t>(i) * size + j] * q(j, k);
          for (int i = 0; i < size; ++i) {
            double gq = 0;
            for (int j = 0; j < size; ++j) gq += g[static_cast<std::size_t>(i) * size + j] * q(j, k);
            residual += (gq - lambda * q(i, k)) * (gq - lambda * q(i, k));
          }
          CHECK(std::sqrt(residual) <= 100 * size * eps * g_norm);
          CHECK(lambda <= previous * (1 + 1e-12));
          previous = lambda;
          // The sign: the largest-magnitude entry is positive.
          int largest = 0;
          for (int i = 1; i < size; ++i)
            if (std::abs(q(i, k)) > std::abs(q(largest, k))) largest = i;
          CHECK(q(largest, k) > 0);
        }
        expected = plain_mode_product(expected, mode, transposed(q));
      }
      double diff = 0, norm = 0;
      for (std::size_t k = 0; k < expected.count(); ++k) {
        diff += (start.rotated.data()[k] - expected.data()[k]) * (start.rotated.data()[k] - expected.data()[k]);
        norm += expected.data()[k] * expected.data()[k];
      }
      CHECK(std::sqrt(diff / norm) <= 100 * order * size * eps);
      // The rotation is orthogonal: the norm is kept.
      double input_norm = 0;
      for (std::size_t k = 0; k < tensor.count(); ++k) input_norm += tensor.data()[k] * tensor.data()[k];
      CHECK(norm == doctest::Approx(input_norm).epsilon(1e-12));
    }
}

TEST_CASE("hosvd start: a run from it reconstructs T, reports on T's scale and stops at T's tolerance") {
  for (const auto& [order, size, noise] : {std::tuple{6, 8, 0.1}, std::tuple{4, 16, 0.1}, std::tuple{5, 6, 0.0}}) {
    CAPTURE(order);
    CAPTURE(size);
    const HostTensor<double> tensor = planted(order, size, 41u + static_cast<unsigned>(order), noise);
    Options options;
    options.backend = Backend::cpu;
    options.verify = true;
    options.init = Init::hosvd;
    std::vector<double> seen;
    options.on_sweep = [&seen](const SweepRecord& record) {
      seen.push_back(record.off_rel);
      return false;
    };
    const Result<double> result = diagonalize(tensor, options);
    REQUIRE(result.verification);
    CHECK(result.hosvd_start);
    CHECK(result.verification->reconstruction_error <= 30.0 * size * order * eps);
    CHECK(result.verification->orthogonality_error <= 30.0 * size * eps);
    // Sweep 0 is the start, on T's scale: off(T x_n Q_n^T) / off(T).
    const HosvdStart<double> start = hosvd_start(tensor, 1);
    CHECK(result.history.front().off_rel ==
          doctest::Approx(std::sqrt(off_norm2(start.rotated) / off_norm2(tensor))).epsilon(1e-10));
    CHECK(result.history.front().off_rel < 1.0);
    // The callback saw the history's figures.
    REQUIRE(seen.size() + 1 == result.history.size());
    for (std::size_t s = 0; s < seen.size(); ++s) CHECK(seen[s] == result.history[s + 1].off_rel);
    // The last off_rel is the core's own, against T.
    CHECK(result.history.back().off_rel ==
          doctest::Approx(std::sqrt(off_norm2(result.core) / off_norm2(tensor))).epsilon(1e-6));
    if (result.stop_reason == StopReason::tolerance) CHECK(result.history.back().off_rel <= result.tol);
    // Against the identity start: the same fixed point's figure, in no more sweeps.
    Options from_identity = options;
    from_identity.init = Init::identity;
    from_identity.on_sweep = nullptr;
    const Result<double> plain = diagonalize(tensor, from_identity);
    CHECK(result.sweeps() <= plain.sweeps());
    CHECK(result.history.back().off_rel <= plain.history.back().off_rel * 1.01 + 1e-13);
  }
}

TEST_CASE("hosvd start, structure symmetric: one Q, G_1's, in every mode, C stays symmetric") {
  // D = 2 is the symmetric eigenproblem: G_1 = T^2 has T's eigenvectors (distinct |eigenvalues|),
  // so the start is already the answer.
  for (const auto& [order, size, noise] : {std::tuple{2, 9, 0.0}, std::tuple{4, 6, 0.0}, std::tuple{3, 7, 0.1}}) {
    CAPTURE(order);
    CAPTURE(size);
    const HostTensor<double> tensor =
        planted(order, size, 93u + static_cast<unsigned>(order), noise, Structure::symmetric);
    const HosvdStart<double> start = hosvd_start(tensor, 1, Structure::symmetric);
    for (const Matrix<double>& basis : start.bases) CHECK(basis.data == start.bases.front().data);
    CHECK(start.bases.front().data == hosvd_start(tensor, 1).bases.front().data);
    CHECK(symmetry_deviation(start.rotated).largest <= 100 * order * size * eps * max_abs(start.rotated));

    Options options;
    options.backend = Backend::cpu;
    options.structure = Structure::symmetric;
    options.verify = true;
    options.init = Init::hosvd;
    const Result<double> result = diagonalize(tensor, options);
    CHECK(result.hosvd_start);
    REQUIRE(result.verification);
    CHECK(result.verification->reconstruction_error <= 30.0 * size * order * eps);
    CHECK(result.verification->orthogonality_error <= 30.0 * size * eps);
    for (const Matrix<double>& factor : result.factors) CHECK(factor.data == result.factors.front().data);
    CHECK(symmetry_deviation(result.core).largest <= 1e-14 * max_abs(result.core) * order * size);
    CHECK(result.history.front().off_rel ==
          doctest::Approx(std::sqrt(off_norm2(start.rotated) / off_norm2(tensor))).epsilon(1e-10));
    if (noise == 0) CHECK(result.history.front().off_rel < 1e-10);
    options.init = Init::identity;
    const Result<double> plain = diagonalize(tensor, options);
    CHECK(result.sweeps() <= plain.sweeps());
    CHECK(result.history.back().off_rel <= plain.history.back().off_rel * 1.01 + 1e-13);
  }
}

TEST_CASE("hosvd start: the GPU engines take the host's start up to 4 MiB, or TENSORDIAG_HOST_HOSVD_BYTES") {
  tensordiag::test::ScopedEnvironment environment;
  environment.set("TENSORDIAG_HOST_HOSVD_BYTES", std::nullopt);
  CHECK(host_hosvd_start_pays(0));
  CHECK(host_hosvd_start_pays(std::size_t{4} << 20));
  CHECK_FALSE(host_hosvd_start_pays((std::size_t{4} << 20) + 1));
  environment.set("TENSORDIAG_HOST_HOSVD_BYTES", "0");  // never: the device's start
  CHECK_FALSE(host_hosvd_start_pays(8));
  environment.set("TENSORDIAG_HOST_HOSVD_BYTES", "1000000");
  CHECK(host_hosvd_start_pays(1000000));
  CHECK_FALSE(host_hosvd_start_pays(1000001));
  for (const char* bad : {"-1", "lots", "1e6"}) {
    CAPTURE(std::string(bad));
    environment.set("TENSORDIAG_HOST_HOSVD_BYTES", bad);
    CHECK_THROWS_WITH_AS(host_hosvd_start_pays(8), doctest::Contains("TENSORDIAG_HOST_HOSVD_BYTES"), user_error);
  }
}

TEST_CASE("hosvd start: refused where it cannot run, with one line") {
  const auto tensor = random_tensor<double>(3, 4, 6200u);
  Options options;
  options.init = Init::hosvd;
  const auto comm = one_rank_communicator();
  CHECK_THROWS_WITH_AS(diagonalize_distributed(tensor, options, *comm), doctest::Contains("not available in a distributed run"),
                       user_error);
  CHECK_THROWS_WITH_AS(parse_init("tucker"), doctest::Contains("use identity or hosvd"), user_error);
  CHECK(parse_init("svd") == Init::hosvd);

  const testing::Workspace workspace;
  write_tensor(workspace / "in.npy", tensor);
  testing::check_rejected(workspace, "diagonalize in.npy --out result --backend cpu --init tucker", "--init");
  const testing::CliRun ran = workspace.run("diagonalize in.npy --out result --backend cpu --init hosvd -q");
  CHECK(ran.exit_code == 0);
  const std::string report = testing::read_file(workspace / "result" / "report.json");
  CHECK(report.find("\"method\": \"hosvd\"") != std::string::npos);
  CHECK(report.find("\"computed_on\": \"host\"") != std::string::npos);
}
