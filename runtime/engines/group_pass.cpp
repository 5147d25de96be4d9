#include "runtime/engines/group_pass.hpp"

#include <omp.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace tensordiag::runtime {

namespace {

// Blocks of the innermost modes, contiguous in memory, sized for the L1 cache: the pass loads the
// 2^(outer modes) blocks of one orbit, mixes them across the outer modes, then applies the inner
// modes inside each block while it is still cached.
constexpr std::size_t block_bytes = 32 * 1024;

template <class T>
inline void rotate_runs(T* __restrict x, T* __restrict y, std::size_t length, dsl::Givens<T> g) {
  const T c = g.c, s = g.s;
  for (std::size_t i = 0; i < length; ++i) {
    const T xi = x[i], yi = y[i];
    x[i] = c * xi + s * yi;
    y[i] = c * yi - s * xi;
  }
}

// Complex runs: x <- al x + conj(be) y, y <- al y - be x (al real), in real arithmetic
// (std::complex's product checks for NaN, which keeps the loop from vectorizing).
template <class R>
inline void rotate_runs(std::complex<R>* x, std::complex<R>* y, std::size_t length, dsl::UnitaryGivens<R> g) {
  R* __restrict xs = reinterpret_cast<R*>(x);
  R* __restrict ys = reinterpret_cast<R*>(y);
  const R al = g.al, br = g.be.real(), bi = g.be.imag();
  for (std::size_t k = 0; k < length; ++k) {
    const R xr = xs[2 * k], xi = xs[2 * k + 1], yr = ys[2 * k], yi = ys[2 * k + 1];
    xs[2 * k] = al * xr + br * yr + bi * yi;
    xs[2 * k + 1] = al * xi + br * yi - bi * yr;
    ys[2 * k] = al * yr - br * xr + bi * xi;
    ys[2 * k + 1] = al * yi - br * xi - bi * xr;
  }
}

// The gather form's coefficients of a rotation: x'_p = c x_p + s_p x_q, x'_q = c x_q + s_q x_p.
template <class T>
void gather_coefficients(const PlaneRotation<T>& g, T& c, T& s_p, T& s_q) {
  if constexpr (is_complex_v<T>) {
    c = T(g.al);
    s_p = std::conj(g.be);
    s_q = -g.be;
  } else {
    c = g.c;
    s_p = g.s;
    s_q = -g.s;
  }
}

// A mode whose runs are shorter than a vector is applied in gather form over each slab of N runs:
// x'[j] = C[j] x[j] + S[j] x[P[j]], with P[j] the same position in the partner run, (C, S) =
// (c, s) at p positions, (c, -s) at q positions and (1, 0) for unpaired indices. The j loop then
// vectorizes (a gather for x[P[j]]), where the run-by-run form would be scalar.
constexpr std::size_t shortest_vector_run = 8;

template <class T>
struct GatherForm {
  std::vector<T> c, s;
  std::vector<std::uint32_t> partner;
};

template <class T>
GatherForm<T> gather_form(const std::vector<PlaneRotation<T>>& rotations, const PivotGroup& pairs, std::size_t size,
                          std::size_t run) {
  const std::size_t slab = size * run;
  GatherForm<T> f{std::vector<T>(slab, T(1)), std::vector<T>(slab, T(0)), std::vector<std::uint32_t>(slab)};
  for (std::size_t j = 0; j < slab; ++j) f.partner[j] = static_cast<std::uint32_t>(j);
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    T c, s_p, s_q;
    gather_coefficients<T>(rotations[k], c, s_p, s_q);
    for (std::size_t i = 0; i < run; ++i) {
      const std::size_t p = static_cast<std::size_t>(pairs[k].p) * run + i;
      const std::size_t q = static_cast<std::size_t>(pairs[k].q) * run + i;
      f.c[p] = f.c[q] = c;
      f.s[p] = s_p;
      f.s[q] = s_q;
      f.partner[p] = static_cast<std::uint32_t>(q);
      f.partner[q] = static_cast<std::uint32_t>(p);
    }
  }
  return f;
}

template <class T>
inline void apply_gather_form(T* __restrict x, T* __restrict scratch, const GatherForm<T>& f) {
  const std::size_t slab = f.c.size();
  const T* __restrict c = f.c.data();
  const T* __restrict s = f.s.data();
  const std::uint32_t* __restrict partner = f.partner.data();
  for (std::size_t j = 0; j < slab; ++j) scratch[j] = c[j] * x[j] + s[j] * x[partner[j]];
  for (std::size_t j = 0; j < slab; ++j) x[j] = scratch[j];
}

