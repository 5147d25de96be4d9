// Symmetric tensors in packed storage (issue 11, item 1): the index of the distinct entries, the
// rotation, the figures and the verification's transform against full storage, and the packed
// engine against the full symmetric engine and planted answers.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <set>
#include <vector>

#include "planted_symmetric.hpp"
#include "reference_reconstruction.hpp"
#include "relative_difference.hpp"
#include "scoped_environment.hpp"
#include "runtime/algorithm/core_figures.hpp"
#include "runtime/algorithm/for_each_tuple.hpp"
#include "runtime/algorithm/group_rotations.hpp"
#include "runtime/algorithm/packed_figures.hpp"
#include "runtime/algorithm/packed_generator.hpp"
#include "runtime/algorithm/packed_hosvd_start.hpp"
#include "runtime/algorithm/packed_rotation.hpp"
#include "runtime/algorithm/packed_transform.hpp"
#include "runtime/algorithm/random_stream.hpp"
#include "runtime/algorithm/symmetric_rotation.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/core/errors.hpp"
#include "dsl/multisets.hpp"
#include "runtime/core/multiset_index.hpp"
#include "runtime/core/packed_symmetric.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/diagonalize_packed.hpp"
#include "runtime/engines/cpu_packed_route.hpp"
#include "runtime/engines/gpu_packed_engine.hpp"
#include "runtime/engines/group_pass.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using tensordiag::testing::planted;
using tensordiag::testing::planted_options;
using tensordiag::testing::relative_difference;

namespace {

// Every non-decreasing tuple of length r over 0..n-1, in lexicographic order, by plain recursion
// (itertools.combinations_with_replacement).
void all_tuples(int n, int r, std::vector<int>& prefix, std::vector<std::vector<int>>& out) {
  if (static_cast<int>(prefix.size()) == r) {
    out.push_back(prefix);
    return;
  }
  for (int v = prefix.empty() ? 0 : prefix.back(); v < n; ++v) {
    prefix.push_back(v);
    all_tuples(n, r, prefix, out);
    prefix.pop_back();
  }
}

std::vector<std::vector<int>> all_tuples(int n, int r) {
  std::vector<std::vector<int>> out;
  std::vector<int> prefix;
  all_tuples(n, r, prefix, out);
  return out;
}

// A random symmetric tensor in full storage: Gaussian distinct entries, copied to every permutation.
HostTensor<double> random_symmetric(int order, int size, std::uint64_t seed) {
  RandomStream random(seed);
  PackedSymmetricTensor<double> packed(order, size);
  for (double& x : packed.values()) x = random.gaussian();
  return unpack_symmetric(packed);
}

// Every mode of a full tensor rotated by g in the plane (p, q): the full engines' group pass.
void rotate_full(HostTensor<double>& tensor, int p, int q, dsl::Givens<double> g) {
  GroupRotations<double> group(tensor.order(), PivotGroup{{p, q}});
  for (int mode = 0; mode < tensor.order(); ++mode) group.at(mode, 0) = g;
  apply_group_pass(tensor, group, 1);
}

Options cpu_options(int max_sweeps = 30) {
  Options options;
  options.backend = Backend::cpu;
  options.max_sweeps = max_sweeps;
  options.verify = true;
  return options;
}

}  // namespace

TEST_CASE("packed: the index numbers the sorted tuples in lexicographic order") {
  for (const auto& [n, r] : {std::pair{1, 3}, {2, 5}, {3, 0}, {3, 1}, {4, 3}, {5, 4}, {7, 2}, {6, 6}}) {
    CAPTURE(n);
    CAPTURE(r);
    const MultisetIndex index(n, r);
    const auto tuples = all_tuples(n, r);
    REQUIRE(index.count() == tuples.size());
    std::vector<int> stepped(static_cast<std::size_t>(r), 0), unranked(static_cast<std::size_t>(r));
    for (std::size_t e = 0; e < tuples.size(); ++e) {
      CHECK(index.rank(tuples[e]) == e);
      index.unrank(e, unranked);
      CHECK(unranked == tuples[e]);
      CHECK(stepped == tuples[e]);
      CHECK(index.next(stepped) == (e + 1 < tuples.size()));
    }
  }
  CHECK(multiset_count(32, 6) == 2324784);  // binom(37, 6)
  CHECK(multiset_count(2, 40) == 41);
  CHECK_THROWS_WITH_AS(multiset_count(1000, 40),
                       "a symmetric tensor of order 40 and size 1000 has more distinct entries than memory addressing allows",
                       user_error);
  // The count both runtime and codegen take (dsl/multisets.hpp): exact up to its limit, none past it.
  CHECK(tensordiag::dsl::multiset_count(32, 6, 2324784) == 2324784);
  CHECK_FALSE(tensordiag::dsl::multiset_count(32, 6, 2324783).has_value());
  CHECK_FALSE(tensordiag::dsl::multiset_count(1000, 40, 1LL << 62).has_value());
}

