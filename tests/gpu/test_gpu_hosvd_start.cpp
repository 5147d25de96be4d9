// The HOSVD start on the device (issue 11 item 4; engines/gpu_hosvd_start.hpp): cuBLAS Gram matrices
// and mode products on every kind of mode (the fastest, the slowest, a middle one through batched
// gemms, in batches of the Gram's workspace), cuSOLVER's eigenvectors ordered and signed as on the
// host: the same Q_n and T x_n Q_n^T as the host's start. A general GPU run from it reconstructs T,
// reports on T's scale, and agrees with the CPU's run from the host start; a device input takes it
// too; the N = 2 engine (cuda_qubit) starts on the device as well, its sweeps then rotating T';
// engines that do not compute it get the host's. Complex tensors the same way (T_(n) T_(n)^H,
// heevd, T x_n Q_n^H).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

#include "complex_recovery.hpp"
#include "random_tensor.hpp"
#include "scoped_environment.hpp"
#include "relative_difference.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/algorithm/hosvd_start.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/cuda/cuda_stream.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/diagonalize_complex.hpp"
#include "runtime/engines/gpu_hosvd_start.hpp"
#include "runtime/engines/gpu_qubit_engine.hpp"
#include "codegen/builtin_rules.hpp"
#include "gpu/qubit_equals_cpu.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using tensordiag::testing::random_tensor;
using tensordiag::testing::relative_difference;

namespace {

// The device's start against the host's (double throughout there): the bases and the rotated tensor.
template <class T>
void check_device_start_equals_host_start(const HostTensor<T>& tensor, double bound) {
  const HosvdStart<T> host = hosvd_start(tensor, 0);
  const CudaStream stream;
  DeviceBuffer<T> data(tensor.count());
  data.upload(tensor.data(), tensor.count(), stream.get());  // on the start's stream (a default-stream copy may still fly)
  const GpuHosvdStart<T> device =
      gpu_hosvd_start(data.data(), tensor.order(), tensor.size(), tensor.strides(), Structure::general, stream.get());
  REQUIRE(device.bases.size() == host.bases.size());
  for (std::size_t n = 0; n < host.bases.size(); ++n) {
    CAPTURE(n);
    CHECK(relative_difference(device.bases[n].data, host.bases[n].data) <= bound);
  }
  CHECK(relative_difference(data.download(), host.rotated.values()) <= bound);
  CHECK(device.seconds >= 0);
}

GeneratedTensor<double> planted(int order, int size, double noise) {
  GeneratorOptions generator;
  generator.order = order;
  generator.size = size;
  generator.seed = 77u + static_cast<unsigned>(order);
  generator.noise = noise;
  return generate_diagonalizable<double>(generator);
}

constexpr double eps = std::numeric_limits<double>::epsilon();

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("gpu hosvd start: the same bases and rotated tensor as the host's, every kind of mode") {
    // C and Fortran order put the fastest mode first or last; D = 4 has two middle modes.
    for (const Layout layout : {Layout::c_order, Layout::fortran_order}) {
      CAPTURE(to_string(layout));
      check_device_start_equals_host_start(random_tensor<double>(4, 6, 11, layout), 1e-11);
      check_device_start_equals_host_start(random_tensor<double>(3, 17, 12, layout), 1e-11);
      check_device_start_equals_host_start(random_tensor<float>(5, 4, 13, layout), 1e-4);
    }
    // N = 2, D = 23: the middle modes' Gram products come in several batches of the workspace.
    check_device_start_equals_host_start(random_tensor<double>(23, 2, 14), 1e-10);
  }

