#include "runtime/algorithm/packed_rotation.hpp"

#include <algorithm>
#include <span>

#include "runtime/algorithm/for_each_tuple.hpp"
#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

namespace {

// The rotation's m-th symmetric power for m = 0 .. max_m, each (m + 1) x (m + 1) row-major:
// K_m[b][k] = [x^k] (c + s x)^(m-b) (-s + c x)^b, what the slots at p (c [j = p] + s [j = q]) and
// at q (-s [j = p] + c [j = q]) make of E_k. A row's |entries| sum to at most (|c| + |s|)^m <=
// 2^(m/2), the factor on a rounding, so it serves small m only (rotate_class below beyond): 64 at
// m = 12. It is faster where the small classes are most: a D = 6, N = 16 run took 0.37 s with it
// against 0.61 s slot by slot (back to back).
constexpr int max_power_m = 12;
std::vector<std::vector<double>> symmetric_powers(int max_m, dsl::Givens<double> g) {
  std::vector<std::vector<double>> at_p{{1.0}}, at_q{{1.0}};  // coefficients of (c + s x)^j, (-s + c x)^j
  for (int j = 1; j <= max_m; ++j) {
    std::vector<double> p(static_cast<std::size_t>(j) + 1, 0.0), q(static_cast<std::size_t>(j) + 1, 0.0);
    for (std::size_t i = 0; i < at_p.back().size(); ++i) {
      p[i] += g.c * at_p.back()[i];
      p[i + 1] += g.s * at_p.back()[i];
      q[i] += -g.s * at_q.back()[i];
      q[i + 1] += g.c * at_q.back()[i];
    }
    at_p.push_back(std::move(p));
    at_q.push_back(std::move(q));
  }
  std::vector<std::vector<double>> k(static_cast<std::size_t>(max_m) + 1);
  for (int m = 0; m <= max_m; ++m)
    for (int b = 0; b <= m; ++b) {
      std::vector<double> row(static_cast<std::size_t>(m) + 1, 0.0);
      const auto& a = at_p[static_cast<std::size_t>(m - b)];
      const auto& c = at_q[static_cast<std::size_t>(b)];
      for (std::size_t i = 0; i < a.size(); ++i)
        for (std::size_t j = 0; j < c.size(); ++j) row[i + j] += a[i] * c[j];
      k[static_cast<std::size_t>(m)].insert(k[static_cast<std::size_t>(m)].end(), row.begin(), row.end());
    }
  return k;
}

// One class, E_b = A[R, p^(m-b), q^b] for b = 0..m, rotated in place, its m slots one at a time as
// full storage rotates its modes: after j slots the class is X_j[u][v] (u of the j rotated slots
// and v of the m - j others at q; row-major, width m - j + 1), symmetric within each part, and
// rotating one more slot is a Givens combination of two neighbours,
//   X_(j+1)[u][v] = c X_j[u][v] + s X_j[u][v+1]     (the slot at p; u <= j)
//   X_(j+1)[j+1][v] = -s X_j[j][v] + c X_j[j][v+1]  (the slot at q; the one row the first misses),
// so each value is the full tensor's; in long double, since a class's value stands for up to
// binom(D, D/2) full entries whose shared rounding adds coherently (packed_symmetric.hpp: at D = 40
// a run's error 2.1e-11 in double, 1.1e-14 so). `work` holds 2 (m + 1)^2 long doubles.
void rotate_class(std::span<double> e, int m, dsl::Givens<double> rotation, std::span<long double> work) {
  const auto width_of = [m](int j) { return static_cast<std::size_t>(m - j + 1); };
  const struct {
    long double c, s;
  } g{rotation.c, rotation.s};
  long double* x = work.data();
  long double* next = work.data() + static_cast<std::size_t>((m + 1) * (m + 1));
  std::copy(e.begin(), e.end(), x);  // X_0[0][v] = E_v
  for (int j = 0; j < m; ++j) {
    const std::size_t width = width_of(j), next_width = width_of(j + 1);
    for (int u = 0; u <= j; ++u)
      for (std::size_t v = 0; v < next_width; ++v)
        next[static_cast<std::size_t>(u) * next_width + v] =
            g.c * x[static_cast<std::size_t>(u) * width + v] + g.s * x[static_cast<std::size_t>(u) * width + v + 1];
    for (std::size_t v = 0; v < next_width; ++v)
      next[static_cast<std::size_t>(j + 1) * next_width + v] =
          -g.s * x[static_cast<std::size_t>(j) * width + v] + g.c * x[static_cast<std::size_t>(j) * width + v + 1];
    std::swap(x, next);
  }
  for (int u = 0; u <= m; ++u) e[static_cast<std::size_t>(u)] = static_cast<double>(x[u]);  // X_m[u][0], width 1
}

// Below this many entries in a pair's classes a parallel region costs more than it saves.
constexpr std::size_t parallel_entries = std::size_t{1} << 12;

}  // namespace

template <class T>
std::vector<double> packed_pivot_values(const PackedSymmetricTensor<T>& tensor, int p, int q) {
  const int order = tensor.order();
  std::vector<int> tuple(static_cast<std::size_t>(order));
  std::vector<double> t;
  for (int k = 0; k <= order; ++k) {
    std::fill(tuple.begin(), tuple.end() - k, p);
    std::fill(tuple.end() - k, tuple.end(), q);
    t.push_back(static_cast<double>(tensor.at_sorted(tuple)));
  }
  return t;
}