TEST_CASE("packed: for_each_tuple visits every tuple once, in any number of parts") {
  const MultisetIndex index(6, 4);
  const auto tuples = all_tuples(6, 4);
  for (const int parts : {1, 2, 3, 7}) {
    std::vector<int> seen(index.count(), 0);
    bool in_order = true;
    for_each_tuple(index, parts, [&](int, std::size_t position, std::span<const int> tuple) {
      seen[position] += 1;
      in_order = in_order && std::vector<int>(tuple.begin(), tuple.end()) == tuples[position];
    });
    CHECK(in_order);
    CHECK(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; }));
  }
}

TEST_CASE("packed: multiplicity counts the distinct permutations of an index") {
  RandomStream random(41);
  for (int trial = 0; trial < 40; ++trial) {
    const int order = 2 + trial % 6;
    std::vector<int> tuple;
    for (int n = 0; n < order; ++n) tuple.push_back(static_cast<int>(random.uniform() * 3));
    std::sort(tuple.begin(), tuple.end());
    std::set<std::vector<int>> permutations;
    std::vector<int> p = tuple;
    do permutations.insert(p);
    while (std::next_permutation(p.begin(), p.end()));
    CAPTURE(order);
    CHECK(multiplicity(tuple) == static_cast<double>(permutations.size()));
  }
}

TEST_CASE("packed: the size follows from the count, and a count no N gives is refused") {
  CHECK(packed_size_of(3, 120) == 8);  // binom(10, 3)
  CHECK(packed_size_of(2, 3) == 2);
  CHECK(packed_size_of(6, 2324784) == 32);
  CHECK_THROWS_WITH_AS(packed_size_of(3, 121),
                       "121 values are no packed symmetric tensor of order 3, which holds binom(N + 2, 3) values: "
                       "120 for N = 8, 165 for N = 9",
                       user_error);
  CHECK_THROWS_AS(packed_size_of(3, 1), user_error);
  CHECK_THROWS_AS(check_packed_shape(1, 4), user_error);
  CHECK_THROWS_AS(check_packed_shape(max_packed_order + 1, 2), user_error);
  CHECK_THROWS_AS(check_packed_shape(3, 1), user_error);
}

TEST_CASE("packed: pack and unpack are inverse on symmetric tensors") {
  for (const auto& [order, size] : {std::pair{2, 5}, {3, 4}, {4, 3}, {5, 2}}) {
    const HostTensor<double> full = random_symmetric(order, size, 7 + static_cast<std::uint64_t>(order));
    const PackedSymmetricTensor<double> packed = pack_symmetric(full);
    CHECK(packed.count() == multiset_count(size, order));
    CHECK(unpack_symmetric(packed).values() == full.values());
  }
}

TEST_CASE("packed: a rotation of every mode equals the full tensor's, to rounding") {
  RandomStream random(5);
  for (const auto& [order, size] : {std::pair{2, 4}, {3, 2}, {3, 5}, {4, 6}, {5, 4}, {6, 3}}) {
    for (int trial = 0; trial < 3; ++trial) {
      const int p = static_cast<int>(random.uniform() * (size - 1));
      const int q = p + 1 + static_cast<int>(random.uniform() * (size - 1 - p));
      const double phi = (random.uniform() - 0.5) * std::numbers::pi;
      const dsl::Givens<double> g{std::cos(phi), std::sin(phi)};
      HostTensor<double> full = random_symmetric(order, size, 100 + static_cast<std::uint64_t>(trial));
      PackedSymmetricTensor<double> packed = pack_symmetric(full);
      rotate_full(full, p, q, g);
      rotate_packed(packed, p, q, g, trial % 2 + 1);
      CAPTURE(order);
      CAPTURE(size);
      CAPTURE(p);
      CAPTURE(q);
      CHECK(relative_difference(packed.values(), pack_symmetric(full).values()) < 1e-14);
    }
  }
}

