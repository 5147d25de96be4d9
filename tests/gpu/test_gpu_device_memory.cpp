// A tensor larger than the device's free memory (issue 13): --backend cuda is one user_error
// naming the bytes needed and free, before any work on the device; auto runs on the CPU with a
// note that says the same. The device is filled first by a buffer that leaves 280 MiB free, so
// that tensors of about 250 MB (plus the engines' 64 MB of workspace) do not fit. The command
// refuses a file from its header alone: a sparse 137 GB .npy (N = 2, D = 35, float32) on an H100.
#include <doctest/doctest.h>

#include <cuda_runtime_api.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_workspace.hpp"
#include "random_tensor.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/diagonalize.hpp"

using namespace tensordiag::runtime;
using tensordiag::testing::random_tensor;

namespace {

template <class T>
void check_refused_then_cpu(const HostTensor<T>& tensor, const std::string& engine_kind) {
  CAPTURE(engine_kind);
  Options options;
  options.max_sweeps = 1;
  options.backend = Backend::cuda;
  try {
    diagonalize(tensor, options);
    FAIL("the run did not fail");
  } catch (const tensordiag::user_error& error) {
    const std::string message = error.what();
    CHECK(message.starts_with("the CUDA backend cannot take this tensor: the tensor needs "));
    CHECK(message.find(" GiB on the GPU, but NVIDIA ") != std::string::npos);
    CHECK(message.ends_with(" GiB free"));
  }
  options.backend = Backend::automatic;
  const auto result = diagonalize(tensor, options);
  CHECK(result.backend == Backend::cpu);
  REQUIRE(result.notes.size() == 1);
  CHECK(result.notes[0].starts_with("the GPU engine cannot take this tensor (the tensor needs "));
  CHECK(result.notes[0].ends_with(" GiB free): running on the CPU"));
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("a tensor over the free device memory: cuda fails with the bytes needed and free, auto runs on the CPU and says why") {
    const auto device = cuda_device();
    REQUIRE(device.has_value());
    constexpr std::size_t left_free = 280u << 20;
    REQUIRE(device->free_memory > left_free + (1u << 30));
    const DeviceBuffer<unsigned char> filler(device->free_memory - left_free);
    // The general engine's kind of shape (N = 6, D = 10, 242 MB) and the qubit path's (N = 2,
    // D = 26 float32, 268 MB); each fits once the filler is gone.
    check_refused_then_cpu(random_tensor<float>(10, 6, 3), "general");
    check_refused_then_cpu(random_tensor<float>(26, 2, 4), "qubit");
  }
}

namespace {

// A .npy file of shape (2,) * order, float32, whose data is a hole (a sparse file: no disk used).
void write_sparse_npy(const std::filesystem::path& path, int order) {
  std::string shape = "(";
  for (int n = 0; n < order; ++n) shape += "2, ";
  shape += ")";
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  const auto length = static_cast<unsigned short>(header.size());
  const char length_bytes[2] = {static_cast<char>(length & 0xff), static_cast<char>(length >> 8)};
  out.write(length_bytes, 2);
  out << header;
  out.close();
  std::filesystem::resize_file(path, 10 + header.size() + (std::uintmax_t{4} << order));
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("the command refuses a tensor over the device memory from its header, before reading it") {
    const tensordiag::testing::Workspace workspace;
    // 2^37 float32 entries, 512 GiB: more than any GPU this runs on holds (an H100's 80 GB, an H200's
    // 141 GB; 2^35, 128 GiB, fits an H200 and was read instead of refused there).
    write_sparse_npy(workspace / "qubits37.npy", 37);
    const auto before = workspace.files();
    const auto run = workspace.run("diagonalize qubits37.npy --out run --backend cuda");
    CHECK(run.exit_code == 1);
    CHECK(run.err.starts_with("tensordiag: error: the CUDA backend cannot take this tensor: the tensor needs 512.06 GiB on the GPU, but NVIDIA "));
    CHECK(run.err.find('\n') == run.err.size() - 1);
    CHECK(workspace.files() == before);
  }
}

// Issue 15: a GPU run with the device verification holds at most 2.2 tensors of device memory (its
// own buffers: the core, the factors and workspaces, then the verification's scratch tensor, into
// which the host input is uploaded after the products). At least two: the scratch tensor is
// counted, so the meter sees the verification.
TEST_SUITE("gpu") {
  TEST_CASE("a verified GPU run holds at most 2.2 tensors of device memory") {
    const auto check = [](const auto& tensor) {
      CAPTURE(tensor.order());
      CAPTURE(tensor.size());
      Options options;
      options.backend = Backend::cuda;
      options.max_sweeps = 2;
      options.verify = true;
      const auto result = diagonalize(tensor, options);
      REQUIRE(result.verification.has_value());
      CHECK(result.verification->reconstruction_error < 1e-4);
      REQUIRE(result.device_memory_peak_bytes.has_value());
      const double bytes = static_cast<double>(tensor.count() * sizeof(tensor.values()[0]));
      const double peak = static_cast<double>(*result.device_memory_peak_bytes);
      CAPTURE(peak / bytes);
      CHECK(peak >= 2.0 * bytes);
      CHECK(peak <= 2.2 * bytes);
    };
    check(random_tensor<float>(6, 16, 41));   // 67 MB, D even: the reconstruction ends in the core's buffer
    check(random_tensor<float>(5, 24, 42));   // 32 MB, D odd: it ends in the scratch tensor
    check(random_tensor<double>(3, 256, 43)); // 134 MB
  }
}