// A slab of 32 bytes (N = 8 in float, N = 4 in double) is one AVX2 vector, and the form permutes
// its lanes: x' = C x + S x[P], in registers and in place, with no scratch and no copy back (the
// per-slab copy back was 17-19% of a CPU sweep at N = 8, D = 7). The same products and sums as the
// loop form (the same core bit for bit at N = 8, D = 7 in float32, compared with cmp).
using Floats8 = float __attribute__((vector_size(32)));
using Ints8 = std::int32_t __attribute__((vector_size(32)));
using Doubles4 = double __attribute__((vector_size(32)));
using Longs4 = std::int64_t __attribute__((vector_size(32)));

template <class Vector, class Index, class T>
inline void apply_gather_form_in_registers(T* x, const GatherForm<T>& f, std::size_t slabs) {
  constexpr std::size_t lanes = 32 / sizeof(T);
  Vector c, s;
  Index partner;
  std::memcpy(&c, f.c.data(), 32);
  std::memcpy(&s, f.s.data(), 32);
  for (std::size_t j = 0; j < lanes; ++j) partner[j] = static_cast<std::int32_t>(f.partner[j]);
  for (std::size_t b = 0; b < slabs; ++b) {
    Vector v;
    std::memcpy(&v, x + b * lanes, 32);
    v = c * v + s * __builtin_shuffle(v, partner);
    std::memcpy(x + b * lanes, &v, 32);
  }
}

inline void apply_gather_form_in_registers(float* x, const GatherForm<float>& f, std::size_t slabs) {
  apply_gather_form_in_registers<Floats8, Ints8>(x, f, slabs);
}
inline void apply_gather_form_in_registers(double* x, const GatherForm<double>& f, std::size_t slabs) {
  apply_gather_form_in_registers<Doubles4, Longs4>(x, f, slabs);
}

// Slabs of 64, 128 or 256 bytes (N = 16, 32, 64 in float; 8, 16, 32 in double and in complex64,
// whose overload follows): the loop form with the slab's results in a local array of compile-time
// size, which the compiler keeps in registers, so there is no scratch and no copy back through
// memory (the copy back was 27% of N = 16, D = 5 by perf). The same products and sums as the loop
// form: the same core and factors bit for bit. On the 2-core machine, 10 sweeps, float32: N = 16,
// D = 6 1.11-1.16 s against 1.48-1.54; N = 32, D = 4 0.097-0.100 against 0.136-0.138
// (bench/results/cpu_fixed_slab_2026-11-26.md).
template <std::size_t SLAB, class T>
inline void apply_gather_form_fixed(T* __restrict x, const GatherForm<T>& f, std::size_t slabs) {
  T c[SLAB], s[SLAB];
  std::uint32_t partner[SLAB];
  std::memcpy(c, f.c.data(), sizeof c);
  std::memcpy(s, f.s.data(), sizeof s);
  std::memcpy(partner, f.partner.data(), sizeof partner);
  for (std::size_t b = 0; b < slabs; ++b) {
    T* __restrict slab = x + b * SLAB;
    T out[SLAB];
    for (std::size_t j = 0; j < SLAB; ++j) out[j] = c[j] * slab[j] + s[j] * slab[partner[j]];
    std::memcpy(slab, out, sizeof out);
  }
}

// The same for complex entries, in real arithmetic (apply_gather_form's complex form below).
template <std::size_t SLAB, class R>
inline void apply_gather_form_fixed(std::complex<R>* __restrict x, const GatherForm<std::complex<R>>& f,
                                    std::size_t slabs) {
  R c[2 * SLAB], s[2 * SLAB];
  std::uint32_t partner[SLAB];
  std::memcpy(c, f.c.data(), sizeof c);
  std::memcpy(s, f.s.data(), sizeof s);
  std::memcpy(partner, f.partner.data(), sizeof partner);
  for (std::size_t b = 0; b < slabs; ++b) {
    R* __restrict xs = reinterpret_cast<R*>(x + b * SLAB);
    R out[2 * SLAB];
    for (std::size_t j = 0; j < SLAB; ++j) {
      const R xr = xs[2 * j], xi = xs[2 * j + 1], yr = xs[2 * partner[j]], yi = xs[2 * partner[j] + 1];
      const R cr = c[2 * j], ci = c[2 * j + 1], sr = s[2 * j], si = s[2 * j + 1];
      out[2 * j] = cr * xr - ci * xi + sr * yr - si * yi;
      out[2 * j + 1] = cr * xi + ci * xr + sr * yi + si * yr;
    }
    std::memcpy(xs, out, sizeof out);
  }
}