TEST_CASE("packed: rotations through kept class positions equal those found as they go, bit for bit") {
  RandomStream random(9);
  for (const auto& [order, size] : {std::pair{2, 5}, {3, 2}, {3, 7}, {4, 6}, {5, 8}, {7, 3}, {14, 3}}) {
    CAPTURE(order);
    CAPTURE(size);
    const std::optional<PackedClassPositions> kept = PackedClassPositions::kept_for(order, size);
    REQUIRE(kept);
    CHECK(kept->order() == order);
    CHECK(kept->size() == size);
    PackedSymmetricTensor<double> found = pack_symmetric(random_symmetric(order, size, 200 + static_cast<std::uint64_t>(size)));
    PackedSymmetricTensor<double> stored = found;
    // Every pair's classes together cover each entry holding p or q once.
    for (int q = 1; q < size; ++q) {
      std::multiset<std::uint32_t> covered;
      for (int m = 1; m <= order; ++m)
        for (const std::uint32_t position : kept->of(0, q, m)) covered.insert(position);
      CHECK(covered.size() == multiset_count(size, order) - (size > 2 ? multiset_count(size - 2, order) : 0));
      CHECK(std::set<std::uint32_t>(covered.begin(), covered.end()).size() == covered.size());
    }
    // A sweep of rotations, each pair once, on one and two threads.
    for (int p = 0; p < size; ++p)
      for (int q = p + 1; q < size; ++q) {
        const double phi = (random.uniform() - 0.5) * std::numbers::pi;
        const dsl::Givens<double> g{std::cos(phi), std::sin(phi)};
        const int threads = (p + q) % 2 + 1;
        rotate_packed(found, p, q, g, threads);
        rotate_packed(stored, p, q, g, threads, &*kept);
      }
    CHECK(stored.values() == found.values());
  }
  // Shapes past the kept positions' size find them as they go.
  CHECK_FALSE(PackedClassPositions::kept_for(12, 16));
  CHECK_FALSE(PackedClassPositions::shared_for(12, 16));
  // The last small shape's positions are shared by the next run of that shape; a large shape's
  // are made for each run and not kept.
  const auto first = PackedClassPositions::shared_for(5, 8);
  REQUIRE(first);
  CHECK(PackedClassPositions::shared_for(5, 8) == first);
  CHECK(first->positions() == 28 * (multiset_count(8, 5) - multiset_count(6, 5)));
  const auto large = PackedClassPositions::shared_for(6, 16);
  REQUIRE(large);
  CHECK(large->positions() > PackedClassPositions::most_shared_positions);
  CHECK(PackedClassPositions::shared_for(6, 16) != large);
  CHECK(PackedClassPositions::shared_for(4, 6) != first);
}

TEST_CASE("packed: the figures are the full tensor's") {
  for (const auto& [order, size] : {std::pair{2, 6}, {3, 5}, {5, 3}}) {
    const HostTensor<double> full = random_symmetric(order, size, 9);
    const PackedSymmetricTensor<double> packed = pack_symmetric(full);
    const CoreFigures want = core_figures(full, Structure::symmetric);
    const CoreFigures got = packed_core_figures(packed, 2);
    CHECK(got.off_norm2 == doctest::Approx(want.off_norm2).epsilon(1e-13));
    CHECK(got.diag_norm2 == doctest::Approx(want.diag_norm2).epsilon(1e-13));
    CHECK(got.trace == doctest::Approx(want.trace).epsilon(1e-13));
    double norm2 = 0;
    for (const double x : full.values()) norm2 += x * x;
    CHECK(packed_norm2(packed, 1) == doctest::Approx(norm2).epsilon(1e-13));
  }
}

