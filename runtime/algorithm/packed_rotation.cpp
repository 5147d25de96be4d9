#include "runtime/algorithm/packed_rotation.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
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
// K_m's first entry in symmetric_powers' flat array: the m matrices before it hold
// 1 + 4 + .. + m^2 entries.
constexpr std::size_t power_offset(int m) {
  return static_cast<std::size_t>(m) * static_cast<std::size_t>(m + 1) * static_cast<std::size_t>(2 * m + 1) / 6;
}
// The powers into `k` (K_m at power_offset(m)), with `at_p`, `at_q` as work: the coefficients of
// (c + s x)^j and (-s + c x)^j at j (j + 1) / 2. Vectors the caller keeps, so that a pair's
// rotation allocates nothing.
void symmetric_powers(int max_m, dsl::Givens<double> g, std::vector<double>& k, std::vector<double>& at_p,
                      std::vector<double>& at_q) {
  const auto triangle = [](int j) { return static_cast<std::size_t>(j) * static_cast<std::size_t>(j + 1) / 2; };
  at_p.assign(triangle(max_m + 1), 0.0);
  at_q.assign(triangle(max_m + 1), 0.0);
  at_p[0] = at_q[0] = 1.0;
  for (int j = 1; j <= max_m; ++j) {
    const double* last_p = at_p.data() + triangle(j - 1);
    const double* last_q = at_q.data() + triangle(j - 1);
    double* p = at_p.data() + triangle(j);
    double* q = at_q.data() + triangle(j);
    for (int i = 0; i < j; ++i) {
      p[i] += g.c * last_p[i];
      p[i + 1] += g.s * last_p[i];
      q[i] += -g.s * last_q[i];
      q[i + 1] += g.c * last_q[i];
    }
  }
  k.assign(power_offset(max_m + 1), 0.0);
  for (int m = 0; m <= max_m; ++m)
    for (int b = 0; b <= m; ++b) {
      double* row = k.data() + power_offset(m) + static_cast<std::size_t>(b) * static_cast<std::size_t>(m + 1);
      const double* a = at_p.data() + triangle(m - b);  // m - b + 1 coefficients
      const double* c = at_q.data() + triangle(b);      // b + 1
      for (int i = 0; i <= m - b; ++i)
        for (int j = 0; j <= b; ++j) row[i + j] += a[i] * c[j];
    }
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

namespace {

// visit(part, at) for every class of the pair (p, q) with m slots in {p, q}: `at` holds the
// positions of E_b = A[R, p^(m-b), q^b], b = 0..m, in `index` (the tensor's, of `size` symbols
// and `order` slots), R running over the multisets of the D - m other symbols in `parts` parallel
// parts (none at all when N = 2 and m < D).
// How many classes a pair has with m of the `order` slots in {p, q}: one a multiset R of the other
// size - 2 symbols of size order - m (none when N = 2 leaves R no symbol to take).
std::size_t class_count(int size, int order, int m) {
  return size > 2 || m == order ? multiset_count(std::max(size - 2, 1), order - m) : 0;
}

template <class Visit>
void for_each_class(const MultisetIndex& index, int size, int p, int q, int m, int parts, Visit&& visit) {
  const int order = index.length();
  const int others = size - 2;  // the symbols of R: every index but p and q
  const int r = order - m;
  if (class_count(size, order, m) == 0) return;
  const MultisetIndex rests(std::max(others, 1), r);
  // Per part: R's symbols as indices and the class's positions.
  std::vector<std::vector<int>> rests_of(static_cast<std::size_t>(parts), std::vector<int>(static_cast<std::size_t>(r)));
  std::vector<std::vector<std::size_t>> at_of(static_cast<std::size_t>(parts),
                                              std::vector<std::size_t>(static_cast<std::size_t>(m) + 1));
  for_each_tuple(rests, parts, [&](int part, std::size_t, std::span<const int> symbols) {
    std::vector<int>& rest = rests_of[static_cast<std::size_t>(part)];
    std::vector<std::size_t>& at = at_of[static_cast<std::size_t>(part)];
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
    }
    visit(part, std::span<const std::size_t>(at));
  });
}

// The pair's classes of m slots at a time from their stored positions, in parts.
template <class Visit>
void for_each_stored_class(std::span<const std::uint32_t> positions, int m, int parts, Visit&& visit) {
  const std::size_t width = static_cast<std::size_t>(m) + 1, classes = positions.size() / width;
  const int team = parts > 1 ? parts : 1;
#pragma omp parallel num_threads(team) if (team > 1)
  {
    const auto part = static_cast<std::size_t>(omp_get_thread_num());
    for (std::size_t c = classes * part / static_cast<std::size_t>(team);
         c < classes * (part + 1) / static_cast<std::size_t>(team); ++c)
      visit(static_cast<int>(part), positions.subspan(c * width, width));
  }
}

// A thread's work for rotate_packed, kept from one call to the next (a run rotates every pair of
// every group of every sweep: allocations there cost as much as small classes' arithmetic).
struct RotationScratch {
  std::vector<double> e, work;  // a class's values, and its rotated values
  std::vector<long double> wide;  // rotate_class's, for m > max_power_m
  std::vector<double> powers, at_p, at_q;  // symmetric_powers'
};
RotationScratch& rotation_scratch() {
  thread_local RotationScratch scratch;
  return scratch;
}

}  // namespace

