// Complex tensors on the GPU engines (issue 11, item 3): the general and one-block engines' kernels
// generated for a complex scalar (dsl::Complex), the complex lift's rotation, U <- U G in the pass.
// Against the CPU complex engine on the same input and schedule: the same sweeps, core and U_1 to
// 1e-10 relative in complex128 (the phases fixed the same way on both), off_rel to 1e-9; planted
// tensors recovered to 1e-12 with unitarity and reconstruction within 30 N D eps; complex64 within
// its own tolerance; a real tensor run as complex128 follows the real GPU engine; the pivot check
// (Lambda skew-Hermitian, its norm from its real embedding) against the CPU's decisions. Orders
// whose pivot subtensors are over a warp's shared memory: test_gpu_complex_split.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <set>
#include <string>

#include "complex_recovery.hpp"
#include "gpu/complex_gpu_cpu.hpp"
#include "random_tensor.hpp"
#include "relative_difference.hpp"
#include "runtime/algorithm/complex_generator.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/diagonalize_complex.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using namespace tensordiag::testing;


namespace {

// A planted complex symmetric tensor's run: converged to 1e-12, exact and unitary to 30 N D eps,
// U in every factor slot, and |S_i| on the diagonal to 1e-12.
void check_planted_symmetric_run(const Result<std::complex<double>>& gpu, const GeneratedComplexTensor<double>& truth,
                                 const Shape& shape) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  CHECK(gpu.history.back().off_rel <= 1e-12);
  REQUIRE(gpu.verification);
  CHECK(gpu.verification->reconstruction_error <= 30.0 * shape.size * shape.order * eps);
  CHECK(gpu.verification->orthogonality_error <= 30.0 * shape.size * shape.order * eps);
  for (std::size_t n = 1; n < gpu.factors.size(); ++n) CHECK(gpu.factors[n].data == gpu.factors[0].data);
  check_diagonal_is_moduli(gpu.core, truth.diagonal, 1e-12);
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("complex128 planted tensors, D = 3..10: the GPU equals the CPU complex engine and recovers |S_i|") {
    constexpr double eps = std::numeric_limits<double>::epsilon();
    std::set<std::string> engines;  // the small shapes take the one-block path, the others the general one
    const Shape shapes[] = {{3, 4}, {3, 7}, {3, 16}, {3, 64, Layout::fortran_order}, {4, 5, Layout::fortran_order},
                            {4, 8}, {5, 4}, {6, 3}, {7, 4}, {8, 2}, {10, 2, Layout::fortran_order}};
    std::uint64_t seed = 1100;
    for (const Shape& shape : shapes) {
      CAPTURE(shape.order);
      CAPTURE(shape.size);
      const GeneratedComplexTensor<double> truth = planted_complex<double>(shape.order, shape.size, seed++, shape.layout);
      const Result<std::complex<double>> gpu = check_gpu_equals_cpu(truth.tensor, on(Backend::cuda), 1e-10);
      engines.insert(gpu.engine);
      CHECK(gpu.converged());
      CHECK(gpu.history.back().off_rel <= 1e-12);
      const double bound = 30.0 * shape.size * shape.order * eps;
      REQUIRE(gpu.verification);
      CHECK(gpu.verification->reconstruction_error <= bound);
      CHECK(gpu.verification->orthogonality_error <= bound);
      check_diagonal_is_moduli(gpu.core, truth.diagonal, 1e-12);
    }
    CHECK(engines == std::set<std::string>{"cuda", "cuda_one_block"});
  }