TEST_CASE("packed: A x_1 M ... x_D M and the reconstruction error are the full tensor's") {
  RandomStream random(13);
  for (const auto& [order, size] : {std::pair{2, 5}, {3, 4}, {4, 5}, {5, 3}}) {
    const HostTensor<double> full = random_symmetric(order, size, 21);
    Matrix<double> m{size, std::vector<double>(static_cast<std::size_t>(size * size))};
    for (double& x : m.data) x = random.gaussian();  // any matrix, not only an orthogonal one
    const HostTensor<double> want = tensordiag::testing::reconstruct(
        full, std::vector<Matrix<double>>(static_cast<std::size_t>(order), m));
    const PackedSymmetricTensor<double> got = multiply_every_mode_packed(pack_symmetric(full), m, 2);
    CAPTURE(order);
    CHECK(relative_difference(got.values(), pack_symmetric(want).values()) < 1e-14);
  }
  // The error of a perturbed reconstruction, against the full verification's.
  const auto truth = planted<double>(4, 5, 3);
  const PackedSymmetricTensor<double> tensor = pack_symmetric(truth.tensor);
  HostTensor<double> core(4, 5);
  for (int i = 0; i < 5; ++i) core.at({i, i, i, i}) = truth.diagonal[static_cast<std::size_t>(i)] * (1 + 1e-6 * i);
  Matrix<double> q = truth.factors.front();
  const double want = reconstruction_error(truth.tensor, core, std::vector<Matrix<double>>(4, q));
  CHECK(want > 1e-8);
  CHECK(packed_reconstruction_error(tensor, pack_symmetric(core), q, 1) == doctest::Approx(want).epsilon(1e-9));
  CHECK(packed_transform_bytes(6, 32) == (std::size_t{5984} * 5984 + std::size_t{528} * 52360) * 8);
}

TEST_CASE("packed: the generator gives the full generator's distinct entries, and its noise the asked size") {
  for (const auto& [order, size] : {std::pair{2, 6}, {3, 5}, {5, 4}}) {
    GeneratorOptions options = planted_options(order, size, 17);
    const auto full = generate_diagonalizable<double>(options);
    const auto packed = generate_packed_symmetric<double>(options);
    CHECK(packed.tensor.values() == pack_symmetric(full.tensor).values());  // bit for bit
    CHECK(packed.diagonal == full.diagonal);
    CHECK(packed.q.data == full.factors.front().data);
    options.noise = 0.25;
    auto noisy = generate_packed_symmetric<double>(options);
    for (std::size_t e = 0; e < noisy.tensor.count(); ++e) noisy.tensor.values()[e] -= packed.tensor.values()[e];
    CHECK(std::sqrt(packed_norm2(noisy.tensor, 1) / packed_norm2(packed.tensor, 1)) == doctest::Approx(0.25).epsilon(1e-12));
  }
  GeneratorOptions general;
  CHECK_THROWS_AS(generate_packed_symmetric<double>(general), user_error);
}

TEST_CASE("packed: every pair's rotation raises ||diag C||^2, and the engine's run is the full engine's") {
  // The packed engine itself at these orders, which otherwise run through full storage.
  tensordiag::test::ScopedEnvironment environment;
  environment.set("TENSORDIAG_PACKED_FULL_BYTES", "0");
  for (const auto& [order, size, schedule] :
       {std::tuple{3, 6, SweepSchedule::round_robin}, {4, 5, SweepSchedule::round_robin},
        {4, 8, SweepSchedule::xor_subspaces}, {2, 7, SweepSchedule::round_robin}}) {
    CAPTURE(order);
    CAPTURE(size);
    const auto truth = planted<double>(order, size, 30 + static_cast<std::uint64_t>(size), 0.05);
    const PackedSymmetricTensor<double> tensor = pack_symmetric(truth.tensor);
    // One sweep by hand: the objective after each pair against before.
    PackedSymmetricTensor<double> c = tensor;
    int pairs = 0;
    for (int p = 0; p < size; ++p)
      for (int q = p + 1; q < size; ++q) {
        const double before = packed_core_figures(c, 1).diag_norm2;
        rotate_packed(c, p, q, symmetric_angle(packed_pivot_values(c, p, q)), 1);
        CHECK(packed_core_figures(c, 1).diag_norm2 >= before * (1 - 1e-14));
        ++pairs;
      }
    CHECK(pairs == size * (size - 1) / 2);

    Options options = cpu_options(6);
    options.tol = 0.0;
    options.stall_tol = 0.0;
    options.schedule = schedule;
    const PackedResult<double> packed = diagonalize_packed(tensor, options);
    options.structure = Structure::symmetric;
    const Result<double> full = diagonalize(truth.tensor, options);
    REQUIRE(packed.run.sweeps() == full.sweeps());
    for (int s = 0; s <= full.sweeps(); ++s)
      CHECK(packed.run.history[static_cast<std::size_t>(s)].off_rel ==
            doctest::Approx(full.history[static_cast<std::size_t>(s)].off_rel).epsilon(1e-9));
    CHECK(relative_difference(packed.core.values(), pack_symmetric(full.core).values()) < 1e-12);
    CHECK(relative_difference(packed.run.factors.front().data, full.factors.front().data) < 1e-12);
    CHECK(packed.run.engine == "cpu_packed");
    CHECK(packed.run.schedule == full.schedule);
    CHECK(packed.run.passes_per_sweep == full.passes_per_sweep);
    CHECK(packed.run.factors.size() == static_cast<std::size_t>(order));
    REQUIRE(packed.run.verification);
    CHECK(packed.run.verification->reconstruction_error <= 30.0 * size * order * std::numeric_limits<double>::epsilon());
  }
}