// The same for complex entries, in real arithmetic (see rotate_runs).
template <class R>
inline void apply_gather_form(std::complex<R>* x, std::complex<R>* scratch, const GatherForm<std::complex<R>>& f) {
  const std::size_t slab = f.c.size();
  const R* __restrict c = reinterpret_cast<const R*>(f.c.data());
  const R* __restrict s = reinterpret_cast<const R*>(f.s.data());
  const R* __restrict xs = reinterpret_cast<const R*>(x);
  R* __restrict out = reinterpret_cast<R*>(scratch);
  const std::uint32_t* __restrict partner = f.partner.data();
  for (std::size_t j = 0; j < slab; ++j) {
    const R xr = xs[2 * j], xi = xs[2 * j + 1], yr = xs[2 * partner[j]], yi = xs[2 * partner[j] + 1];
    const R cr = c[2 * j], ci = c[2 * j + 1], sr = s[2 * j], si = s[2 * j + 1];
    out[2 * j] = cr * xr - ci * xi + sr * yr - si * yi;
    out[2 * j + 1] = cr * xi + ci * xr + sr * yi + si * yr;
  }
  for (std::size_t j = 0; j < slab; ++j) x[j] = scratch[j];
}

// The gather form on `slabs` consecutive slabs of x, in the fastest form for its slab's size: one
// AVX2 vector (32 bytes, real), a fixed-size slab (64, 128 or 256 bytes), else the loop form
// through `scratch` (a slab's entries). complex128 keeps the loop form: the fixed form measured no
// faster there (complex64 N = 16, D = 5: 0.16-0.18 s against 0.19-0.23; complex128 N = 16, D = 5:
// 0.16-0.18 against 0.15-0.21; bench/results/cpu_fixed_slab_2026-11-26.md).
template <class T>
void apply_gather_form_to_slabs(T* x, T* scratch, const GatherForm<T>& f, std::size_t slabs) {
  const std::size_t bytes = f.c.size() * sizeof(T);
  if constexpr (!is_complex_v<T>)
    if (bytes == 32) return apply_gather_form_in_registers(x, f, slabs);
  if constexpr (!std::is_same_v<T, std::complex<double>>) {
    switch (bytes) {
      case 64: return apply_gather_form_fixed<64 / sizeof(T)>(x, f, slabs);
      case 128: return apply_gather_form_fixed<128 / sizeof(T)>(x, f, slabs);
      case 256: return apply_gather_form_fixed<256 / sizeof(T)>(x, f, slabs);
      default: break;
    }
  }
  for (std::size_t b = 0; b < slabs; ++b) apply_gather_form(x + b * f.c.size(), scratch, f);
}

// The pairs of the group and their rotations, seen in memory-mode order.
template <class T>
struct MemoryModeRotations {
  std::vector<std::vector<PlaneRotation<T>>> by_mode;  // [memory mode][pair]
  std::vector<int> representatives;                  // p of each pair, then the unpaired indices
  std::vector<int> partner;                          // partner of each representative, -1 if none
  std::vector<int> pair_of;                          // pair index of each representative, -1 if none
};

template <class T>
MemoryModeRotations<T> memory_mode_rotations(int order, int size, Layout layout, const GroupRotations<T>& group) {
  MemoryModeRotations<T> r;
  r.by_mode.resize(static_cast<std::size_t>(order));
  for (int k = 0; k < order; ++k) {
    const int mode = layout == Layout::c_order ? k : order - 1 - k;
    for (std::size_t pair = 0; pair < group.pairs.size(); ++pair)
      r.by_mode[static_cast<std::size_t>(k)].push_back(group.at(mode, pair));
  }
  std::vector<bool> paired(static_cast<std::size_t>(size), false);
  for (std::size_t pair = 0; pair < group.pairs.size(); ++pair) {
    r.representatives.push_back(group.pairs[pair].p);
    r.partner.push_back(group.pairs[pair].q);
    r.pair_of.push_back(static_cast<int>(pair));
    paired[static_cast<std::size_t>(group.pairs[pair].p)] = paired[static_cast<std::size_t>(group.pairs[pair].q)] = true;
  }
  for (int i = 0; i < size; ++i)
    if (!paired[static_cast<std::size_t>(i)]) {
      r.representatives.push_back(i);
      r.partner.push_back(-1);
      r.pair_of.push_back(-1);
    }
  return r;
}

}  // namespace

