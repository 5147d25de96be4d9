// The GPU engine against the CPU engine and against the mathematics: the same input and schedule
// give the same core and factors (float64 to 1e-10, float32 to 1e-4, relative), diagonalizable
// tensors are diagonalized, and the pivot check decides as on the CPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "random_tensor.hpp"
#include "relative_difference.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/algorithm/verification.hpp"

using namespace tensordiag::runtime;
using tensordiag::testing::random_tensor;
using tensordiag::testing::relative_difference;

namespace {

// Returns the GPU's result.
template <class T>
Result<T> check_gpu_equals_cpu(const HostTensor<T>& tensor, Options options, double bound) {
  options.tol = 1e-300;  // a fixed number of sweeps on both
  options.stall_tol = 0;
  // The same schedule on both: auto takes the XOR passes on the GPU and the round robin on the CPU
  // (test_gpu_xor_schedule.cpp compares the XOR passes).
  if (options.schedule == SweepSchedule::automatic) options.schedule = SweepSchedule::round_robin;
  options.backend = Backend::cpu;
  const auto cpu = diagonalize(tensor, options);
  options.backend = Backend::cuda;
  const auto gpu = diagonalize(tensor, options);
  REQUIRE(gpu.backend == Backend::cuda);
  REQUIRE(gpu.sweeps() == cpu.sweeps());
  CHECK(relative_difference(gpu.core.values(), cpu.core.values()) <= bound);
  for (std::size_t n = 0; n < cpu.factors.size(); ++n)
    CHECK(relative_difference(gpu.factors[n].data, cpu.factors[n].data) <= bound);
  // off_rel is relative to off(T) already: compared absolutely (at the float32 floor, near 1e-7,
  // its own relative digits are rounding noise).
  for (std::size_t k = 0; k < cpu.history.size(); ++k)
    CHECK(std::abs(gpu.history[k].off_rel - cpu.history[k].off_rel) <= 10 * bound);
  return gpu;
}

struct Shape {
  int order, size;
  Layout layout;
};

// Random float64 tensors of these shapes (seeds seed, seed + 1, ...), 3 sweeps each, against the
// CPU to 1e-10.
void check_random_shapes(std::initializer_list<Shape> shapes, unsigned seed) {
  for (const Shape& shape : shapes) {
    CAPTURE(shape.order);
    CAPTURE(shape.size);
    Options options;
    options.max_sweeps = 3;
    check_gpu_equals_cpu(random_tensor<double>(shape.order, shape.size, seed++, shape.layout), options, 1e-10);
  }
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("the GPU engine equals the CPU engine on the same input (float64, 1e-10)") {
    check_random_shapes({{3, 8, Layout::c_order}, {3, 7, Layout::c_order}, {4, 6, Layout::fortran_order},
                         {5, 4, Layout::c_order}, {3, 33, Layout::c_order}, {7, 3, Layout::fortran_order}},
                        40);
  }

  TEST_CASE("pivot subtensors over the shared memory take the split angles and equal the CPU (float64, 1e-10)") {
    // N = 2 from D = 13 (float64) on, up to D = 15, where the group pass's tile still fits its
    // registers; N = 3, N = 4 over 2^12 float64 entries; both layouts; and N = 4, D = 10 (a pivot
    // subtensor that fits: the shared-memory path) as issue 12 lists it.
    check_random_shapes({{13, 2, Layout::c_order}, {14, 2, Layout::c_order}, {15, 2, Layout::fortran_order},
                         {14, 3, Layout::c_order}, {13, 4, Layout::fortran_order}, {10, 4, Layout::c_order}},
                        90);
  }

  TEST_CASE("the chunked pass (small N, large D) equals the CPU (float64, 1e-10), with the split angles") {
    // group_pass's tile of N x 2^(D-1) entries over its registers: N = 2 from D = 16 (float64),
    // N = 3 from D = 15; chunks of 5 memory modes. And N = 3 from D = 12, where group_pass's slots
    // would mostly be empty (gpu_kernels.cpp).
    check_random_shapes({{16, 2, Layout::c_order}, {20, 2, Layout::fortran_order}, {15, 3, Layout::c_order},
                         {12, 3, Layout::fortran_order}},
                        60);
    // The path each shape took is in the result (report.json's "kernels").
    Options options;
    options.backend = Backend::cuda;
    options.max_sweeps = 1;
    CHECK(diagonalize(random_tensor<double>(20, 2, 5), options).kernels ==
          std::vector<std::string>{"pivot_angles_split", "chunk_pass", "off_norm"});
    CHECK(diagonalize(random_tensor<double>(14, 2, 5), options).kernels ==
          std::vector<std::string>{"pivot_angles_split", "group_pass", "off_norm"});
    CHECK(diagonalize(random_tensor<double>(12, 3, 5), options).kernels ==
          std::vector<std::string>{"pivot_angles", "chunk_pass", "off_norm"});
    CHECK(diagonalize(random_tensor<double>(11, 3, 5), options).kernels ==
          std::vector<std::string>{"pivot_angles", "group_pass", "off_norm"});
    CHECK(diagonalize(random_tensor<double>(5, 5, 5), options).kernels ==
          std::vector<std::string>{"pivot_angles", "group_pass", "off_norm"});
  }

  TEST_CASE("the split angles in float32 equal the CPU (1e-4), and diagonalize a planted N = 2 tensor") {
    GeneratorOptions g;
    g.order = 16;
    g.size = 2;
    g.seed = 77;
    const auto planted = generate_diagonalizable<float>(g);
    Options options;
    options.max_sweeps = 3;
    check_gpu_equals_cpu(planted.tensor, options, 1e-4);
    options.backend = Backend::cuda;
    options.max_sweeps = 30;
    const auto result = diagonalize(planted.tensor, options);
    CHECK(result.engine == "cuda");
    CHECK(result.stop_reason == StopReason::tolerance);
  }

  TEST_CASE("the GPU engine equals the CPU engine on the same input (float32, 1e-4)") {
    for (auto [order, size] : {std::pair{3, 16}, {4, 8}, {6, 4}}) {
      CAPTURE(order);
      CAPTURE(size);
      GeneratorOptions g;
      g.order = order;
      g.size = size;
      g.seed = 70u + static_cast<unsigned>(size);
      Options options;
      options.max_sweeps = 3;
      check_gpu_equals_cpu(generate_diagonalizable<float>(g).tensor, options, 1e-4);
    }
  }

  TEST_CASE("the pivot check path equals the CPU's (eta > 0), for both rules") {
    // D = 8, N = 4: the gather's teams span warps from mode 4 (64 lanes) to a whole block at modes 6, 7.
    for (auto [order, size, eta, rule] : {std::tuple{3, 8, 0.2, "max_diag"}, {4, 5, 0.3, "max_diag"},
                                          {3, 7, 0.25, "max_trace"}, {3, 16, 0.00125, "max_diag"},
                                          {8, 4, 0.2, "max_diag"}}) {
      CAPTURE(order);
      CAPTURE(size);
      CAPTURE(eta);
      Options options;
      options.max_sweeps = 3;
      options.eta = eta;
      options.rule = rule;
      check_gpu_equals_cpu(random_tensor<double>(order, size, 90u + static_cast<unsigned>(size)), options, 1e-10);
    }
  }

  TEST_CASE("the pivot check runs on the GPU at orders whose pivot subtensor is over a warp's shared memory") {
    // 2^14 float64 entries are 128 KB: pivot_angles cannot hold them, and the checked path never
    // does (checked_angles rotates by the gather's pivot entries). eta = 1.2 at N = 3 rejects every
    // pair whose |Lambda_pq| is under 0.6 of the norm of Lambda's three entries.
    const auto tensor = random_tensor<double>(14, 3, 1414);
    Options options;
    options.max_sweeps = 3;
    options.eta = 1.2;
    const auto gpu = check_gpu_equals_cpu(tensor, options, 1e-10);
    const auto loaded = [&gpu](const char* kind) {
      return std::find(gpu.kernels.begin(), gpu.kernels.end(), kind) != gpu.kernels.end();
    };
    CHECK(gpu.engine == "cuda");
    CHECK(loaded("pivot_check_gather"));
    CHECK_FALSE(loaded("pivot_angles"));
    REQUIRE(gpu.pivot_checks.has_value());
    CHECK(gpu.pivot_checks->checks == 3LL * 3 * 14);
    // The check decided something: without it the same sweeps end elsewhere.
    options.eta = 0.0;
    options.tol = 1e-300;
    options.stall_tol = 0;
    options.schedule = SweepSchedule::round_robin;
    CHECK(relative_difference(gpu.core.values(), diagonalize(tensor, options).core.values()) > 1e-6);
  }

  TEST_CASE("max_trace equals the CPU's") {
    Options options;
    options.max_sweeps = 4;
    options.rule = "max_trace";
    check_gpu_equals_cpu(random_tensor<double>(4, 6, 123), options, 1e-10);
  }

  TEST_CASE_TEMPLATE("diagonalizable tensors are diagonalized and their diagonal recovered", T, float, double) {
    constexpr double eps = std::numeric_limits<T>::epsilon();
    for (auto [order, size] : {std::pair{3, 16}, {4, 8}, {5, 7}, {7, 3}, {3, 64}}) {
      CAPTURE(order);
      CAPTURE(size);
      GeneratorOptions g;
      g.order = order;
      g.size = size;
      g.seed = 500u + static_cast<unsigned>(order * size);
      const auto generated = generate_diagonalizable<T>(g);
      Options options;
      options.backend = Backend::cuda;
      options.max_sweeps = 12;
      const auto result = diagonalize(generated.tensor, options);
      CHECK(result.converged());
      std::vector<double> truth, found;
      for (int i = 0; i < size; ++i) {
        truth.push_back(std::abs(generated.diagonal[static_cast<std::size_t>(i)]));
        found.push_back(std::abs(static_cast<double>(result.core.values()[static_cast<std::size_t>(i * result.core.diagonal_stride())])));
      }
      std::sort(truth.begin(), truth.end());
      std::sort(found.begin(), found.end());
      const double scale = std::sqrt(diag_norm2(generated.tensor) + off_norm2(generated.tensor));
      for (int i = 0; i < size; ++i) CHECK(std::abs(found[static_cast<std::size_t>(i)] - truth[static_cast<std::size_t>(i)]) <= 100 * size * eps * scale);
      CHECK(reconstruction_error(generated.tensor, result.core, result.factors) <= 50 * size * eps);
      CHECK(orthogonality_error(result.factors) <= 50 * size * eps);
      // Every sweep raises ||diag C||^2.
      for (std::size_t k = 1; k < result.history.size(); ++k)
        CHECK(result.history[k].diag_norm2 >= result.history[k - 1].diag_norm2 * (1 - 64 * eps));
    }
  }

  TEST_CASE("the callback stops the run, and the device is named") {
    Options options;
    options.backend = Backend::cuda;
    int calls = 0;
    options.on_sweep = [&](const SweepRecord& r) { return ++calls, r.sweep == 2; };
    const auto result = diagonalize(random_tensor<double>(3, 10, 5), options);
    CHECK(result.stop_reason == StopReason::callback);
    CHECK(result.sweeps() == 2);
    CHECK(calls == 2);
    CHECK(result.device.find("NVIDIA") != std::string::npos);
    CHECK(result.timings.compile_seconds > 0);
    for (std::size_t k = 1; k < result.history.size(); ++k) CHECK(result.history[k].seconds > 0);
  }

  TEST_CASE("a verified GPU run checks itself on the device, as the host checks the same result") {
    for (const Layout layout : {Layout::c_order, Layout::fortran_order}) {
      const auto tensor = random_tensor<double>(4, 9, 31, layout);
      Options options;
      options.backend = Backend::cuda;
      options.max_sweeps = 4;
      options.verify = true;
      const auto result = diagonalize(tensor, options);
      CHECK(result.engine == "cuda");
      REQUIRE(result.verification.has_value());
      const Verification host = verify(tensor, result);
      CHECK(result.verification->reconstruction_error < 1e-13);
      CHECK(std::abs(result.verification->reconstruction_error - host.reconstruction_error) <= 1e-13);
      CHECK(result.verification->orthogonality_error == host.orthogonality_error);
      CHECK(result.verification->seconds > 0);
      options.verify = false;
      CHECK_FALSE(diagonalize(tensor, options).verification.has_value());
    }
  }

  TEST_CASE("auto runs what the GPU engines decline on the CPU, with a note that says why, and equals the CPU run") {
    // A skew matrix (structure skew, order 2) takes Paardekooper's steps, which only the CPU runs.
    auto tensor = random_tensor<double>(2, 6, 21);
    const std::vector<double> random = tensor.values();
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) tensor.data()[i * 6 + j] = random[i * 6 + j] - random[j * 6 + i];
    Options options;
    options.max_sweeps = 3;
    options.structure = Structure::skew;
    const auto automatic = diagonalize(tensor, options);
    CHECK(automatic.backend == Backend::cpu);
    CHECK(automatic.kernels.empty());
    REQUIRE(automatic.notes.size() == 1);
    CHECK(automatic.notes[0].find("the GPU engine cannot take this tensor (structure skew at order 2") == 0);
    CHECK(automatic.notes[0].find("running on the CPU") != std::string::npos);
    options.backend = Backend::cpu;
    CHECK(automatic.core.values() == diagonalize(tensor, options).core.values());
  }
}

