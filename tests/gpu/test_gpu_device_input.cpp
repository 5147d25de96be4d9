// diagonalize_on_device (issue 13): a tensor in device memory gives the run the same tensor gives
// from the host (same engine, same schedule), the core and the factors left on the device; the
// caller's device array is unchanged; the verification reads it there; memory that is not the
// device's, NaN, and backend cpu are user errors.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "random_tensor.hpp"
#include "relative_difference.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/diagonalize.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using tensordiag::testing::random_tensor;
using tensordiag::testing::relative_difference;

namespace {

template <class T>
std::vector<T> download(const T* device, std::size_t count) {
  std::vector<T> host(count);
  check_cuda(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
  return host;
}

template <class T>
void check_device_run_equals_host_run(const HostTensor<T>& tensor, double bound) {
  DeviceBuffer<T> input(tensor.count());
  input.upload(tensor.data(), tensor.count());
  Options options;
  options.backend = Backend::cuda;
  options.max_sweeps = 4;
  options.verify = true;
  options.tol = 1e-300;
  options.stall_tol = 0;
  // A callback keeps the host run off the one-block engine, on the general one a device input takes.
  options.on_sweep = [](const SweepRecord&) { return false; };
  const Result<T> host = diagonalize(tensor, options);
  REQUIRE(host.engine == "cuda");  // the engine a device input runs on: compare like with like
  options.backend = Backend::automatic;
  const DeviceResult<T> device =
      diagonalize_on_device(TensorView<T>(input.data(), tensor.order(), tensor.size(), tensor.layout(), Memory::cuda),
                            options);
  CHECK(device.run.backend == Backend::cuda);
  CHECK(device.run.engine == "cuda");
  CHECK(device.layout == tensor.layout());
  CHECK(device.run.core.count() == 0);
  REQUIRE(device.run.sweeps() == host.sweeps());
  CHECK(relative_difference(download(device.core.get(), tensor.count()), host.core.values()) <= bound);
  REQUIRE(device.factors.size() == host.factors.size());
  const std::size_t square = static_cast<std::size_t>(tensor.size()) * tensor.size();
  for (std::size_t n = 0; n < host.factors.size(); ++n)
    CHECK(relative_difference(download(device.factors[n].get(), square), host.factors[n].data) <= bound);
  CHECK(download(input.data(), tensor.count()) == std::vector<T>(tensor.data(), tensor.data() + tensor.count()));
  REQUIRE(device.run.verification);
  REQUIRE(host.verification);
  CHECK(std::abs(device.run.verification->reconstruction_error - host.verification->reconstruction_error) <= bound);
  CHECK(device.run.verification->orthogonality_error == doctest::Approx(host.verification->orthogonality_error));
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("a tensor in device memory runs as from the host, its result left on the device") {
    check_device_run_equals_host_run(random_tensor<double>(4, 6, 3), 1e-12);
    check_device_run_equals_host_run(random_tensor<double>(3, 17, 4, Layout::fortran_order), 1e-12);
    check_device_run_equals_host_run(random_tensor<float>(3, 12, 5), 1e-5);
  }

  TEST_CASE("device input: host memory, NaN and backend cpu are user errors") {
    const HostTensor<double> tensor = random_tensor<double>(3, 4, 9);
    CHECK_THROWS_AS(diagonalize_on_device(TensorView<double>(tensor.data(), 3, 4, Layout::c_order, Memory::cuda)),
                    user_error);
    HostTensor<double> bad = tensor;
    bad.at({1, 2, 0}) = std::numeric_limits<double>::quiet_NaN();
    DeviceBuffer<double> input(bad.count());
    input.upload(bad.data(), bad.count());
    const TensorView<double> view(input.data(), 3, 4, Layout::c_order, Memory::cuda);
    CHECK_THROWS_WITH_AS(diagonalize_on_device(view), "the tensor contains NaN or Inf", user_error);
    Options cpu;
    cpu.backend = Backend::cpu;
    CHECK_THROWS_AS(diagonalize_on_device(view, cpu), user_error);
  }
}