template <class T>
void apply_group_pass(HostTensor<T>& tensor, const GroupRotations<T>& group, int threads) {
  apply_group_pass(tensor.data(), tensor.order(), tensor.size(), tensor.layout(), group, threads);
}

template <class T>
void apply_group_pass(T* tensor_data, int order, int tensor_size, Layout layout, const GroupRotations<T>& group,
                      int threads) {
  const std::size_t size = static_cast<std::size_t>(tensor_size);
  const auto rot = memory_mode_rotations(order, tensor_size, layout, group);
  const PivotGroup& pairs = group.pairs;

  // inner = number of innermost memory modes in a block; outer = the rest.
  int inner = 1;
  std::size_t block = size;
  while (inner < order && block * size * sizeof(T) <= block_bytes) {
    block *= size;
    ++inner;
  }
  const int outer = order - inner;
  std::vector<std::size_t> outer_stride(static_cast<std::size_t>(outer));  // in blocks
  for (int k = outer - 1, s = 1; k >= 0; --k, s *= static_cast<int>(size)) outer_stride[static_cast<std::size_t>(k)] = static_cast<std::size_t>(s);

  // Inner memory mode k has runs of N^(order-1-k) entries; short ones use the gather form.
  std::vector<GatherForm<T>> gather_forms(static_cast<std::size_t>(order));
  {
    std::size_t run = block;
    for (int k = outer; k < order; ++k) {
      run /= size;
      if (run < shortest_vector_run)
        gather_forms[static_cast<std::size_t>(k)] = gather_form<T>(rot.by_mode[static_cast<std::size_t>(k)], pairs, size, run);
    }
  }

  const std::size_t reps = rot.representatives.size();
  std::size_t orbits = 1;
  for (int k = 0; k < outer; ++k) orbits *= reps;
  if (threads <= 0) threads = omp_get_max_threads();
  std::size_t count = 1;
  for (int k = 0; k < order; ++k) count *= size;
  const bool parallel = orbits > 1 && count >= threaded_pass_entries;

#pragma omp parallel num_threads(threads) if (parallel)
  {
    std::vector<T*> blocks(std::size_t{1} << outer, nullptr);
    std::vector<int> rep_of_mode(static_cast<std::size_t>(outer));
    std::vector<T> scratch(size * shortest_vector_run);
#pragma omp for schedule(static)
    for (std::size_t orbit = 0; orbit < orbits; ++orbit) {
      // The orbit's representative index in each outer mode; its blocks are all choices of
      // representative-or-partner per paired outer mode, keyed by a bit mask over the outer modes.
      unsigned paired_mask = 0;
      std::size_t rest = orbit;
      for (int k = outer - 1; k >= 0; --k) {
        const std::size_t digit = rest % reps;
        rest /= reps;
        rep_of_mode[static_cast<std::size_t>(k)] = static_cast<int>(digit);
        if (rot.partner[digit] >= 0) paired_mask |= 1u << k;
      }
      for (unsigned mask = 0; mask < (1u << outer); ++mask) {
        if (mask & ~paired_mask) continue;
        std::size_t offset = 0;
        for (int k = 0; k < outer; ++k) {
          const std::size_t rep = static_cast<std::size_t>(rep_of_mode[static_cast<std::size_t>(k)]);
          const int index = (mask >> k) & 1 ? rot.partner[rep] : rot.representatives[rep];
          offset += static_cast<std::size_t>(index) * outer_stride[static_cast<std::size_t>(k)];
        }
        blocks[mask] = tensor_data + offset * block;
      }
      // Outer modes: whole blocks mix pairwise.
      for (int k = 0; k < outer; ++k) {
        if (!((paired_mask >> k) & 1)) continue;
        const std::size_t rep = static_cast<std::size_t>(rep_of_mode[static_cast<std::size_t>(k)]);
        const auto g = rot.by_mode[static_cast<std::size_t>(k)][static_cast<std::size_t>(rot.pair_of[rep])];
        if (is_identity<T>(g)) continue;
        for (unsigned mask = 0; mask < (1u << outer); ++mask)
          if (!(mask & ~paired_mask) && !((mask >> k) & 1)) rotate_runs(blocks[mask], blocks[mask | (1u << k)], block, g);
      }
      // Inner modes, inside each block: runs of length N^(order-1-k) at p and q mix.
      for (unsigned mask = 0; mask < (1u << outer); ++mask) {
        if (mask & ~paired_mask) continue;
        T* data = blocks[mask];
        std::size_t run = block;
        for (int k = outer; k < order; ++k) {
          run /= size;
          const std::size_t slab = run * size;
          if (run < shortest_vector_run) {
            apply_gather_form_to_slabs(data, scratch.data(), gather_forms[static_cast<std::size_t>(k)], block / slab);
            continue;
          }
          const auto& mode_rotations = rot.by_mode[static_cast<std::size_t>(k)];
          for (std::size_t base = 0; base < block; base += slab)
            for (std::size_t pair = 0; pair < pairs.size(); ++pair) {
              const auto g = mode_rotations[pair];
              if (is_identity<T>(g)) continue;
              rotate_runs(data + base + static_cast<std::size_t>(pairs[pair].p) * run,
                          data + base + static_cast<std::size_t>(pairs[pair].q) * run, run, g);
            }
        }
      }
    }
  }
}