  TEST_CASE_TEMPLATE("a complex batch runs in one launch on the GPU: each tensor as alone, bit for bit, and the CPU's to rounding",
                     R, float, double) {
    // Noisy planted tensors of a shape the one-block engine takes, up to 6 sweeps each.
    std::vector<HostTensor<std::complex<R>>> tensors;
    for (std::uint64_t b = 0; b < 5; ++b) tensors.push_back(planted_complex<R>(3, 6, 1300 + b, Layout::c_order, 0.05).tensor);
    const Options options = fixed_sweeps(6);
    const auto batch = diagonalize_batch(tensors, options);
    REQUIRE(batch.size() == tensors.size());
    Options cpu_options = options;
    cpu_options.backend = Backend::cpu;
    const double bound = std::is_same_v<R, double> ? 1e-10 : 1e-4;
    for (std::size_t b = 0; b < tensors.size(); ++b) {
      CAPTURE(b);
      const auto alone = diagonalize_complex(tensors[b], options);
      CHECK(batch[b].engine == "cuda_one_block");
      CHECK(alone.engine == "cuda_one_block");
      // At most 6: float32 may stop earlier where rounding lowers ||diag C||^2 (the stall test runs
      // even at stall_tol 0), and then alone as in the batch.
      CHECK(batch[b].sweeps() <= 6);
      CHECK(batch[b].sweeps() == alone.sweeps());
      CHECK(batch[b].stop_reason == alone.stop_reason);
      CHECK(batch[b].core.values() == alone.core.values());
      for (std::size_t n = 0; n < 3; ++n) CHECK(batch[b].factors[n].data == alone.factors[n].data);
      const auto cpu = diagonalize_complex(tensors[b], cpu_options);
      CHECK(relative_difference(batch[b].core.values(), cpu.core.values()) <= bound);
    }
    CHECK(batch[0].core.values() != batch[1].core.values());
  }

  TEST_CASE("complex128 random and noisy tensors, 6 sweeps: the GPU follows the CPU complex engine") {
    const Shape shapes[] = {{3, 9}, {4, 6, Layout::fortran_order}, {5, 5}, {6, 4}};
    std::uint64_t seed = 1200;
    for (const Shape& shape : shapes) {
      CAPTURE(shape.order);
      CAPTURE(shape.size);
      Options options = fixed_sweeps(6);
      const GeneratedComplexTensor<double> noisy = planted_complex<double>(shape.order, shape.size, seed++, shape.layout, 0.3);
      const Result<std::complex<double>> gpu = check_gpu_equals_cpu(noisy.tensor, options, 1e-10);
      CHECK(gpu.sweeps() == 6);
      CHECK(gpu.verification->orthogonality_error <= 30.0 * shape.size * shape.order * 2.2e-16);
    }
  }

  TEST_CASE("complex tensors take the XOR subspace passes where real ones do: they equal the CPU's XOR groups") {
    struct Expected {
      Shape shape;
      SweepSchedule schedule;
      const char* schedule_ran;
    };
    const Expected cases[] = {{{3, 16}, SweepSchedule::automatic, "xor"},
                              {{3, 32, Layout::fortran_order}, SweepSchedule::automatic, "xor"},
                              {{3, 64}, SweepSchedule::automatic, "xor"},
                              {{4, 8}, SweepSchedule::xor_subspaces, "xor"},
                              {{5, 4, Layout::fortran_order}, SweepSchedule::xor_subspaces, "xor"},
                              {{3, 32}, SweepSchedule::round_robin, "round-robin"},
                              // complex128 at N = 128: a tile of cells of 8 is over 100 KB (opt-in shared memory)
                              {{3, 128}, SweepSchedule::automatic, "xor"}};
    std::uint64_t seed = 1250;
    for (const Expected& c : cases) {
      CAPTURE(c.shape.order);
      CAPTURE(c.shape.size);
      Options options = fixed_sweeps(5);
      options.schedule = c.schedule;
      const auto noisy = planted_complex<double>(c.shape.order, c.shape.size, seed++, c.shape.layout, 0.2);
      const Result<std::complex<double>> gpu = check_gpu_equals_cpu(noisy.tensor, options, 1e-10);
      CHECK(gpu.schedule == c.schedule_ran);
      const bool subspaces = std::find(gpu.kernels.begin(), gpu.kernels.end(), "subspace_apply") != gpu.kernels.end();
      CHECK(subspaces == (std::string(c.schedule_ran) == "xor"));
      CHECK(gpu.verification->orthogonality_error <= 30.0 * c.shape.size * c.shape.order * 2.2e-16);
      CHECK(gpu.verification->reconstruction_error <= 30.0 * c.shape.size * c.shape.order * 2.2e-16);
    }
    // complex64 on the passes: its own tolerance.
    const auto truth = planted_complex<float>(3, 32, 1260);
    Options options = on(Backend::cuda);
    const Result<std::complex<float>> gpu = check_gpu_equals_cpu(truth.tensor, options, 1e-4);
    CHECK(gpu.schedule == "xor");
    CHECK(gpu.converged());
    CHECK(gpu.history.back().off_rel <= 1e-5);
  }

