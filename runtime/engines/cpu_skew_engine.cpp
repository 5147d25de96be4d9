#include "runtime/engines/cpu_skew_engine.hpp"

#include <omp.h>

#include <algorithm>
#include <utility>

#include "dsl/skew_rule.hpp"
#include "runtime/algorithm/murnaghan_step.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/algorithm/skew_blocks.hpp"
#include "runtime/algorithm/skew_schedule.hpp"
#include "runtime/algorithm/skew_signs.hpp"
#include "runtime/engines/cpu_group_schedule.hpp"
#include "runtime/engines/cpu_sweeps.hpp"
#include "runtime/engines/group_pass.hpp"

namespace tensordiag::runtime {

template <class T>
dsl::Givens<double> skew_pair_rotation(const HostTensor<T>& core, int p, int q) {
  const SkewPivot v = skew_pivot_values(core, p, q);
  return dsl::rotation(dsl::rules::skew_max_diag, dsl::PivotValues<double>{v.a, v.b, v.d, v.e});
}

template <class T>
void rotate_pair_every_mode(HostTensor<T>& core, int p, int q, dsl::Givens<T> g, int threads) {
  // The slice i_n = p of mode n is a run of stride_n entries (the modes faster in memory) at every
  // multiple of stride_n N (the slower ones): in either layout. Runs are cut into pieces of at
  // most 2^12 entries so that mode 0 of a C-order tensor (one run of N^(D-1)) spreads too.
  constexpr std::ptrdiff_t piece = 4096;
  const std::ptrdiff_t size = core.size();
  const auto count = static_cast<std::ptrdiff_t>(core.count());
  T* data = core.data();
  const int team = threads > 0 ? threads : omp_get_max_threads();
  for (const std::ptrdiff_t stride : core.strides()) {
    const std::ptrdiff_t runs = count / (stride * size);
    const std::ptrdiff_t pieces_a_run = (stride + piece - 1) / piece;
    const std::ptrdiff_t pieces = runs * pieces_a_run;
#pragma omp parallel for num_threads(team) schedule(static) if (2 * count / size >= static_cast<std::ptrdiff_t>(threaded_pass_entries))
    for (std::ptrdiff_t k = 0; k < pieces; ++k) {
      const std::ptrdiff_t run = k / pieces_a_run, start = (k % pieces_a_run) * piece;
      const std::ptrdiff_t base = run * stride * size + start;
      rotate_rows(data + base + p * stride, data + base + q * stride,
                  static_cast<std::size_t>(std::min(piece, stride - start)), g);
    }
  }
}

namespace {

// Columns `indices` of every mode of `core` and of `q` transformed by the k x k orthogonal W:
// C[.. i@n ..] <- sum_j W[j, i] C[.. j@n ..] (C x_n W^T, DESIGN.md section 2's convention), Q <- Q W.
template <class T>
void transform_indices(HostTensor<T>& core, Matrix<T>& q, const std::vector<int>& indices, const std::vector<double>& w) {
  const auto k = indices.size();
  std::vector<double> x(k);
  const auto count = static_cast<std::ptrdiff_t>(core.count());
  const auto mix = [&](auto&& at) {
    for (std::size_t j = 0; j < k; ++j) x[j] = at(indices[j]);
    for (std::size_t i = 0; i < k; ++i) {
      double sum = 0.0;
      for (std::size_t j = 0; j < k; ++j) sum += w[j * k + i] * x[j];
      at(indices[i]) = static_cast<T>(sum);
    }
  };
  for (const std::ptrdiff_t stride : core.strides())
    for (std::ptrdiff_t base = 0; base < count; base += stride * core.size())
      for (std::ptrdiff_t e = 0; e < stride; ++e)
        mix([&](int index) -> T& { return core.data()[base + index * stride + e]; });
  for (int row = 0; row < q.n; ++row) mix([&](int index) -> T& { return q(row, index); });
}

// Structure skew, D = 2: the round robin over the units (the blocks (2k, 2k+1), and the index left
// over when N is odd), each pair of units brought to its Murnaghan form at once (murnaghan_step.hpp).
template <class T>
Result<T> run_skew_matrix(const HostTensor<T>& tensor, const RunSettings& settings) {
  const int size = tensor.size();
  const int blocks = skew_block_count(2, size);
  const int units = size % 2 == 0 ? blocks : blocks + 1;  // the leftover is the last unit
  const PivotSchedule schedule = units > 1 ? round_robin_schedule(units) : PivotSchedule{};
  Result<T> result = run_cpu_sweeps(tensor, settings, 1, schedule,
                        [&](HostTensor<T>& core, const PivotGroup& pairs, std::vector<Matrix<T>>& q) {
                          for (auto [u, v] : pairs) {
                            if (u == blocks) std::swap(u, v);  // the block first, the leftover last
                            std::vector<int> indices{2 * u, 2 * u + 1, 2 * v};
                            if (v < blocks) indices.push_back(2 * v + 1);
                            const auto k = indices.size();
                            std::vector<double> sub(k * k);
                            for (std::size_t i = 0; i < k; ++i)
                              for (std::size_t j = 0; j < k; ++j) sub[i * k + j] = core.at({indices[i], indices[j]});
                            transform_indices(core, q.front(), indices, murnaghan_step(sub, static_cast<int>(k)));
                          }
                        });
  record_group_schedule(result, size, settings, schedule);  // the round robin (check_options refuses xor)
  return result;
}

// Structure skew, D >= 3: a group's pairs touch disjoint blocks (skew_schedule.hpp): their angles
// from the same core, then one pass with each pair's rotation in every mode.
template <class T>
Result<T> run_skew_tensor(const HostTensor<T>& tensor, const RunSettings& settings) {
  const int order = tensor.order();
  const PivotSchedule schedule = skew_schedule(order, tensor.size());
  Result<T> result = run_cpu_sweeps(tensor, settings, 1, schedule,
                        [&](HostTensor<T>& core, const PivotGroup& pairs, std::vector<Matrix<T>>& q) {
                          GroupRotations<T> every_mode(order, pairs);
                          for (std::size_t k = 0; k < pairs.size(); ++k) {
                            const dsl::Givens<double> g = skew_pair_rotation(core, pairs[k].p, pairs[k].q);
                            set_in_every_mode(every_mode, k, {static_cast<T>(g.c), static_cast<T>(g.s)});
                          }
                          apply_group_pass(core, every_mode, settings.threads);
                          apply_group_to_factors(q, one_mode_group(every_mode), settings.threads);
                        });
  record_group_schedule(result, tensor.size(), settings, schedule);
  return result;
}

}  // namespace

template <class T>
Result<T> run_cpu_skew_engine(const HostTensor<T>& tensor, const RunSettings& settings) {
  Result<T> result = tensor.order() == 2 ? run_skew_matrix(tensor, settings) : run_skew_tensor(tensor, settings);
  make_skew_blocks_nonnegative(result);
  return result;
}

template dsl::Givens<double> skew_pair_rotation(const HostTensor<float>&, int, int);
template dsl::Givens<double> skew_pair_rotation(const HostTensor<double>&, int, int);
template void rotate_pair_every_mode(HostTensor<float>&, int, int, dsl::Givens<float>, int);
template void rotate_pair_every_mode(HostTensor<double>&, int, int, dsl::Givens<double>, int);
template Result<float> run_cpu_skew_engine(const HostTensor<float>&, const RunSettings&);
template Result<double> run_cpu_skew_engine(const HostTensor<double>&, const RunSettings&);

}  // namespace tensordiag::runtime