  TEST_CASE("gpu hosvd start of complex tensors: the host's unitary bases and T x_n Q_n^H, every kind of mode") {
    for (const Layout layout : {Layout::c_order, Layout::fortran_order}) {
      CAPTURE(to_string(layout));
      check_device_start_equals_host_start(testing::planted_complex<double>(4, 6, 21, layout, 0.3).tensor, 1e-11);
      check_device_start_equals_host_start(testing::planted_complex<double>(3, 17, 22, layout, 0.3).tensor, 1e-11);
      check_device_start_equals_host_start(testing::planted_complex<float>(5, 4, 23, layout, 0.3).tensor, 1e-4);
    }
    // N = 2, D = 21: the middle modes' Gram products in several batches.
    check_device_start_equals_host_start(testing::planted_complex<double>(21, 2, 24, Layout::c_order, 0.3).tensor,
                                         1e-10);
  }

  TEST_CASE("gpu hosvd start: a complex GPU run starts on the device and reaches the CPU's fixed point") {
    // These tensors are small enough for the host's start (host_hosvd_start_pays): the device's, here.
    test::ScopedEnvironment environment;
    environment.set("TENSORDIAG_HOST_HOSVD_BYTES", "0");
    for (const auto& [order, size] : {std::pair{4, 8}, std::pair{3, 24}}) {
      CAPTURE(order);
      CAPTURE(size);
      const HostTensor<std::complex<double>> tensor =
          testing::planted_complex<double>(order, size, 30 + static_cast<unsigned>(order), Layout::c_order, 0.1).tensor;
      Options options;
      options.backend = Backend::cuda;
      options.verify = true;
      options.init = Init::hosvd;
      options.on_sweep = [](const SweepRecord&) { return false; };  // off the one-block engine
      const Result<std::complex<double>> gpu = diagonalize_complex(tensor, options);
      CHECK(gpu.engine == "cuda");
      CHECK(gpu.hosvd_start);
      CHECK(gpu.hosvd_on_device);
      REQUIRE(gpu.verification);
      CHECK(gpu.verification->reconstruction_error <= 30.0 * size * order * eps);
      CHECK(gpu.verification->orthogonality_error <= 30.0 * size * eps);
      // Sweep 0 is T x_n Q_n^H against off(T), as the host's start gives it.
      const HosvdStart<std::complex<double>> start = hosvd_start(tensor, 0);
      CHECK(gpu.history.front().off_rel ==
            doctest::Approx(std::sqrt(off_norm2(start.rotated) / off_norm2(tensor))).epsilon(1e-8));
      options.backend = Backend::cpu;
      const Result<std::complex<double>> cpu = diagonalize_complex(tensor, options);
      CHECK_FALSE(cpu.hosvd_on_device);
      CHECK(std::abs(gpu.sweeps() - cpu.sweeps()) <= 1);
      CHECK(std::abs(gpu.history.back().off_rel - cpu.history.back().off_rel) <=
            1e-4 * cpu.history.back().off_rel + 1e-13);
    }
  }

