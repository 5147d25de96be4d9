// Structure symmetric on the general GPU engine (symmetric_angles, then the group pass with the same
// rotation in every mode; DESIGN.md section 7) against the CPU symmetric engine and against the
// mathematics: the same core and Q (float64 to 1e-10 relative, same sweeps), C symmetric to 1e-14,
// Q orthogonal and the same in every factor slot, planted diagonals recovered to 1e-12; float32 to
// its own tolerance; D = 2 (the Jacobi eigenvalue method) against Eigen's spectrum; device arrays
// declined with their reason.
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "planted_symmetric.hpp"
#include "random_tensor.hpp"
#include "relative_difference.hpp"
#include "scoped_environment.hpp"
#include "structured_runs.hpp"
#include "runtime/algorithm/symmetry_check.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/diagonalize.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using namespace tensordiag::testing;

namespace {

Options symmetric_on(Backend backend) { return structured_on(Structure::symmetric, backend); }

Options fixed_sweeps(int sweeps) { return testing::fixed_sweeps(Structure::symmetric, sweeps); }

// The tensor in another layout, entry for entry (a symmetric tensor is its own transpose, so this
// only moves memory).
template <class T>
HostTensor<T> in_layout(const HostTensor<T>& tensor, Layout layout) {
  if (layout == tensor.layout()) return tensor;
  HostTensor<T> out(tensor.order(), tensor.size(), layout);
  for (std::size_t i = 0; i < tensor.count(); ++i) out.data()[i] = tensor.data()[i];
  return out;
}

// The GPU run of `options` (backend cuda) against the CPU run of the same options with the
// schedule the GPU ran (the XOR subspace passes are the CPU's XOR groups in the same order): the
// same sweeps, core and Q to `bound` relative, off_rel to 10 bound; the GPU's D factors equal bit
// for bit, its core symmetric to 1e-14 (float64) relative to its largest entry, ||diag C||^2 never
// down from a sweep to the next. Returns the GPU result (its engine: the one-block path or the
// general one; the test below says which shape takes which).
template <class T>
Result<T> check_gpu_equals_cpu(const HostTensor<T>& tensor, Options options, double bound) {
  options.backend = Backend::cuda;
  const Result<T> gpu = diagonalize(tensor, options);
  REQUIRE(gpu.backend == Backend::cuda);
  CHECK((gpu.engine == "cuda" || gpu.engine == "cuda_one_block"));
  CHECK(gpu.structure == Structure::symmetric);
  options.backend = Backend::cpu;
  if (gpu.schedule == "xor") options.schedule = SweepSchedule::xor_subspaces;
  const Result<T> cpu = diagonalize(tensor, options);
  CHECK(gpu.schedule == cpu.schedule);
  REQUIRE(gpu.sweeps() == cpu.sweeps());
  CHECK(relative_difference(gpu.core.values(), cpu.core.values()) <= bound);
  REQUIRE(gpu.factors.size() == static_cast<std::size_t>(tensor.order()));
  CHECK(relative_difference(gpu.factors.front().data, cpu.factors.front().data) <= bound);
  for (const auto& factor : gpu.factors) CHECK(factor.data == gpu.factors.front().data);
  for (std::size_t k = 0; k < cpu.history.size(); ++k)
    CHECK(std::abs(gpu.history[k].off_rel - cpu.history[k].off_rel) <= 10 * bound);
  for (std::size_t k = 1; k < gpu.history.size(); ++k)
    CHECK(gpu.history[k].diag_norm2 >= gpu.history[k - 1].diag_norm2 * (1 - 10 * bound));
  const double symmetric_bound = sizeof(T) == 8 ? 1e-14 : 1e-5;
  CHECK(symmetry_deviation(gpu.core).largest <= symmetric_bound * max_abs(gpu.core));
  return gpu;
}

// The entries of `core` that differ, bit for bit, from the entry with the same innermost memory
// index and its other memory indices sorted.
template <class T>
long long entries_apart_from_sorted_outer_indices(const HostTensor<T>& core) {
  const long long n = core.size();
  std::vector<long long> digits(static_cast<std::size_t>(core.order()));
  long long apart = 0;
  for (std::size_t e = 0; e < core.count(); ++e) {
    long long rest = static_cast<long long>(e);
    for (auto k = digits.rbegin(); k != digits.rend(); ++k, rest /= n) *k = rest % n;  // memory order, slowest first
    std::sort(digits.begin(), digits.end() - 1);
    long long sorted = 0;
    for (const long long digit : digits) sorted = sorted * n + digit;
    if (core.data()[e] != core.data()[sorted]) ++apart;
  }
  return apart;
}

// max |Q^T Q - I|, in double (Eigen's product: the naive loop took minutes at N = 2500).
template <class T>
double orthogonality_error(const Matrix<T>& q) {
  Eigen::MatrixXd m(q.n, q.n);
  for (int r = 0; r < q.n; ++r)
    for (int i = 0; i < q.n; ++i) m(r, i) = static_cast<double>(q(r, i));
  const Eigen::MatrixXd gram = m.transpose() * m;
  return (gram - Eigen::MatrixXd::Identity(q.n, q.n)).cwiseAbs().maxCoeff();
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("symmetric planted tensors, D = 3..6, float64: the GPU equals the CPU symmetric engine and recovers S and Q") {
    constexpr double eps = std::numeric_limits<double>::epsilon();
    const Shape shapes[] = {{3, 8},  {3, 7}, {3, 16}, {3, 33}, {3, 64}, {4, 6},
                            {4, 5, Layout::fortran_order}, {5, 4},  {5, 5}, {6, 3}, {6, 4, Layout::fortran_order}};
    unsigned seed = 700;
    for (const Shape& shape : shapes) {
      CAPTURE(shape.order);
      CAPTURE(shape.size);
      const auto truth = planted<double>(shape.order, shape.size, seed++);
      Options options = symmetric_on(Backend::cuda);
      options.verify = true;
      const HostTensor<double> tensor = in_layout(truth.tensor, shape.layout);
      const Result<double> gpu = check_gpu_equals_cpu(tensor, options, 1e-10);
      CHECK(gpu.converged());
      CHECK(gpu.history.back().off_rel <= 1e-12);
      check_recovered(truth, gpu, 1e-12);
      CHECK(orthogonality_error(gpu.factors.front()) <= 50.0 * shape.size * eps);
      REQUIRE(gpu.verification);
      CHECK(gpu.verification->reconstruction_error <= 30.0 * shape.size * shape.order * eps);
    }
  }

  TEST_CASE("symmetric takes the one-block engine for small tensors and the XOR subspace passes at D = 3, N >= 16 "
            "and D = 4, 5, N >= 8") {
    struct Expected {
      Shape shape;
      SweepSchedule schedule;
      const char* engine;
      const char* schedule_ran;
      const char* angles;  // the kernel that finds the angles
    };
    const Expected cases[] = {
        {{3, 8}, SweepSchedule::automatic, "cuda_one_block", "round-robin", "small_tensor"},
        {{5, 4}, SweepSchedule::automatic, "cuda_one_block", "round-robin", "small_tensor"},
        {{3, 16}, SweepSchedule::automatic, "cuda", "xor", "subspace_angles"},
        {{3, 64}, SweepSchedule::automatic, "cuda", "xor", "subspace_angles"},
        {{3, 33}, SweepSchedule::automatic, "cuda", "round-robin", "symmetric_angles"},
        {{4, 6}, SweepSchedule::automatic, "cuda", "round-robin", "symmetric_angles"},
        {{4, 8}, SweepSchedule::automatic, "cuda", "xor", "subspace_angles"},
        {{5, 8}, SweepSchedule::automatic, "cuda", "xor", "subspace_angles"},
        {{6, 8}, SweepSchedule::automatic, "cuda", "round-robin", "symmetric_angles"},
        {{6, 8}, SweepSchedule::xor_subspaces, "cuda", "xor", "subspace_angles"},
        {{3, 32}, SweepSchedule::round_robin, "cuda", "round-robin", "symmetric_angles"}};
    unsigned seed = 760;
    for (const Expected& c : cases) {
      CAPTURE(c.shape.order);
      CAPTURE(c.shape.size);
      Options options = fixed_sweeps(4);
      options.schedule = c.schedule;
      const Result<double> gpu =
          check_gpu_equals_cpu(planted<double>(c.shape.order, c.shape.size, seed++, 0.3).tensor, options, 1e-10);
      CHECK(gpu.engine == c.engine);
      CHECK(gpu.schedule == c.schedule_ran);
      CHECK(std::find(gpu.kernels.begin(), gpu.kernels.end(), c.angles) != gpu.kernels.end());
    }
  }

  // subspace_apply under structure symmetric, mirrored, rotates only the tiles of non-decreasing outer
  // cosets and writes each to every arrangement of its cosets, with rows of repeated cosets taken
  // from one source row: every entry then equals, bit for bit, the entry with its outer memory
  // indices sorted. Rotating every tile (TENSORDIAG_SUBSPACE_MIRRORED=0, the general apply)
  // leaves them apart by rounding: the control below. Small shapes are mirrored when asked
  // (TENSORDIAG_SUBSPACE_MIRRORED=1), 2^24 entries by default.
  TEST_CASE_TEMPLATE("symmetric XOR passes: the core is symmetric in every memory mode but the innermost, bit for bit",
                     T, float, double) {
    test::ScopedEnvironment environment;
    const auto run = [](const HostTensor<T>& tensor, bool compare_with_cpu) {
      Options options = fixed_sweeps(2);
      options.schedule = SweepSchedule::xor_subspaces;
      // float64 against the CPU's XOR groups too (float32's CPU comparison: the float32 case below).
      const Result<T> gpu = compare_with_cpu ? check_gpu_equals_cpu(tensor, options, 1e-10) : diagonalize(tensor, options);
      REQUIRE(gpu.schedule == "xor");
      REQUIRE(std::find(gpu.kernels.begin(), gpu.kernels.end(), "subspace_apply") != gpu.kernels.end());
      // The passes moved the core: the check is on rotated entries, not on the input's symmetry.
      CHECK(relative_difference(gpu.core.values(), tensor.values()) > 1e-3);
      return entries_apart_from_sorted_outer_indices(gpu.core);
    };
    const Shape shapes[] = {{3, 16}, {3, 32, Layout::fortran_order}, {4, 8}, {4, 16, Layout::fortran_order}, {5, 8}};
    unsigned seed = 1300;
    for (const Shape& shape : shapes) {
      CAPTURE(shape.order);
      CAPTURE(shape.size);
      const HostTensor<T> tensor = in_layout(planted<T>(shape.order, shape.size, seed++, 0.5).tensor, shape.layout);
      environment.set("TENSORDIAG_SUBSPACE_MIRRORED", "1");
      CHECK(run(tensor, sizeof(T) == 8) == 0);
      environment.set("TENSORDIAG_SUBSPACE_MIRRORED", "0");
      CHECK(run(tensor, false) > 0);
    }
    // 2^24 entries: mirrored by default.
    environment.set("TENSORDIAG_SUBSPACE_MIRRORED", std::nullopt);
    CHECK(run(planted<T>(4, 64, seed, 0.5).tensor, false) == 0);
  }

  TEST_CASE("symmetric batches on the one-block engine equal the CPU tensor by tensor (float64, 1e-10)") {
    std::vector<HostTensor<double>> tensors;
    for (unsigned seed = 0; seed < 5; ++seed) tensors.push_back(planted<double>(4, 4, 780 + seed, 0.2).tensor);
    Options options = symmetric_on(Backend::cuda);
    const std::vector<Result<double>> gpu = diagonalize_batch(tensors, options);
    options.backend = Backend::cpu;
    REQUIRE(gpu.size() == tensors.size());
    for (std::size_t b = 0; b < tensors.size(); ++b) {
      CAPTURE(b);
      const Result<double> cpu = diagonalize(tensors[b], options);
      CHECK(gpu[b].engine == "cuda_one_block");
      REQUIRE(gpu[b].sweeps() == cpu.sweeps());
      CHECK(relative_difference(gpu[b].core.values(), cpu.core.values()) <= 1e-10);
      CHECK(relative_difference(gpu[b].factors.front().data, cpu.factors.front().data) <= 1e-10);
      for (const auto& factor : gpu[b].factors) CHECK(factor.data == gpu[b].factors.front().data);
      CHECK(symmetry_deviation(gpu[b].core).largest <= 1e-14 * max_abs(gpu[b].core));
    }
  }

  TEST_CASE("symmetric tensors far from diagonalizable (noise as large as S): 3 sweeps equal the CPU's (float64, 1e-10)") {
    const Shape shapes[] = {{3, 9}, {3, 20}, {4, 5}, {5, 4, Layout::fortran_order}, {6, 3}};
    unsigned seed = 800;
    for (const Shape& shape : shapes) {
      CAPTURE(shape.order);
      CAPTURE(shape.size);
      check_gpu_equals_cpu(in_layout(planted<double>(shape.order, shape.size, seed++, 1.0).tensor, shape.layout),
                           fixed_sweeps(3), 1e-10);
    }
  }

  TEST_CASE("symmetric, small N with large D (the chunked pass from D = 16 at N = 2): the GPU equals the CPU (float64, 1e-10)") {
    const Shape shapes[] = {{9, 3}, {12, 2}, {16, 2}, {17, 2, Layout::fortran_order}};
    unsigned seed = 850;
    for (const Shape& shape : shapes) {
      CAPTURE(shape.order);
      CAPTURE(shape.size);
      const auto truth = planted<double>(shape.order, shape.size, seed++);
      const Result<double> gpu =
          check_gpu_equals_cpu(in_layout(truth.tensor, shape.layout), symmetric_on(Backend::cuda), 1e-10);
      CHECK(gpu.converged());
      check_recovered(truth, gpu, 1e-12);
    }
    // The path each took (report.json's "kernels"): the symmetric angles, then either pass.
    Options one_sweep = symmetric_on(Backend::cuda);
    one_sweep.max_sweeps = 1;
    CHECK(diagonalize(planted<double>(16, 2, 5).tensor, one_sweep).kernels ==
          std::vector<std::string>{"symmetric_angles", "chunk_pass", "off_norm"});
    CHECK(diagonalize(planted<double>(5, 5, 5).tensor, one_sweep).kernels ==
          std::vector<std::string>{"symmetric_angles", "group_pass", "off_norm"});
  }

  TEST_CASE("symmetric planted tensors, float32: the GPU equals the CPU to 1e-4 and converges to the float32 tolerance") {
    const Shape shapes[] = {{3, 6}, {3, 32}, {4, 4}, {5, 3}, {6, 4}};
    unsigned seed = 900;
    for (const Shape& shape : shapes) {
      CAPTURE(shape.order);
      CAPTURE(shape.size);
      const auto truth = planted<float>(shape.order, shape.size, seed++);
      check_gpu_equals_cpu(truth.tensor, fixed_sweeps(6), 1e-4);
      const Result<float> gpu = diagonalize(truth.tensor, symmetric_on(Backend::cuda));
      CHECK(gpu.converged());
      CHECK(gpu.history.back().off_rel <= 1e-5);
      CHECK(orthogonality_error(gpu.factors.front()) <= 1e-5);
    }
  }

  TEST_CASE("symmetric with the HOSVD start on the device: one basis for every mode, C symmetric, S and Q recovered") {
    // Shapes over the one-block engine's 1024 entries (it starts from the host's HOSVD), and the
    // device's start asked for (these are small enough for the host's: host_hosvd_start_pays).
    test::ScopedEnvironment environment;
    environment.set("TENSORDIAG_HOST_HOSVD_BYTES", "0");
    for (const Shape& shape : {Shape{3, 12}, Shape{4, 6}, Shape{5, 5}}) {
      CAPTURE(shape.order);
      const auto truth = planted<double>(shape.order, shape.size, 950u + static_cast<unsigned>(shape.order), 1e-3);
      Options options = symmetric_on(Backend::cuda);
      options.init = Init::hosvd;
      const Result<double> gpu = diagonalize(truth.tensor, options);
      REQUIRE(gpu.backend == Backend::cuda);
      CHECK(gpu.hosvd_start);
      CHECK(gpu.hosvd_on_device);
      for (const auto& factor : gpu.factors) CHECK(factor.data == gpu.factors.front().data);
      CHECK(symmetry_deviation(gpu.core).largest <= 1e-14 * max_abs(gpu.core));
      CHECK(orthogonality_error(gpu.factors.front()) <= 1e-13);
      // The host start (CPU engine) reaches the same fixed point of the noisy tensor.
      options.backend = Backend::cpu;
      const Result<double> cpu = diagonalize(truth.tensor, options);
      std::vector<double> gpu_diagonal = diagonal_of(gpu.core), cpu_diagonal = diagonal_of(cpu.core);
      std::sort(gpu_diagonal.begin(), gpu_diagonal.end());
      std::sort(cpu_diagonal.begin(), cpu_diagonal.end());
      CHECK(relative_difference(gpu_diagonal, cpu_diagonal) <= 1e-10);
    }
  }

  TEST_CASE("symmetric D = 2 on the GPU is the Jacobi eigenvalue method: eigenvalues to 1e-10 of the largest, Q orthogonal") {
    // Sizes for group_pass (odd and even; its shared rows and index tables fit 48 KB up to N = 2210
    // in float64) and chunk_pass (N = 2500). 1100 ends with a sweep that gains less than stall_tol
    // while off_rel falls from ~3e-7 to ~2e-12: progress, not a stall (stop_criteria.hpp).
    for (const int size : {12, 33, 64, 200, 1100, 2500}) {
      CAPTURE(size);
      const auto g = random_tensor<double>(2, size, 61 + static_cast<unsigned>(size));
      HostTensor<double> a(2, size);
      Eigen::MatrixXd m(size, size);
      for (int i = 0; i < size; ++i)
        for (int j = 0; j < size; ++j) m(i, j) = a.at({i, j}) = (g.at({i, j}) + g.at({j, i})) / 2;
      Options options = symmetric_on(Backend::cuda);
      options.verify = true;
      const Result<double> gpu = diagonalize(a, options);
      CHECK(gpu.backend == Backend::cuda);
      CHECK(gpu.engine == "cuda");
      const std::string pass = size > 2210 ? "chunk_pass" : "group_pass";
      CHECK(std::find(gpu.kernels.begin(), gpu.kernels.end(), pass) != gpu.kernels.end());
      CHECK(gpu.converged());
      CHECK(gpu.history.back().off_rel <= 1e-12);
      std::vector<double> found = diagonal_of(gpu.core);
      std::sort(found.begin(), found.end());
      const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(m, Eigen::EigenvaluesOnly);
      const double scale = eigen.eigenvalues().cwiseAbs().maxCoeff();
      for (int i = 0; i < size; ++i)
        CHECK(std::abs(found[static_cast<std::size_t>(i)] - eigen.eigenvalues()(i)) <= 1e-10 * scale);
      CHECK(orthogonality_error(gpu.factors.front()) <= 50.0 * size * std::numeric_limits<double>::epsilon());
      CHECK(gpu.factors.back().data == gpu.factors.front().data);
      REQUIRE(gpu.verification);
      CHECK(gpu.verification->reconstruction_error <= 50.0 * size * std::numeric_limits<double>::epsilon());
      if (size <= 200) {  // the CPU's Jacobi reaches the same spectrum
        const Result<double> cpu = diagonalize(a, symmetric_on(Backend::cpu));
        std::vector<double> cpu_found = diagonal_of(cpu.core);
        std::sort(cpu_found.begin(), cpu_found.end());
        CHECK(relative_difference(found, cpu_found) <= 1e-12);
      }
    }
    // float32: the eigenvalues to float32's tolerance.
    const auto g = random_tensor<float>(2, 48, 77);
    HostTensor<float> a(2, 48);
    Eigen::MatrixXd m(48, 48);
    for (int i = 0; i < 48; ++i)
      for (int j = 0; j < 48; ++j) m(i, j) = a.at({i, j}) = (g.at({i, j}) + g.at({j, i})) / 2;
    const Result<float> gpu = diagonalize(a, symmetric_on(Backend::cuda));
    std::vector<double> found = diagonal_of(gpu.core);
    std::sort(found.begin(), found.end());
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(m, Eigen::EigenvaluesOnly);
    const double scale = eigen.eigenvalues().cwiseAbs().maxCoeff();
    for (int i = 0; i < 48; ++i) CHECK(std::abs(found[static_cast<std::size_t>(i)] - eigen.eigenvalues()(i)) <= 1e-5 * scale);
  }

  TEST_CASE("symmetric takes host arrays only: a device array is refused in one line") {
    const auto truth = planted<double>(3, 4, 990);
    DeviceBuffer<double> input(truth.tensor.count());
    input.upload(truth.tensor.data(), truth.tensor.count());
    const TensorView<double> view(input.data(), 3, 4, Layout::c_order, Memory::cuda);
    CHECK_THROWS_WITH_AS(diagonalize_on_device(view, symmetric_on(Backend::cuda)),
                         doctest::Contains("structure symmetric takes tensors in host memory"), user_error);
  }
}