  TEST_CASE("complex symmetric tensors, orders 2 and 3: the GPU's unitary step (symmetric_angles, subspace passes, one block) gives the CPU's run") {
    // Order 3 from N = 16: the XOR subspace passes (cells of 8, their angles symmetric_pair.cuh's
    // unitary step), against the CPU's XOR groups; small order-3 tensors take the one-block engine
    // (small_tensor's symmetric variant with the same step), matrices the general one.
    std::set<std::string> engines;
    const Shape shapes[] = {{2, 6}, {2, 9}, {2, 33, Layout::fortran_order}, {3, 4}, {3, 7, Layout::fortran_order},
                            {3, 16}, {3, 32, Layout::fortran_order}};
    std::uint64_t seed = 1500;
    for (const Shape& shape : shapes) {
      CAPTURE(shape.order);
      CAPTURE(shape.size);
      const GeneratedComplexTensor<double> truth =
          planted_complex<double>(shape.order, shape.size, seed++, shape.layout, 0.0, Structure::symmetric);
      Options options = on(Backend::cuda);
      options.structure = Structure::symmetric;
      const Result<std::complex<double>> gpu = check_gpu_equals_cpu(truth.tensor, options, 1e-10);
      engines.insert(gpu.engine);
      CHECK(gpu.schedule == (shape.order == 3 && shape.size >= 16 ? "xor" : "round-robin"));
      check_planted_symmetric_run(gpu, truth, shape);
    }
    CHECK(engines == std::set<std::string>{"cuda", "cuda_one_block"});
    // A batch of small ones runs in one launch: each as alone, bit for bit.
    std::vector<HostTensor<std::complex<double>>> batch;
    for (std::uint64_t b = 0; b < 3; ++b)
      batch.push_back(planted_complex<double>(3, 5, 1700 + b, Layout::c_order, 0.2, Structure::symmetric).tensor);
    Options batch_options = fixed_sweeps(5);
    batch_options.structure = Structure::symmetric;
    const std::vector<Result<std::complex<double>>> together = diagonalize_batch(batch, batch_options);
    for (std::size_t b = 0; b < batch.size(); ++b) {
      const Result<std::complex<double>> alone = diagonalize_complex(batch[b], batch_options);
      CHECK(together[b].engine == "cuda_one_block");
      CHECK(together[b].core.values() == alone.core.values());
      CHECK(together[b].factors[0].data == alone.factors[0].data);
    }
    // Noisy (not diagonalizable), 6 sweeps, the round robin and xor (order 3, N = 8: the subspace
    // passes; order 2: a matrix has none, the XOR groups one a pass).
    for (const auto& [order, schedule] : {std::pair{3, SweepSchedule::round_robin}, {3, SweepSchedule::xor_subspaces},
                                          {2, SweepSchedule::xor_subspaces}}) {
      const GeneratedComplexTensor<double> noisy =
          planted_complex<double>(order, 8, 1600, Layout::c_order, 0.3, Structure::symmetric);
      Options options = fixed_sweeps(6);
      options.structure = Structure::symmetric;
      options.schedule = schedule;
      check_gpu_equals_cpu(noisy.tensor, options, 1e-10);
    }
    // complex64 converges to its tolerance.
    const GeneratedComplexTensor<float> single = planted_complex<float>(3, 10, 1601, Layout::c_order, 0.0, Structure::symmetric);
    Options options = on(Backend::cuda);
    options.structure = Structure::symmetric;
    const Result<std::complex<float>> gpu = diagonalize_complex(single.tensor, options);
    CHECK(gpu.engine == "cuda_one_block");
    CHECK(gpu.converged());
    CHECK(gpu.history.back().off_rel <= 1e-5);
  }