  TEST_CASE("gpu hosvd start: a general GPU run from it reconstructs T and reports on T's scale") {
    test::ScopedEnvironment environment;
    environment.set("TENSORDIAG_HOST_HOSVD_BYTES", "0");  // small tensors: the device's start, here
    for (const auto& [order, size, noise] : {std::tuple{6, 8, 0.1}, std::tuple{4, 16, 0.0}, std::tuple{5, 7, 0.1}}) {
      CAPTURE(order);
      CAPTURE(size);
      const GeneratedTensor<double> generated = planted(order, size, noise);
      const HostTensor<double>& tensor = generated.tensor;
      Options options;
      options.backend = Backend::cuda;
      options.verify = true;
      options.init = Init::hosvd;
      // A callback keeps the run off the one-block engine, on the general one that starts on the device.
      options.on_sweep = [](const SweepRecord&) { return false; };
      const Result<double> gpu = diagonalize(tensor, options);
      CHECK(gpu.engine == "cuda");
      CHECK(gpu.hosvd_start);
      CHECK(gpu.hosvd_on_device);
      CHECK(gpu.timings.init_seconds > 0);
      REQUIRE(gpu.verification);
      CHECK(gpu.verification->reconstruction_error <= 30.0 * size * order * eps);
      CHECK(gpu.verification->orthogonality_error <= 30.0 * size * eps);
      CHECK(reconstruction_error(tensor, gpu.core, gpu.factors) <= 30.0 * size * order * eps);
      // Sweep 0 is T x_n Q_n^T against off(T); the last record is the core's own against T.
      const HosvdStart<double> start = hosvd_start(tensor, 0);
      CHECK(gpu.history.front().off_rel ==
            doctest::Approx(std::sqrt(off_norm2(start.rotated) / off_norm2(tensor))).epsilon(1e-8));
      CHECK(gpu.history.back().off_rel ==
            doctest::Approx(std::sqrt(off_norm2(gpu.core) / off_norm2(tensor))).epsilon(1e-6));
      if (gpu.stop_reason == StopReason::tolerance) CHECK(gpu.history.back().off_rel <= gpu.tol);
      // The CPU's run from the host's start: the same fixed point, within a sweep (the two starts
      // differ by rounding, which can move a stall decision by one sweep).
      options.backend = Backend::cpu;
      const Result<double> cpu = diagonalize(tensor, options);
      CHECK(std::abs(gpu.sweeps() - cpu.sweeps()) <= 1);
      CHECK(std::abs(gpu.history.back().off_rel - cpu.history.back().off_rel) <=
            1e-4 * cpu.history.back().off_rel + 1e-13);
    }
  }

  TEST_CASE("gpu hosvd start: a small tensor on the general GPU engine starts on the host, a larger one on the device") {
    // host_hosvd_start_pays: up to TENSORDIAG_HOST_HOSVD_BYTES (4 MiB unset) the host's start, whose
    // T' and Q_n the engine then runs from; the same fixed point as the device's start within a sweep.
    const GeneratedTensor<double> generated = planted(4, 16, 0.1);  // 512 KiB
    Options options;
    options.backend = Backend::cuda;
    options.verify = true;
    options.init = Init::hosvd;
    options.on_sweep = [](const SweepRecord&) { return false; };  // off the one-block engine
    const Result<double> host_start = diagonalize(generated.tensor, options);
    CHECK(host_start.engine == "cuda");
    CHECK(host_start.hosvd_start);
    CHECK_FALSE(host_start.hosvd_on_device);
    CHECK(host_start.timings.init_seconds > 0);
    REQUIRE(host_start.verification);
    CHECK(host_start.verification->reconstruction_error <= 30.0 * 16 * 4 * eps);
    const HosvdStart<double> start = hosvd_start(generated.tensor, 0);
    CHECK(host_start.history.front().off_rel ==
          doctest::Approx(std::sqrt(off_norm2(start.rotated) / off_norm2(generated.tensor))).epsilon(1e-12));
    test::ScopedEnvironment environment;
    for (const auto& [bytes, on_device] : {std::pair{"0", true}, std::pair{"524287", true}, std::pair{"524288", false}}) {
      CAPTURE(bytes);
      environment.set("TENSORDIAG_HOST_HOSVD_BYTES", bytes);
      const Result<double> run = diagonalize(generated.tensor, options);
      CHECK(run.hosvd_on_device == on_device);
      CHECK(std::abs(run.sweeps() - host_start.sweeps()) <= 1);
      CHECK(std::abs(run.history.back().off_rel - host_start.history.back().off_rel) <=
            1e-4 * host_start.history.back().off_rel + 1e-13);
    }
    environment.set("TENSORDIAG_HOST_HOSVD_BYTES", "-1");
    CHECK_THROWS_WITH_AS(diagonalize(generated.tensor, options), doctest::Contains("TENSORDIAG_HOST_HOSVD_BYTES"),
                         user_error);
  }