// Row by row, every pair within the row: the factors are row-major, so a pair's columns are strided,
// and a loop over pairs outside the rows would load each cache line of M once per pair touching it
// (N/2 times per group: at N = 1700 that was the symmetric engine's largest cost, 35% at N = 500).
// The pairs are disjoint, so each entry gets the same one update either way: the result is the same
// bit for bit.
template <class T>
void rotate_rows(T* x, T* y, std::size_t length, dsl::Givens<T> g) {
  if (!is_identity<T>(g)) rotate_runs(x, y, length, g);
}

template <class T>
void apply_group_to_factors(std::vector<Matrix<T>>& factors, const GroupRotations<T>& group, int threads) {
  const std::size_t pairs = group.pairs.size();
  if (pairs == 0) return;
  if (threads <= 0) threads = omp_get_max_threads();
  for (int mode = 0; mode < group.order; ++mode) {
    Matrix<T>& m = factors[static_cast<std::size_t>(mode)];
    const PlaneRotation<T>* rotations = &group.at(mode, 0);
    // Rows on the threads where the factor is as large as a threaded pass (at D = 2 it is as large
    // as the matrix). Each row is its own.
    const bool parallel = threads > 1 && static_cast<std::size_t>(m.n) * static_cast<std::size_t>(m.n) >= threaded_pass_entries;
#pragma omp parallel for num_threads(threads) schedule(static) if (parallel)
    for (int row = 0; row < m.n; ++row) {
      T* r = &m(row, 0);
      for (std::size_t pair = 0; pair < pairs; ++pair) {
        const auto g = rotations[pair];
        const auto [p, q] = group.pairs[pair];
        const T x = r[p], y = r[q];
        if constexpr (is_complex_v<T>) {  // M <- M G, G = [[al, -conj(be)], [be, al]]
          r[p] = g.al * x + g.be * y;
          r[q] = g.al * y - std::conj(g.be) * x;
        } else {
          r[p] = g.c * x + g.s * y;
          r[q] = g.c * y - g.s * x;
        }
      }
    }
  }
}

template void apply_group_pass(HostTensor<float>&, const GroupRotations<float>&, int);
template void apply_group_pass(float*, int, int, Layout, const GroupRotations<float>&, int);
template void apply_group_pass(double*, int, int, Layout, const GroupRotations<double>&, int);
template void apply_group_pass(HostTensor<double>&, const GroupRotations<double>&, int);
template void rotate_rows(float*, float*, std::size_t, dsl::Givens<float>);
template void rotate_rows(double*, double*, std::size_t, dsl::Givens<double>);
template void apply_group_to_factors(std::vector<Matrix<float>>&, const GroupRotations<float>&, int);
template void apply_group_to_factors(std::vector<Matrix<double>>&, const GroupRotations<double>&, int);
template void apply_group_pass(HostTensor<std::complex<float>>&, const GroupRotations<std::complex<float>>&, int);
template void apply_group_pass(HostTensor<std::complex<double>>&, const GroupRotations<std::complex<double>>&, int);
template void apply_group_to_factors(std::vector<Matrix<std::complex<float>>>&, const GroupRotations<std::complex<float>>&, int);
template void apply_group_to_factors(std::vector<Matrix<std::complex<double>>>&,
                                     const GroupRotations<std::complex<double>>&, int);

}  // namespace tensordiag::runtime