  TEST_CASE("complex symmetric tensors from order 4: the GPU's pivot sums and the host's searched step give the CPU's run") {
    // The general engine: symmetric_pivot_sums on the device, symmetric_unitary_search's branch and
    // bound on the host's threads, the complex group passes; the one-block engine declines.
    const Shape shapes[] = {{4, 5}, {4, 6, Layout::fortran_order}, {5, 4}, {6, 3, Layout::fortran_order}};
    std::uint64_t seed = 1800;
    for (const Shape& shape : shapes) {
      CAPTURE(shape.order);
      CAPTURE(shape.size);
      const GeneratedComplexTensor<double> truth =
          planted_complex<double>(shape.order, shape.size, seed++, shape.layout, 0.0, Structure::symmetric);
      Options options = on(Backend::automatic);
      options.structure = Structure::symmetric;
      const Result<std::complex<double>> gpu = check_gpu_equals_cpu(truth.tensor, options, 1e-10);
      CHECK(gpu.engine == "cuda");
      CHECK(gpu.schedule == "round-robin");
      CHECK(gpu.notes.empty());
      check_planted_symmetric_run(gpu, truth, shape);
    }
    // Noisy (not diagonalizable), fixed sweeps: the round robin, the XOR groups one a pass (N = 8;
    // no subspace passes: the step is the host's), and N = 2 at order 14, whose 2^14 entries a pair
    // the sums take in two blocks.
    struct Noisy {
      Shape shape;
      SweepSchedule schedule;
      const char* ran;
    };
    for (const Noisy& c : {Noisy{{4, 8}, SweepSchedule::round_robin, "round-robin"},
                           Noisy{{4, 8, Layout::fortran_order}, SweepSchedule::xor_subspaces, "xor"},
                           Noisy{{5, 7}, SweepSchedule::automatic, "round-robin"},
                           Noisy{{14, 2}, SweepSchedule::automatic, "round-robin"}}) {
      CAPTURE(c.shape.order);
      CAPTURE(c.shape.size);
      const GeneratedComplexTensor<double> noisy =
          planted_complex<double>(c.shape.order, c.shape.size, seed++, c.shape.layout, 0.3, Structure::symmetric);
      Options options = fixed_sweeps(4);
      options.structure = Structure::symmetric;
      options.schedule = c.schedule;
      const Result<std::complex<double>> gpu = check_gpu_equals_cpu(noisy.tensor, options, 1e-10);
      CHECK(gpu.engine == "cuda");
      CHECK(gpu.schedule == c.ran);
      const bool subspaces = std::find(gpu.kernels.begin(), gpu.kernels.end(), "subspace_apply") != gpu.kernels.end();
      CHECK_FALSE(subspaces);
      CHECK(gpu.history.back().off_rel < 0.9 * gpu.history.front().off_rel);
    }
    // complex64 converges to its tolerance.
    const GeneratedComplexTensor<float> single = planted_complex<float>(4, 6, 1850, Layout::c_order, 0.0, Structure::symmetric);
    Options options = on(Backend::cuda);
    options.structure = Structure::symmetric;
    const Result<std::complex<float>> gpu = diagonalize_complex(single.tensor, options);
    CHECK(gpu.engine == "cuda");
    CHECK(gpu.converged());
    CHECK(gpu.history.back().off_rel <= 1e-5);
  }

  TEST_CASE("complex64 planted tensors: the GPU converges to float32's tolerance, unitary and exact to 30 N D eps") {
    constexpr double eps = std::numeric_limits<float>::epsilon();
    const Shape shapes[] = {{3, 8}, {4, 5}, {6, 4, Layout::fortran_order}};
    std::uint64_t seed = 1300;
    for (const Shape& shape : shapes) {
      CAPTURE(shape.order);
      CAPTURE(shape.size);
      const GeneratedComplexTensor<float> truth = planted_complex<float>(shape.order, shape.size, seed++, shape.layout);
      const Result<std::complex<float>> gpu = check_gpu_equals_cpu(truth.tensor, on(Backend::cuda), 1e-4);
      CHECK(gpu.converged());
      CHECK(gpu.history.back().off_rel <= 1e-5);
      const double bound = 30.0 * shape.size * shape.order * eps;
      CHECK(gpu.verification->reconstruction_error <= bound);
      CHECK(gpu.verification->orthogonality_error <= bound);
    }
  }

  TEST_CASE("a real tensor run as complex128 on the GPU follows the real GPU engine") {
    const HostTensor<double> real = random_tensor<double>(4, 6, 1400);
    HostTensor<std::complex<double>> lifted(4, 6, Layout::c_order);
    for (std::size_t i = 0; i < real.count(); ++i) lifted.data()[i] = real.data()[i];
    Options options = fixed_sweeps(8);
    const Result<double> as_real = diagonalize(real, options);
    const Result<std::complex<double>> as_complex = diagonalize_complex(lifted, options);
    REQUIRE(as_real.sweeps() == as_complex.sweeps());
    for (std::size_t k = 0; k < as_real.history.size(); ++k) {
      CAPTURE(k);
      CHECK(as_complex.history[k].off_rel == doctest::Approx(as_real.history[k].off_rel).epsilon(1e-10));
      CHECK(as_complex.history[k].diag_norm2 == doctest::Approx(as_real.history[k].diag_norm2).epsilon(1e-10));
    }
  }