  TEST_CASE("gpu hosvd start: a device input starts on the device and is left as it was") {
    const HostTensor<float> tensor = random_tensor<float>(5, 6, 21);
    DeviceBuffer<float> input(tensor.count());
    input.upload(tensor.data(), tensor.count());
    Options options;
    options.init = Init::hosvd;
    options.verify = true;
    const DeviceResult<float> result =
        diagonalize_on_device(TensorView<float>(input.data(), 5, 6, tensor.layout(), Memory::cuda), options);
    CHECK(result.run.hosvd_start);
    CHECK(result.run.hosvd_on_device);
    CHECK(result.run.history.front().off_rel < 1.0);
    REQUIRE(result.run.verification);
    CHECK(result.run.verification->reconstruction_error <= 30.0 * 6 * 5 * std::numeric_limits<float>::epsilon());
    CHECK(input.download() == tensor.values());
  }

  TEST_CASE("gpu hosvd start: the N = 2 engine starts on the device: the CPU's run from the host's start") {
    // float64, called directly (the table takes float32 and complex64): 3 sweeps from the device's
    // start equal the CPU engine's from the host's to 1e-10, figures included.
    const HostTensor<double> tensor = planted(20, 2, 0.3).tensor;
    Options options;
    options.backend = Backend::cpu;
    options.init = Init::hosvd;
    options.max_sweeps = 3;
    options.tol = 1e-300;
    options.stall_tol = 0;
    const Result<double> cpu = diagonalize(tensor, options);
    CHECK_FALSE(cpu.hosvd_on_device);
    EngineRun run{RunSettings{StopCriteria{3, 1e-300, 0.0}, 0.0, 1, {}}, codegen::lower_builtin_rule("max_diag")};
    run.settings.init = Init::hosvd;
    const Result<double> gpu = run_gpu_qubit_engine(tensor, run);
    CHECK(gpu.hosvd_start);
    CHECK(gpu.hosvd_on_device);
    CHECK(gpu.timings.init_seconds > 0);
    CHECK(gpu.history.front().off_rel < 1.0);
    testing::check_qubit_run_equals_cpu(gpu, cpu);

    // complex64 and float32 take it through the engine table, converge on planted tensors and
    // reconstruct T.
    const auto converge = [](auto&& run_one, const auto& planted_tensor, int order) {
      Options converging;
      converging.backend = Backend::cuda;
      converging.init = Init::hosvd;
      converging.verify = true;
      const auto result = run_one(planted_tensor, converging);
      CHECK(result.engine == "cuda_qubit");
      CHECK(result.hosvd_on_device);
      CHECK(result.stop_reason == StopReason::tolerance);
      REQUIRE(result.verification);
      CHECK(result.verification->reconstruction_error <= 50.0 * order * std::numeric_limits<float>::epsilon());
      CHECK(result.verification->orthogonality_error <= 50.0 * order * std::numeric_limits<float>::epsilon());
    };
    converge([](const auto& t, const Options& o) { return diagonalize_complex(t, o); },
             testing::planted_complex<float>(20, 2, 1780, Layout::fortran_order).tensor, 20);
    GeneratorOptions generator;
    generator.order = 21;
    generator.size = 2;
    generator.seed = 1790;
    converge([](const auto& t, const Options& o) { return diagonalize(t, o); },
             generate_diagonalizable<float>(generator).tensor, 21);
  }

  TEST_CASE("gpu hosvd start: the one-block engine runs on the host's start") {
    const HostTensor<double> tensor = planted(4, 4, 0.0).tensor;
    Options options;
    options.backend = Backend::cuda;
    options.init = Init::hosvd;
    options.verify = true;
    const Result<double> result = diagonalize(tensor, options);
    CHECK(result.engine == "cuda_one_block");
    CHECK(result.hosvd_start);
    CHECK_FALSE(result.hosvd_on_device);
    REQUIRE(result.verification);
    CHECK(result.verification->reconstruction_error <= 30.0 * 4 * 4 * eps);
  }
}