TEST_SUITE("gpu") {
  TEST_CASE("the one-block path equals the general path") {
    for (auto [order, size, rule] : {std::tuple{3, 8, "max_diag"}, {4, 6, "max_trace"}, {5, 4, "max_diag"}, {3, 13, "max_diag"}}) {
      CAPTURE(order);
      CAPTURE(size);
      const auto tensor = random_tensor<double>(order, size, 600u + static_cast<unsigned>(size));
      Options options;
      options.backend = Backend::cuda;
      options.max_sweeps = 6;
      options.rule = rule;
      options.schedule = SweepSchedule::round_robin;  // the one-block path's
      // A batch takes the one-block path whenever the tensor fits one block; a callback needs the
      // general path.
      const auto one_block = diagonalize_batch(std::vector<HostTensor<double>>{tensor}, options).front();
      options.on_sweep = [](const SweepRecord&) { return false; };
      const auto general = diagonalize(tensor, options);
      REQUIRE(one_block.sweeps() == general.sweeps());
      CHECK(one_block.stop_reason == general.stop_reason);
      CHECK(relative_difference(one_block.core.values(), general.core.values()) <= 1e-10);
      for (std::size_t n = 0; n < general.factors.size(); ++n)
        CHECK(relative_difference(one_block.factors[n].data, general.factors[n].data) <= 1e-10);
      for (std::size_t k = 0; k < general.history.size(); ++k) {
        CHECK(std::abs(one_block.history[k].off_rel - general.history[k].off_rel) <= 1e-9);
        CHECK(one_block.history[k].trace == doctest::Approx(general.history[k].trace).epsilon(1e-10));
      }
    }
  }

  TEST_CASE("single float32 tensors take the one-block engine up to its measured limits, and equal the general engine") {
    // gpu_small_engine.cpp: 5832 entries at order 3, 4096 at 4, 3125 at 5 (the register group
    // step), 1024 at order 6 and for float64.
    struct Expected {
      int order, size;
      const char* engine;
    };
    for (const Expected& c : {Expected{3, 18, "cuda_one_block"}, Expected{3, 19, "cuda"}, Expected{4, 8, "cuda_one_block"},
                              Expected{4, 9, "cuda"}, Expected{5, 5, "cuda_one_block"}, Expected{6, 4, "cuda"}}) {
      CAPTURE(c.order);
      CAPTURE(c.size);
      const auto tensor = random_tensor<float>(c.order, c.size, 700u + static_cast<unsigned>(c.size));
      Options options;
      options.backend = Backend::cuda;
      options.max_sweeps = 4;
      options.schedule = SweepSchedule::round_robin;  // the one-block path's
      const auto automatic = diagonalize(tensor, options);
      CHECK(automatic.engine == std::string(c.engine));
      options.on_sweep = [](const SweepRecord&) { return false; };  // the general engine
      const auto general = diagonalize(tensor, options);
      REQUIRE(general.engine == "cuda");
      CHECK(automatic.sweeps() == general.sweeps());
      CHECK(relative_difference(automatic.core.values(), general.core.values()) <= 1e-5);
    }
    const auto wide = random_tensor<double>(3, 12, 720u);
    Options options;
    options.backend = Backend::cuda;
    options.max_sweeps = 2;
    CHECK(diagonalize(wide, options).engine == "cuda");  // float64: 1024 entries at most
  }

  TEST_CASE_TEMPLATE("a batch equals its tensors run one by one on the CPU", T, float, double) {
    const double bound = std::is_same_v<T, float> ? 1e-4 : 1e-10;
    std::vector<HostTensor<T>> tensors;
    for (unsigned seed = 0; seed < 37; ++seed) {
      GeneratorOptions g;
      g.order = 4;
      g.size = 5;
      g.seed = 800 + seed;
      g.noise = seed % 3 == 0 ? 0.2 : 0.0;  // some converge, some stall
      tensors.push_back(generate_diagonalizable<T>(g).tensor);
    }
    Options options;
    options.backend = Backend::cuda;
    const auto batch = diagonalize_batch(tensors, options);
    REQUIRE(batch.size() == tensors.size());
    options.backend = Backend::cpu;
    for (std::size_t b = 0; b < tensors.size(); ++b) {
      CAPTURE(b);
      const auto one = diagonalize(tensors[b], options);
      CHECK(batch[b].backend == Backend::cuda);
      CHECK(batch[b].stop_reason == one.stop_reason);
      CHECK(batch[b].sweeps() == one.sweeps());
      CHECK(relative_difference(batch[b].core.values(), one.core.values()) <= bound);
    }
  }
}