  TEST_CASE("complex tensors with the pivot check: the GPU's skew-Hermitian Lambda and its norm give the CPU's rotations") {
    // Random (not planted) tensors, 6 sweeps: the check skips pivots all along. The GPU gathers
    // Lambda = G - G^H from the core rebuilt under the group's earlier modes as its real 2N x 2N
    // embedding, lambda_norm's bounds or Lanczos take its norm, and checked_angles rotates a pair iff 2 |Lambda_pq| >= eta ||Lambda||_2:
    // the CPU complex engine decides the same pairs, so core and factors agree to 1e-10.
    const Shape shapes[] = {{3, 6}, {3, 7}, {4, 5, Layout::fortran_order}, {3, 24}, {5, 4}};
    std::uint64_t seed = 1510;
    int changed_by_the_check = 0;
    long long bounded_checks = 0;
    for (const Shape& shape : shapes)
      for (const double eta : {1e-3, 0.6}) {
        CAPTURE(shape.order);
        CAPTURE(shape.size);
        CAPTURE(eta);
        const GeneratedComplexTensor<double> noisy = planted_complex<double>(shape.order, shape.size, seed++, shape.layout, 0.3);
        Options options = fixed_sweeps(6);
        options.eta = eta;
        const Result<std::complex<double>> gpu = check_gpu_equals_cpu(noisy.tensor, options, 1e-10);
        CHECK(gpu.engine == "cuda");
        REQUIRE(gpu.pivot_checks);
        CHECK(gpu.pivot_checks->checks == 6LL * (shape.size % 2 ? shape.size : shape.size - 1) * shape.order);
        // The bounds decide some checks, the device Lanczos on the real 2N x 2N embedding the rest.
        CHECK(gpu.pivot_checks->exact_norms <= gpu.pivot_checks->checks);
        bounded_checks += gpu.pivot_checks->checks - gpu.pivot_checks->exact_norms;
        REQUIRE(gpu.verification);
        CHECK(gpu.verification->orthogonality_error <=
              30.0 * shape.size * shape.order * std::numeric_limits<double>::epsilon());
        options.eta = 0.0;
        const Result<std::complex<double>> unchecked = diagonalize_complex(noisy.tensor, options);
        if (relative_difference(gpu.core.values(), unchecked.core.values()) > 1e-6) ++changed_by_the_check;
      }
    // The check decided something: at eta = 0.6 at least it skipped pivots the unchecked run took.
    CHECK(changed_by_the_check >= 5);
    CHECK(bounded_checks > 0);

    // cuSOLVER's dgesvd on the same embedding: the same decisions.
    {
      const GeneratedComplexTensor<double> noisy = planted_complex<double>(3, 9, 1525, Layout::c_order, 0.3);
      Options options = fixed_sweeps(5);
      options.eta = 0.6;
      options.pivot_norm = PivotNorm::cusolver;
      const Result<std::complex<double>> gpu = check_gpu_equals_cpu(noisy.tensor, options, 1e-10);
      REQUIRE(gpu.pivot_checks);
      CHECK(gpu.pivot_checks->checks == 5LL * 9 * 3);
    }

    // complex64: the same decisions within float32's rounding.
    const GeneratedComplexTensor<float> single = planted_complex<float>(3, 8, 1530, Layout::c_order, 0.3);
    Options options = fixed_sweeps(4);
    options.eta = 0.6;
    check_gpu_equals_cpu(single.tensor, options, 1e-4);

    // D = 12, N = 3: a pair's 2^12 complex128 entries (64 KB) are over a warp's shared memory; the
    // checked path rotates by the gather's pivot entries at every order.
    const GeneratedComplexTensor<double> deep = planted_complex<double>(12, 3, 1535, Layout::c_order, 0.3);
    options = fixed_sweeps(3);
    options.eta = 1.2;
    const Result<std::complex<double>> gpu = check_gpu_equals_cpu(deep.tensor, options, 1e-10);
    CHECK(gpu.engine == "cuda");
    REQUIRE(gpu.pivot_checks);
    CHECK(gpu.pivot_checks->checks == 3LL * 3 * 12);
    options.eta = 0.0;
    CHECK(relative_difference(gpu.core.values(), diagonalize_complex(deep.tensor, options).core.values()) > 1e-6);
  }
}