PackedClassPositions::PackedClassPositions(int order, int size) : order_(order), size_(size) {
  const MultisetIndex index(size, order);
  for (int p = 0; p < size; ++p)
    for (int q = p + 1; q < size; ++q)
      for (int m = 1; m <= order; ++m) {
        std::vector<std::uint32_t>& positions = positions_.emplace_back();
        for_each_class(index, size, p, q, m, 1, [&](int, std::span<const std::size_t> at) {
          for (const std::size_t position : at) positions.push_back(static_cast<std::uint32_t>(position));
        });
      }
}

std::span<const std::uint32_t> PackedClassPositions::of(int p, int q, int m) const {
  // Pairs in the order (0, 1), (0, 2), .., (1, 2), ..: the pairs before (p, q) are those with a
  // smaller first index, N - 1 - i of them for each i < p, then q - p - 1 with first index p.
  const int before = p * (2 * size_ - p - 1) / 2 + (q - p - 1);
  return positions_[static_cast<std::size_t>(before) * static_cast<std::size_t>(order_) + static_cast<std::size_t>(m - 1)];
}

std::optional<PackedClassPositions> PackedClassPositions::kept_for(int order, int size) {
  // The positions of every pair's classes: each pair's entries that hold p or q, count - binom(N - 2
  // + D - 1, D), and a position is 4 bytes (the tensor's count must fit them).
  const std::size_t count = multiset_count(size, order);
  if (count > std::numeric_limits<std::uint32_t>::max()) return std::nullopt;
  const std::size_t without = size > 2 ? multiset_count(size - 2, order) : 0;
  const std::size_t pairs = static_cast<std::size_t>(size) * static_cast<std::size_t>(size - 1) / 2;
  if (pairs * (count - without) > most_kept_positions) return std::nullopt;
  return PackedClassPositions(order, size);
}

std::size_t PackedClassPositions::positions() const {
  std::size_t total = 0;
  for (const auto& each : positions_) total += each.size();
  return total;
}

std::shared_ptr<const PackedClassPositions> PackedClassPositions::shared_for(int order, int size) {
  static std::mutex mutex;
  static std::shared_ptr<const PackedClassPositions> last;
  const std::lock_guard lock(mutex);
  if (last && last->order() == order && last->size() == size) return last;
  std::optional<PackedClassPositions> made = kept_for(order, size);
  if (!made) return nullptr;
  auto shared = std::make_shared<const PackedClassPositions>(std::move(*made));
  if (shared->positions() <= most_shared_positions) last = shared;
  return shared;
}

template <class T>
void rotate_packed(PackedSymmetricTensor<T>& tensor, int p, int q, dsl::Givens<double> g, int threads,
                   const PackedClassPositions* kept) {
  if (!(0 <= p && p < q && q < tensor.size())) throw internal_error("rotate_packed: needs 0 <= p < q < N");
  if (kept && (kept->order() != tensor.order() || kept->size() != tensor.size()))
    throw internal_error("rotate_packed: class positions of another shape");
  const int order = tensor.order();
  T* values = tensor.values().data();
  // The powers in the calling thread's scratch; each part's thread has its own e, work and wide.
  RotationScratch& mine = rotation_scratch();
  symmetric_powers(std::min(order, max_power_m), g, mine.powers, mine.at_p, mine.at_q);
  const double* powers = mine.powers.data();

  // m = 1 .. D slots in {p, q}: each class read, rotated by the m-th symmetric power, written back.
  for (int m = 1; m <= order; ++m) {
    const std::size_t classes = class_count(tensor.size(), order, m);
    const int parts = tuple_parts(classes * static_cast<std::size_t>(m + 1), parallel_entries, threads);
    const auto rotate = [&](int, auto at) {
      RotationScratch& own = rotation_scratch();
      own.e.resize(static_cast<std::size_t>(m) + 1);
      own.work.resize(static_cast<std::size_t>(m) + 1);
      double* e = own.e.data();
      for (int b = 0; b <= m; ++b) e[b] = static_cast<double>(values[at[static_cast<std::size_t>(b)]]);
      if (m <= max_power_m) {
        const double* km = powers + power_offset(m);
        double* work = own.work.data();
        for (int b = 0; b <= m; ++b) {
          const double* row = km + static_cast<std::size_t>(b) * static_cast<std::size_t>(m + 1);
          double sum = 0.0;
          for (int j = 0; j <= m; ++j) sum += row[j] * e[j];
          work[b] = sum;
        }
        for (int b = 0; b <= m; ++b) values[at[static_cast<std::size_t>(b)]] = static_cast<T>(work[b]);
      } else {
        own.wide.resize(static_cast<std::size_t>(2 * (m + 1) * (m + 1)));
        rotate_class(std::span<double>(e, static_cast<std::size_t>(m) + 1), m, g, own.wide);
        for (int b = 0; b <= m; ++b) values[at[static_cast<std::size_t>(b)]] = static_cast<T>(e[b]);
      }
    };
    if (kept) for_each_stored_class(kept->of(p, q, m), m, parts, rotate);
    else for_each_class(tensor.index(), tensor.size(), p, q, m, parts, rotate);
  }
}

template std::vector<double> packed_pivot_values(const PackedSymmetricTensor<float>&, int, int);
template std::vector<double> packed_pivot_values(const PackedSymmetricTensor<double>&, int, int);
template void rotate_packed(PackedSymmetricTensor<float>&, int, int, dsl::Givens<double>, int,
                            const PackedClassPositions*);
template void rotate_packed(PackedSymmetricTensor<double>&, int, int, dsl::Givens<double>, int,
                            const PackedClassPositions*);

}  // namespace tensordiag::runtime