TEST_CASE("packed: orders 2 and 3 run through full storage on the CPU where it is small, bit for bit the full engine") {
  for (const auto& [order, size] : {std::pair{2, 7}, {3, 9}, {4, 6}, {5, 4}}) {
    CAPTURE(order);
    const auto truth = planted<double>(order, size, 90 + static_cast<std::uint64_t>(order), 0.05);
    Options options = cpu_options(6);
    options.tol = 0.0;
    options.stall_tol = 0.0;
    const PackedResult<double> packed = diagonalize_packed(pack_symmetric(truth.tensor), options);
    if (order > 3) {  // float64 from order 4: the packed engine's own run
      CHECK(packed.run.engine == "cpu_packed");
      continue;
    }
    CHECK(packed.run.engine == "cpu");
    CHECK(packed.run.core.count() == 0);  // the core is packed.core alone
    options.structure = Structure::symmetric;
    // The full engine on the tensor the packed one stands for (its sorted-index entries everywhere).
    const Result<double> full = diagonalize(unpack_symmetric(pack_symmetric(truth.tensor)), options);
    CHECK(packed.core.values() == pack_symmetric(full.core).values());
    CHECK(packed.run.factors.front().data == full.factors.front().data);
    CHECK(packed.run.history.back().off_rel == full.history.back().off_rel);
    REQUIRE(packed.run.verification);
    CHECK(packed.run.verification->reconstruction_error <= 30.0 * size * order * std::numeric_limits<double>::epsilon());
    // Bounded to 0 bytes (TENSORDIAG_PACKED_FULL_BYTES), or past the bound, the packed engine runs.
    tensordiag::test::ScopedEnvironment environment;
    environment.set("TENSORDIAG_PACKED_FULL_BYTES", "0");
    CHECK(diagonalize_packed(pack_symmetric(truth.tensor), options).run.engine == "cpu_packed");
  }
  // The default bound, 256 MiB of full tensor: float64 N = 322 at order 3, not 323; orders > 4 never.
  CHECK(packed_takes_full_route<double>(3, 322));
  CHECK_FALSE(packed_takes_full_route<double>(3, 323));
  CHECK(packed_takes_full_route<float>(3, 406));
  CHECK(packed_takes_full_route<float>(4, 6));  // float32 takes it at order 4 too
  CHECK_FALSE(packed_takes_full_route<double>(4, 6));
  CHECK_FALSE(packed_takes_full_route<float>(5, 2));
  tensordiag::test::ScopedEnvironment environment;
  environment.set("TENSORDIAG_PACKED_FULL_BYTES", "many");
  CHECK_THROWS_WITH_AS(packed_takes_full_route<double>(3, 4), doctest::Contains("TENSORDIAG_PACKED_FULL_BYTES must be"),
                       tensordiag::user_error);
}

