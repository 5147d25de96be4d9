// The group pass kernel alone against the CPU's fused pass: random tensor, random factors, random
// rotations (some pairs the identity, as the pivot check leaves them), one launch of group_pass
// with the convergence figures. The tensor, the factors and the figures it sums must equal the
// CPU's (float64, to rounding), for shapes and tunings that take every path of the kernel:
// register modes only, thread modes (D - 1 > register bits), odd N (an unpaired index), Fortran
// order, exchanges in several rounds (a small shared-memory budget), threads holding several
// innermost positions (a tile wider than the block), exchanges between lanes of a warp by
// shuffles (thread modes and the innermost mode) or, for the same shapes, through shared memory,
// and tiles that take several inner modes whole (shuffled or through shared memory, odd N).
#include <doctest/doctest.h>

#include "dsl/givens.hpp"
#include "codegen/builtin_rules.hpp"
#include "random_group.hpp"
#include "random_tensor.hpp"
#include "relative_difference.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/cuda/cuda_stream.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/engines/gpu_kernels.hpp"
#include "runtime/engines/group_pass.hpp"
#include "runtime/algorithm/random_stream.hpp"

using namespace tensordiag::runtime;
namespace codegen = tensordiag::codegen;
using namespace tensordiag::testing;

namespace {

struct PassCase {
  int order, size;
  Layout layout;
  int register_bits, block_size, shared_bytes;
  int warp_shuffles = -1;  // codegen Tuning::pass_warp_shuffles
  int inner_modes = 1;     // codegen Tuning::pass_inner_modes
};

void check_pass(const PassCase& c, unsigned seed) {
  CAPTURE(c.order);
  CAPTURE(c.size);
  CAPTURE(c.register_bits);
  CAPTURE(c.block_size);
  CAPTURE(c.shared_bytes);
  CAPTURE(c.warp_shuffles);
  CAPTURE(c.inner_modes);
  codegen::Tuning tuning;
  tuning.pass_register_bits = c.register_bits;
  tuning.pass_block_size = c.block_size;
  tuning.shared_bytes = c.shared_bytes;
  tuning.pass_warp_shuffles = c.warp_shuffles;
  tuning.pass_inner_modes = c.inner_modes;
  const codegen::KernelSpec spec{codegen::KernelKind::group_pass, c.order, c.size, codegen::ScalarType::float64,
                                 c.layout, codegen::lower_builtin_rule("max_diag"), tuning};
  const GpuKernels<double> kernels(spec, cuda_device()->arch(), KernelSet::general);

  RandomStream random(seed);
  HostTensor<double> tensor = random_tensor<double>(c.order, c.size, seed, c.layout);
  GroupRotations<double> group = random_group<double>(c.order, c.size, seed, random);
  std::vector<Matrix<double>> factors = random_factors<double>(c.order, c.size, random);

  // The uploads on the kernels' stream: a copy from pageable memory on the default stream may still
  // be in flight when a kernel on a non-blocking stream starts.
  CudaStream stream;
  DeviceBuffer<double> d_tensor(tensor.count()), d_factors(static_cast<std::size_t>(c.order) * c.size * c.size);
  d_tensor.upload(tensor.values(), stream.get());
  d_factors.upload(flat_factors(factors), stream.get());
  const std::vector<int> pairs = flat_pairs(group.pairs);
  DeviceBuffer<int> d_pairs(std::max<std::size_t>(pairs.size(), 1));
  if (!pairs.empty()) d_pairs.upload(pairs, stream.get());
  DeviceBuffer<tensordiag::dsl::Givens<double>> d_rotations(std::max<std::size_t>(group.rotations.size(), 1));
  const auto rotations = kernel_rotations(group);
  if (!group.rotations.empty()) d_rotations.upload(rotations, stream.get());
  DeviceBuffer<double> partials(static_cast<std::size_t>(kernels.group_pass_plan.partial_doubles)), figures(2);

  kernels.group_pass(stream.get(), d_tensor.data(), d_pairs.data(), d_rotations.data(), d_factors.data(),
                     partials.data(), nullptr);
  kernels.off_norm_final(stream.get(), partials.data(), static_cast<int>(kernels.group_pass_plan.pass_blocks),
                         figures.data());
  const auto gpu_tensor = d_tensor.download(stream.get());
  const auto gpu_factors = d_factors.download(stream.get());
  const auto gpu_figures = figures.download(stream.get());

  apply_group_pass(tensor, group, 0);
  apply_group_to_factors(factors, group);
  const std::vector<double> cpu_factors = flat_factors(factors);
  double off = 0, diag = 0;
  for (std::size_t i = 0; i < tensor.count(); ++i) {
    const double v = tensor.values()[i];
    (i % static_cast<std::size_t>(tensor.diagonal_stride()) == 0 ? diag : off) += v * v;
  }

  CHECK(relative_difference(gpu_tensor, tensor.values()) <= 1e-14);
  CHECK(relative_difference(gpu_factors, cpu_factors) <= 1e-14);
  CHECK(gpu_figures[0] == doctest::Approx(off).epsilon(1e-12));
  CHECK(gpu_figures[1] == doctest::Approx(diag).epsilon(1e-12));
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("the group pass equals the CPU's fused pass, factors and figures included") {
    constexpr int budget = 48 * 1024;
    const PassCase cases[] = {
        {3, 8, Layout::c_order, 5, 0, budget},         // register modes only, several tiles per block
        {3, 7, Layout::c_order, 5, 0, budget},         // odd N: the unpaired index in every mode
        {4, 6, Layout::fortran_order, 5, 0, budget},   // Fortran order
        {5, 5, Layout::c_order, 2, 0, budget},         // thread modes (T = 2) and odd N
        {7, 3, Layout::fortran_order, 5, 0, budget},   // T = 1, N = 3
        {9, 4, Layout::c_order, 5, 0, budget},         // T = 3, the D = 9 shape's layout
        {9, 4, Layout::c_order, 6, 128, budget},       // 64 registers
        {3, 128, Layout::c_order, 5, 0, budget},       // one tile per block, 128 positions
        {3, 129, Layout::fortran_order, 5, 0, budget}, // odd and wide
        {4, 40, Layout::c_order, 3, 0, 2048},          // exchanges in rounds (CHUNK < REGS)
        {3, 100, Layout::c_order, 5, 64, budget},      // a tile wider than the block: 2 positions per thread
        {4, 33, Layout::c_order, 1, 32, budget},       // all modes moved into registers, 2 positions per thread, odd N
        // Shuffles: D = 9, N = 4 above exchanges its 3 thread modes and the innermost one inside warps.
        {9, 4, Layout::c_order, 5, 0, budget, 0},      // the same through shared memory
        {5, 8, Layout::c_order, 1, 0, budget},         // shuffled thread modes, 4 positions per thread
        {5, 7, Layout::fortran_order, 1, 0, budget},   // shuffled thread modes with the unpaired index
        {6, 16, Layout::c_order, 3, 0, budget},        // the innermost mode over 16 lanes, T = 2 (one in a warp)
        // Several inner modes whole: runs of N^m entries.
        {9, 4, Layout::c_order, 5, 0, budget, -1, 2},  // runs of 16: both inner modes shuffled, T = 2
        {9, 4, Layout::c_order, 5, 0, budget, 0, 2},   // the same through shared memory
        {10, 4, Layout::c_order, 5, 0, budget, -1, 3}, // runs of 64: two warps a slot, the outer inner mode through shared memory
        {7, 3, Layout::fortran_order, 5, 0, budget, -1, 2},  // odd N: unpaired digits in the inner modes, Fortran order
        {5, 6, Layout::c_order, 2, 0, budget, -1, 2},  // N = 6: runs of 36, inner partners through shared memory
        {5, 8, Layout::c_order, 5, 32, budget, -1, 2}, // a run of 64 over 32 threads: 2 positions a thread
        {6, 8, Layout::c_order, 3, 0, 8192, -1, 3},    // runs of 512, exchanges a register a round
    };
    unsigned seed = 11;
    for (const auto& c : cases) check_pass(c, seed++);
  }
}