TEST_SUITE("gpu") {
  TEST_CASE("the general and one-block GPU engines and the CPU engine give the same core and factors bit for bit (no pivot check)") {
    // Neither side contracts to fused multiply-adds (-ffp-contract=off, --fmad=false), the angles
    // use only +, -, *, / and sqrt (correctly rounded on both), in the same order: every CPU-GPU
    // difference would be a bug. Includes N = 255, D = 3, where float64 runs that rounded
    // differently drifted apart by 3.5e-10 after one sweep and 6e-3 after three.
    // 3 x 8, 3 x 7 and 4 x 5 (at most 1024 entries) take the one-block path, the others the general
    // engine; the one-block path's float64 subtensors of 2^3 and 2^4 entries sit in registers
    // (pivot_subtensor.cuh), odd N leaves an index idle in every group. On the general engine the
    // angles and the group pass overlap their launches (compute capability 9.0): 6 x 8 and 7 x 6
    // give the pass hundreds of blocks that load their tiles while the angles run.
    for (auto [order, size, rule] : {std::tuple{3, 8, "max_diag"}, {3, 7, "max_diag"}, {4, 5, "max_trace"},
                                     {4, 6, "max_trace"}, {5, 5, "max_diag"}, {3, 12, "max_trace"}, {3, 255, "max_diag"},
                                     {6, 8, "max_diag"}, {7, 6, "max_trace"}}) {
      CAPTURE(order);
      CAPTURE(size);
      Options options;
      options.rule = rule;
      options.max_sweeps = 3;
      options.tol = 1e-300;
      options.stall_tol = 0;
      const auto tensor = random_tensor<double>(order, size, 800u + static_cast<unsigned>(size));
      options.backend = Backend::cpu;
      const auto cpu = diagonalize(tensor, options);
      options.backend = Backend::cuda;
      const auto gpu = diagonalize(tensor, options);
      REQUIRE(gpu.engine == (tensor.count() <= 1024 ? "cuda_one_block" : "cuda"));
      CHECK(gpu.core.values() == cpu.core.values());
      for (std::size_t n = 0; n < cpu.factors.size(); ++n) CHECK(gpu.factors[n].data == cpu.factors[n].data);
      if (gpu.core.values() != cpu.core.values())
        MESSAGE("largest relative difference: ", relative_difference(gpu.core.values(), cpu.core.values()));
    }
  }
}