TEST_CASE("packed: planted symmetric tensors are recovered, float64 and float32, order 2 to 48") {
  constexpr double eps64 = std::numeric_limits<double>::epsilon();
  for (const auto& [order, size] : {std::pair{3, 8}, {4, 6}, {5, 5}, {6, 4}, {2, 9}, {24, 2}, {48, 2}, {12, 3}, {32, 3}}) {
    CAPTURE(order);
    CAPTURE(size);
    const auto truth =
        generate_packed_symmetric<double>(planted_options(order, size, 50 + static_cast<std::uint64_t>(order)));
    const PackedResult<double> result = diagonalize_packed(truth.tensor, cpu_options(50));
    CHECK(result.run.converged());
    REQUIRE(result.run.verification);
    CHECK(result.run.verification->reconstruction_error <= 30.0 * size * order * eps64);
    CHECK(result.run.verification->orthogonality_error <= 30.0 * size * eps64);
    // Each planted S_l is some C[i..i] up to the sign (+-1)^D of its column of Q.
    const double scale = std::abs(*std::max_element(truth.diagonal.begin(), truth.diagonal.end(),
                                                    [](double x, double y) { return std::abs(x) < std::abs(y); }));
    std::vector<int> diagonal(static_cast<std::size_t>(order));
    std::vector<bool> used(static_cast<std::size_t>(size), false);
    for (const double s : truth.diagonal) {
      double best = std::numeric_limits<double>::infinity();
      int at = -1;
      for (int i = 0; i < size; ++i) {
        std::fill(diagonal.begin(), diagonal.end(), i);
        const double c = result.core.at_sorted(diagonal);
        const double miss = std::min(std::abs(c - s), order % 2 ? std::abs(c + s) : std::abs(c - s));
        if (!used[static_cast<std::size_t>(i)] && miss < best) best = miss, at = i;
      }
      REQUIRE(at >= 0);
      used[static_cast<std::size_t>(at)] = true;
      CHECK(best <= 1e-12 * scale);
    }
  }
  // float32: the reconstruction to the dtype's rounding.
  const PackedResult<float> single =
      diagonalize_packed(generate_packed_symmetric<float>(planted_options(4, 7, 3, 1e-3)).tensor, cpu_options(20));
  REQUIRE(single.run.verification);
  CHECK(single.run.verification->reconstruction_error <= 30.0 * 7 * 4 * std::numeric_limits<float>::epsilon());
  CHECK(single.run.history.back().off_rel < single.run.history.front().off_rel);
}

TEST_CASE("packed: at high orders the run and the check stay within 30 N D eps (long double where copies share rounding)") {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  for (const auto& [order, size] : {std::pair{20, 2}, {40, 2}, {48, 2}, {32, 3}, {16, 5}}) {
    CAPTURE(order);
    CAPTURE(size);
    const auto planted_tensor = generate_packed_symmetric<double>(planted_options(order, size, 7, 1e-2));
    // The check on its own: C = T x Q^T and back is exact in exact arithmetic.
    Matrix<double> qt = planted_tensor.q;
    for (int i = 0; i < size; ++i)
      for (int j = 0; j < size; ++j) qt(i, j) = planted_tensor.q(j, i);
    const auto c = multiply_every_mode_packed(planted_tensor.tensor, qt, 1);
    CHECK(packed_reconstruction_error(planted_tensor.tensor, c, planted_tensor.q, 1) <= 30.0 * size * order * eps);
    // A noisy run, 10 sweeps: its own rotations (classes of up to D slots).
    Options options = cpu_options(10);
    options.tol = 0.0;
    options.stall_tol = 0.0;
    const PackedResult<double> result = diagonalize_packed(planted_tensor.tensor, options);
    REQUIRE(result.run.verification);
    CHECK(result.run.verification->reconstruction_error <= 30.0 * size * order * eps);
  }
}