template <class T>
void rotate_packed(PackedSymmetricTensor<T>& tensor, int p, int q, dsl::Givens<double> g, int threads) {
  if (!(0 <= p && p < q && q < tensor.size())) throw internal_error("rotate_packed: needs 0 <= p < q < N");
  const int order = tensor.order();
  const int others = tensor.size() - 2;  // the symbols of R: every index but p and q
  const MultisetIndex& index = tensor.index();
  T* values = tensor.values().data();
  const auto powers = symmetric_powers(std::min(order, max_power_m), g);

  // m = 1 .. D slots in {p, q}; R over the others, of size D - m (none at all when N = 2).
  for (int m = 1; m <= order; ++m) {
    const int r = order - m;
    if (others == 0 && r > 0) continue;
    const MultisetIndex rests(std::max(others, 1), r);
    const int parts = tuple_parts(rests.count() * static_cast<std::size_t>(m + 1), parallel_entries, threads);
    // Per part: R's symbols as indices, the class's positions and values.
    struct Scratch {
      std::vector<int> rest;
      std::vector<std::size_t> at;
      std::vector<double> e, work;
      std::vector<long double> wide;  // rotate_class's, for m > max_power_m
    };
    std::vector<Scratch> scratch(static_cast<std::size_t>(parts),
                                 Scratch{std::vector<int>(static_cast<std::size_t>(r)),
                                         std::vector<std::size_t>(static_cast<std::size_t>(m) + 1),
                                         std::vector<double>(static_cast<std::size_t>(m) + 1),
                                         std::vector<double>(static_cast<std::size_t>(m) + 1),
                                         std::vector<long double>(m > max_power_m ? static_cast<std::size_t>(2 * (m + 1) * (m + 1)) : 0)});
    for_each_tuple(rests, parts, [&](int part, std::size_t, std::span<const int> symbols) {
      auto& [rest, at, e, work, wide] = scratch[static_cast<std::size_t>(part)];
      // R's symbols as indices (skipping p and q, so still sorted); how many lie below p and below q.
      std::size_t below_p = 0, below_q = 0;
      for (std::size_t j = 0; j < rest.size(); ++j) {
        const int above_p = symbols[j] + (symbols[j] >= p);
        rest[j] = above_p + (above_p >= q);
        below_p += rest[j] < p;
        below_q += rest[j] < q;
      }
      // The rank of sorted(R + p^(m-b) + q^b) from its runs: R below p and R above q keep their
      // positions for every b, the p's, R between and the q's move; a run of equal entries adds
      // to the rank only at its first (MultisetIndex::term), so the p's and q's add one term each.
      const int below = static_cast<int>(below_p), between_end = static_cast<int>(below_q);
      std::size_t below_rank = 0;
      int below_last = 0;
      for (int k = 0; k < below; ++k) {
        below_rank += index.term(k, rest[static_cast<std::size_t>(k)], below_last);
        below_last = rest[static_cast<std::size_t>(k)];
      }
      const int above_start = below + m + (between_end - below);  // position of R's first entry above q
      std::size_t above_tail = 0;                                 // R above q after its first entry
      for (int j = between_end + 1; j < r; ++j)
        above_tail += index.term(above_start + j - between_end, rest[static_cast<std::size_t>(j)],
                                 rest[static_cast<std::size_t>(j) - 1]);
      for (int b = 0; b <= m; ++b) {
        std::size_t position = below_rank;
        int previous = below_last, k = below;
        if (m - b > 0) {
          position += index.term(k, p, previous);
          previous = p;
          k += m - b;
        }
        for (int j = below; j < between_end; ++j, ++k) {
          position += index.term(k, rest[static_cast<std::size_t>(j)], previous);
          previous = rest[static_cast<std::size_t>(j)];
        }
        if (b > 0) {
          position += index.term(k, q, previous);
          previous = q;
          k += b;
        }
        if (between_end < r) position += index.term(k, rest[static_cast<std::size_t>(between_end)], previous) + above_tail;
        at[static_cast<std::size_t>(b)] = position;
        e[static_cast<std::size_t>(b)] = static_cast<double>(values[position]);
      }
      if (m <= max_power_m) {
        const auto& km = powers[static_cast<std::size_t>(m)];
        for (int b = 0; b <= m; ++b) {
          const double* row = km.data() + static_cast<std::size_t>(b) * static_cast<std::size_t>(m + 1);
          double sum = 0.0;
          for (int j = 0; j <= m; ++j) sum += row[j] * e[static_cast<std::size_t>(j)];
          work[static_cast<std::size_t>(b)] = sum;
        }
        for (int b = 0; b <= m; ++b) values[at[static_cast<std::size_t>(b)]] = static_cast<T>(work[static_cast<std::size_t>(b)]);
      } else {
        rotate_class(e, m, g, wide);
        for (int b = 0; b <= m; ++b) values[at[static_cast<std::size_t>(b)]] = static_cast<T>(e[static_cast<std::size_t>(b)]);
      }
    });
  }
}

template std::vector<double> packed_pivot_values(const PackedSymmetricTensor<float>&, int, int);
template std::vector<double> packed_pivot_values(const PackedSymmetricTensor<double>&, int, int);
template void rotate_packed(PackedSymmetricTensor<float>&, int, int, dsl::Givens<double>, int);
template void rotate_packed(PackedSymmetricTensor<double>&, int, int, dsl::Givens<double>, int);

}  // namespace tensordiag::runtime