TEST_CASE("packed: the HOSVD start's Gram matrix is the full tensor's, and its run the full symmetric engine's") {
  for (const auto& [order, size] : {std::pair{3, 6}, {4, 5}, {2, 7}}) {
    CAPTURE(order);
    CAPTURE(size);
    const auto truth = planted<double>(order, size, 60 + static_cast<std::uint64_t>(size), 0.05);
    const PackedSymmetricTensor<double> tensor = pack_symmetric(truth.tensor);
    // G_1 = T_(1) T_(1)^T summed over the full tensor's columns.
    const auto n = static_cast<std::size_t>(size);
    const std::size_t columns = truth.tensor.count() / n;
    std::vector<double> want(n * n, 0.0);
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = 0; b < n; ++b)
        for (std::size_t c = 0; c < columns; ++c)
          want[a * n + b] += truth.tensor.values()[a * columns + c] * truth.tensor.values()[b * columns + c];
    CHECK(relative_difference(packed_gram(tensor, 2), want) < 1e-14);

    Options options = cpu_options(8);
    options.init = Init::hosvd;
    const PackedResult<double> packed = diagonalize_packed(tensor, options);
    options.structure = Structure::symmetric;
    const Result<double> full = diagonalize(truth.tensor, options);
    CHECK(packed.run.hosvd_start);
    REQUIRE(packed.run.sweeps() == full.sweeps());
    CHECK(packed.run.history.front().off_rel == doctest::Approx(full.history.front().off_rel).epsilon(1e-10));
    CHECK(packed.run.history.front().off_rel < 1.0);  // the start gained something
    CHECK(relative_difference(packed.core.values(), pack_symmetric(full.core).values()) < 1e-10);
    CHECK(relative_difference(packed.run.factors.front().data, full.factors.front().data) < 1e-10);
    REQUIRE(packed.run.verification);
    CHECK(packed.run.verification->reconstruction_error <= 30.0 * size * order * std::numeric_limits<double>::epsilon());
  }
  // Without noise the start is the answer: the first record is already at rounding.
  const auto exact = generate_packed_symmetric<double>(planted_options(5, 6, 9));
  Options options = cpu_options(8);
  options.init = Init::hosvd;
  const PackedResult<double> result = diagonalize_packed(exact.tensor, options);
  CHECK(result.run.history.front().off_rel < 1e-12);
  CHECK(result.run.converged());
  CHECK(result.run.sweeps() <= 1);
}

TEST_CASE("packed: the GPU packed engine says why it declines a shape before any device is asked") {
  const auto declined = [](int order, int size) {
    const std::optional<std::string> why = gpu_packed_declines<double>(order, size);
    CAPTURE(order);
    CAPTURE(size);
    REQUIRE(why);
    CHECK(why->find('\n') == std::string::npos);
    return *why;
  };
  CHECK(declined(13, 2).find("order D <= 12 (order 13)") != std::string::npos);
  // A symmetric matrix of 40000 rows (800 million distinct entries): the kernels' N <= 32768, so
  // auto runs it on the CPU rather than failing in the engine.
  CHECK(declined(2, 40000).find("N <= 32768") != std::string::npos);
  if (!cuda_device()) CHECK(declined(3, 8).find("no GPU (") == 0);
  else CHECK_FALSE(gpu_packed_declines<double>(3, 8));
}

TEST_CASE("packed: options and entries it does not take are one-line user errors") {
  const PackedSymmetricTensor<double> tensor = generate_packed_symmetric<double>(planted_options(3, 6, 1)).tensor;
  const auto refused = [&tensor](Options options, const std::string& phrase) {
    CAPTURE(phrase);
    try {
      diagonalize_packed(tensor, options);
      FAIL("accepted");
    } catch (const user_error& error) {
      CHECK(std::string(error.what()).find(phrase) != std::string::npos);
    }
  };
  Options options = cpu_options();
  options.backend = Backend::cuda;
  try {
    diagonalize_packed(generate_packed_symmetric<double>(planted_options(13, 2, 1)).tensor, options);
    FAIL("order 13 accepted on the GPU");
  } catch (const user_error& error) {
    CHECK(std::string(error.what()) == "packed storage on the GPU takes order D <= 12 (order 13): use --backend cpu or auto");
  }
  options = cpu_options();
  options.structure = Structure::skew;
  refused(options, "structure skew takes full storage");
  options = cpu_options();
  options.eta = 0.1;
  refused(options, "pivot check");
  options = cpu_options();
  options.rule = "max_trace";
  refused(options, "rule max_diag");
  options = cpu_options();
  options.schedule = SweepSchedule::xor_subspaces;
  refused(options, "the xor schedule takes N a power of two (N = 6)");
  PackedSymmetricTensor<double> with_nan = tensor;
  with_nan.values()[7] = std::nan("");
  try {
    diagonalize_packed(with_nan, cpu_options());
    FAIL("accepted a NaN");
  } catch (const user_error& error) {
    CHECK(std::string(error.what()) == "the packed tensor holds NaN at entry 7 (index (0, 1, 2))");
  }
  // A shape whose verification would not fit is refused before the run, and runs without it.
  CHECK_THROWS_WITH_AS(check_packed_options(8, 64, cpu_options()),
                       doctest::Contains("for its mode products (more than 8.6 GB): run it with --no-verify"), user_error);
  Options unverified = cpu_options();
  unverified.verify = false;
  CHECK_NOTHROW(check_packed_options(8, 64, unverified));
  unverified.init = Init::hosvd;  // its rotated start takes the same products
  CHECK_THROWS_WITH_AS(check_packed_options(8, 64, unverified),
                       doctest::Contains("starting from the HOSVD of a packed tensor of order 8 and size 64"), user_error);
}

TEST_CASE("packed: a batch runs each tensor as it runs alone, an empty batch or mixed shapes are refused") {
  Options options;
  options.backend = Backend::cpu;
  options.max_sweeps = 5;
  std::vector<PackedSymmetricTensor<double>> batch;
  for (const std::uint64_t seed : {21, 22})
    batch.push_back(generate_packed_symmetric<double>(tensordiag::testing::planted_options(4, 5, seed, 0.05)).tensor);
  const auto results = diagonalize_packed_batch(batch, options);
  REQUIRE(results.size() == 2);
  for (std::size_t b = 0; b < batch.size(); ++b) {
    const PackedResult<double> alone = diagonalize_packed(batch[b], options);
    CHECK(results[b].core.values() == alone.core.values());
    CHECK(results[b].run.factors.front().data == alone.run.factors.front().data);
    CHECK(results[b].run.history.size() == alone.run.history.size());
  }
  CHECK_THROWS_WITH_AS(diagonalize_packed_batch(std::vector<PackedSymmetricTensor<double>>{}, options),
                       "the batch holds no tensor", user_error);
  batch.push_back(generate_packed_symmetric<double>(tensordiag::testing::planted_options(4, 6, 23, 0.05)).tensor);
  CHECK_THROWS_WITH_AS(diagonalize_packed_batch(batch, options), "a batch holds tensors of one shape", user_error);
  // A NaN in the last tensor is refused before the first one runs.
  batch.pop_back();
  batch.back().values()[3] = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_AS(diagonalize_packed_batch(batch, options), user_error);
}

TEST_CASE("packed: a borrowed tensor (read in place, as from Python) runs as the owned one, bit for bit, and is not written") {
  for (const auto& [order, size, init] : {std::tuple{3, 6, Init::identity}, {4, 5, Init::hosvd}, {2, 7, Init::identity}}) {
    CAPTURE(order);
    CAPTURE(size);
    const auto truth = planted<double>(order, size, 70 + static_cast<std::uint64_t>(size), 0.05);
    const PackedSymmetricTensor<double> owned = pack_symmetric(truth.tensor);
    const std::vector<double> before = owned.values();
    const auto borrowed = PackedSymmetricTensor<double>::borrow(order, size, owned.values().data());
    CHECK(borrowed.borrowed());
    CHECK(borrowed.count() == owned.count());
    CHECK(borrowed.data() == owned.values().data());
    Options options = cpu_options(5);
    options.init = init;
    const PackedResult<double> from_owned = diagonalize_packed(owned, options);
    const PackedResult<double> from_borrowed = diagonalize_packed(borrowed, options);
    CHECK(from_borrowed.core.values() == from_owned.core.values());
    CHECK(from_borrowed.run.factors.front().data == from_owned.run.factors.front().data);
    REQUIRE(from_borrowed.run.verification);
    CHECK(from_borrowed.run.verification->reconstruction_error == from_owned.run.verification->reconstruction_error);
    CHECK(owned.values() == before);  // the borrowed values were only read
    // A copy owns its values; writing through the borrowed one, or asking it for a vector, is refused.
    PackedSymmetricTensor<double> copy = borrowed;
    CHECK_FALSE(copy.borrowed());
    CHECK(copy.values() == before);
    PackedSymmetricTensor<double> writable_view = borrowed;
    writable_view = PackedSymmetricTensor<double>::borrow(order, size, owned.values().data());
    CHECK_THROWS_AS(writable_view.values(), tensordiag::internal_error);
    CHECK_THROWS_AS(borrowed.values(), tensordiag::internal_error);
  }
}
