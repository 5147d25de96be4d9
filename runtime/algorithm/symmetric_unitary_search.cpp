#include "runtime/algorithm/symmetric_unitary_search.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <tuple>
#include <utility>

#include <omp.h>

#include "dsl/symmetric_unitary_angle.hpp"

namespace tensordiag::runtime {

namespace {

using cd = std::complex<double>;
using Vec3 = std::array<double, 3>;

// The rotation [[a, -conj(b)], [b, conj(a)]], by its first column.
struct Su2 {
  cd a{1.0}, b{0.0};
};

// g h: the rotation h applied after g in every mode (C x_n g^H x_n h^H = C x_n (g h)^H).
Su2 compose(Su2 g, Su2 h) { return {g.a * h.a - std::conj(g.b) * h.b, g.b * h.a + std::conj(g.a) * h.b}; }

// The rotation of the local coordinate w: [[sqrt(1 - |w|^2), -conj(w)], [w, sqrt(1 - |w|^2)]].
Su2 local_rotation(cd w) { return {cd(std::sqrt(std::max(0.0, 1.0 - std::norm(w))), 0.0), w}; }

// The Bloch vector of the first column, and a rotation whose first column has it (of the twins n
// and -n, which give the same f, the one with n_3 >= 0: a >= 1 / sqrt 2).
Vec3 bloch_of(Su2 g) {
  const cd w = std::conj(g.a) * g.b;
  return {2.0 * w.real(), 2.0 * w.imag(), std::norm(g.a) - std::norm(g.b)};
}
Su2 rotation_of(Vec3 n) {
  if (n[2] < 0.0) n = {-n[0], -n[1], -n[2]};
  const double a = std::sqrt(0.5 * (1.0 + n[2]));
  return {cd(a, 0.0), cd(n[0], n[1]) / (2.0 * a)};
}

double angle_between(const Vec3& x, const Vec3& y) {
  const Vec3 cross{x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]};
  return std::atan2(std::sqrt(cross[0] * cross[0] + cross[1] * cross[1] + cross[2] * cross[2]),
                    x[0] * y[0] + x[1] * y[1] + x[2] * y[2]);
}

// f near a rotation, in the local coordinate w of the rotation applied after it:
//   f(w) = f0 + 2 Re(g w) + h |w|^2 + 2 Re(q w^2) + O(|w|^3),
// from C'_{p..p} = A0 (1 - D |w|^2 / 2) + A1 conj(w) + A2 conj(w)^2 and C'_{q..q} = B0 (1 - D |w|^2 / 2)
// + B1 w + B2 w^2, A = (t_0, D t_1, binom(D, 2) t_2), B = (t_D, -D t_(D-1), binom(D, 2) t_(D-2)) of the
// pivot values there. A geodesic step s on the Bloch sphere is |w| = sin(s / 2): |g| is f's
// gradient there, and (h + 2 |q|) / 2 its largest second derivative along a geodesic.
struct LocalModel {
  double f0;
  cd g;
  double h;
  cd q;
};

// The model's g from the end values t_0, t_1, t_(D-1), t_D: A0 conj(A1) + conj(B0) B1.
cd linear_term(cd t0, cd t1, cd t_last1, cd t_last, int order) {
  const double d = order;
  return t0 * std::conj(d * t1) - std::conj(t_last) * (d * t_last1);
}

// The model from the pivot values r(k) there, k clamped to [0, D].
template <class Values>
LocalModel model_of(int order, const Values& r) {
  const int d = std::max(order, 1);
  const auto at = [&](int k) { return r(std::clamp(k, 0, order)); };
  const double pairs = d * (d - 1) / 2.0;
  const cd a0 = at(0), a1 = static_cast<double>(d) * at(1), a2 = pairs * at(2);
  const cd b0 = at(d), b1 = -static_cast<double>(d) * at(d - 1), b2 = pairs * at(d - 2);
  return {std::norm(a0) + std::norm(b0), linear_term(a0, at(1), at(d - 1), b0, d),
          std::norm(a1) + std::norm(b1) - d * (std::norm(a0) + std::norm(b0)),
          a0 * std::conj(a2) + std::conj(b0) * b2};
}

// The pivot values of the rotations, entry by entry. C' = C x_n G^H in every mode, so entry
// (in, out) of each mode's matrix is conj(G[in][out]): conj(a) p -> p, conj(b) q -> p, -b p -> q,
// a q -> q. An output with j indices q gathers the inputs with alpha of them q among its q's and
// beta among its p's, binom(j, alpha) binom(D - j, beta) ways, each worth t_(alpha + beta).
class Pivot {
public:
  explicit Pivot(SymmetricPivotValues t)
      : t_(t), order_(static_cast<int>(t.size()) - 1), pascal_(t.size() * (t.size() + 1) / 2), tables_(5 * t.size()) {
    for (int n = 0; n <= order_; ++n) {
      double* row = pascal_row(n);
      row[0] = row[n] = 1.0;
      for (int k = 1; k < n; ++k) row[k] = pascal_row(n - 1)[k - 1] + pascal_row(n - 1)[k];
    }
  }

  int order() const { return order_; }
  SymmetricPivotValues values() const { return t_; }

  // Entry j of the values rotated by g. The inner sum's factor binom(D - j, beta) conj(b)^beta
  // conj(a)^(D - j - beta) does not depend on alpha: it is taken once.
  cd entry(Su2 g, int j) {
    set(g);
    const std::size_t size = t_.size();
    const cd *qq = tables_.data(), *pq = qq + size, *qp = pq + size, *pp = qp + size;
    cd* w = tables_.data() + 4 * size;
    const double* to_q = pascal_row(j);
    const double* to_p = pascal_row(order_ - j);
    const int n = order_ - j;
    for (int beta = 0; beta <= n; ++beta) w[beta] = to_p[beta] * qp[beta] * pp[n - beta];
    cd sum = 0.0;
    for (int alpha = 0; alpha <= j; ++alpha) {
      cd inner = 0.0;
      for (int beta = 0; beta <= n; ++beta) inner += w[beta] * t_[static_cast<std::size_t>(alpha + beta)];
      sum += to_q[alpha] * qq[alpha] * pq[j - alpha] * inner;
    }
    return sum;
  }

  double objective(Su2 g) { return std::norm(entry(g, 0)) + std::norm(entry(g, order_)); }

  // f at g and |grad f| there, from the entries 0, 1, D - 1, D.
  std::pair<double, double> objective_and_gradient(Su2 g) {
    const cd first = entry(g, 0), last = entry(g, order_);
    return {std::norm(first) + std::norm(last),
            std::abs(linear_term(first, entry(g, 1), entry(g, order_ - 1), last, order_))};
  }

  std::vector<cd> rotated(Su2 g) {
    std::vector<cd> out(t_.size());
    for (int j = 0; j <= order_; ++j) out[static_cast<std::size_t>(j)] = entry(g, j);
    return out;
  }

  // The local model at g, from the entries 0, 1, 2, D - 2, D - 1, D alone.
  LocalModel model_at(Su2 g) {
    return model_of(order_, [&](int k) { return entry(g, k); });
  }

private:
  double* pascal_row(int n) { return pascal_.data() + static_cast<std::size_t>(n) * (n + 1) / 2; }

  void set(Su2 g) {
    if (g.a == set_.a && g.b == set_.b && ready_) return;
    set_ = g;
    ready_ = true;
    const cd powers_of[4] = {g.a, -g.b, std::conj(g.b), std::conj(g.a)};
    for (int k = 0; k < 4; ++k) {
      cd* table = tables_.data() + k * t_.size();
      table[0] = 1.0;
      for (int e = 1; e <= order_; ++e) table[e] = table[e - 1] * powers_of[k];
    }
  }

  SymmetricPivotValues t_;
  int order_;
  std::vector<double> pascal_;  // row n from n (n + 1) / 2
  std::vector<cd> tables_;      // powers of a, -b, conj(b), conj(a), then entry's inner factors
  Su2 set_;
  bool ready_ = false;
};

// A local maximum reached by Newton's method, its f and the radius about it (on the sphere) in
// which f has no higher point.
struct Climbed {
  Su2 rotation;
  double f;
  double lambda;  // -(largest second derivative along a geodesic) there, 0 where not concave
};

// Newton's method on the sphere from `start`: each step maximizes the local model of the pivot
// values re-centred at the current rotation (where the model is not concave, a gradient step of a
// quarter radian, halved until f rises), kept only where f does not fall; a Newton step whose
// predicted gain is under f's rounding is kept without that test, which rounding would decide,
// and ends the climb. A trial reads the entries 0 and D alone; the model's, only where it is kept.
Climbed climb(Pivot& pivot, Su2 start) {
  constexpr double u = 0x1p-53;
  Su2 g = start;
  double f = pivot.objective(g);
  LocalModel m = pivot.model_at(g);
  for (int iteration = 0; iteration < 60; ++iteration) {
    // In w = x + i y: gradient (2 g_r, -2 g_i), Hessian [[2h + 4 q_r, -4 q_i], [-4 q_i, 2h - 4 q_r]].
    const double gx = 2.0 * m.g.real(), gy = -2.0 * m.g.imag();
    if (gx == 0.0 && gy == 0.0) break;
    const double hxx = 2.0 * m.h + 4.0 * m.q.real(), hyy = 2.0 * m.h - 4.0 * m.q.real(), hxy = -4.0 * m.q.imag();
    const double det = hxx * hyy - hxy * hxy;
    const bool concave = hxx < 0.0 && det > 0.0;
    double sx, sy;
    if (concave) {
      sx = -(hyy * gx - hxy * gy) / det;
      sy = -(-hxy * gx + hxx * gy) / det;
    } else {
      const double length = std::hypot(gx, gy);
      sx = 0.125 * gx / length;
      sy = 0.125 * gy / length;
    }
    if (const double length = std::hypot(sx, sy); length > 0.5) {
      sx *= 0.5 / length;
      sy *= 0.5 / length;
    }
    const bool below_rounding = concave && 0.5 * (gx * sx + gy * sy) <= 64.0 * u * f;
    bool kept = false;
    for (int halving = 0; halving < 60 && !kept; ++halving, sx *= 0.5, sy *= 0.5) {
      const Su2 next = compose(g, local_rotation(cd(sx, sy)));
      const double f_trial = pivot.objective(next);
      if (f_trial >= f || below_rounding) {
        g = next;
        f = std::max(f, f_trial);
        m = pivot.model_at(g);
        kept = true;
      }
      if (below_rounding) break;
    }
    if (!kept || below_rounding) break;
  }
  return {g, f, std::max(0.0, -0.5 * (m.h + 2.0 * std::abs(m.q)))};
}

// A cell of the cube over the sphere: face `face`, the square of gnomonic coordinates
// [x - half, x + half] x [y - half, y + half] (its sides great circles), its centre's Bloch vector,
// f and |grad f| there, and a radius within which the cell lies about its centre: sqrt 2 half, as
// the angle two points of the cube's tangent plane subtend is at most their distance there (the
// plane is at distance 1 from the centre).
struct Cell {
  int face;
  double x, y, half;
  Vec3 centre{};
  double f = 0.0, gradient = 0.0, radius = 0.0;
};

Vec3 cube_point(int face, double x, double y) {
  // Faces 0, 1: n_1 = +-1, (x, y) along (n_2, n_3); 2, 3: n_2 = +-1, along (n_3, n_1); 4, 5: n_3 = +-1,
  // along (n_1, n_2).
  Vec3 p{};
  const int axis = face / 2;
  const double sign = face % 2 == 0 ? 1.0 : -1.0;
  p[static_cast<std::size_t>(axis)] = sign;
  p[static_cast<std::size_t>((axis + 1) % 3)] = x;
  p[static_cast<std::size_t>((axis + 2) % 3)] = y;
  const double norm = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
  for (double& c : p) c /= norm;
  return p;
}

// An upper bound of f over a band of latitude about the identity's Bloch vector n = (0, 0, 1): f
// is bounded by a function of the latitude alone. With x = |a|^2 = cos^2(theta / 2),
//   |C'_{p..p}| <= sum_k binom(D, k) |t_k| |a|^(D-k) |b|^k,   |C'_{q..q}| <= sum_k binom(D, k) |t_k| |b|^(D-k) |a|^k,
// and over theta in [theta_1, theta_2] |a| <= cos(theta_1 / 2), |b| <= sin(theta_2 / 2), so f there is
// at most the sum of the squares of those sums at those values, raised past their rounding (a few
// D ulps). Near a converged pivot (t_k small but for k = 0, D) it is under f(identity) everywhere
// but in two caps about the poles, of radius about 4 D |t_1| / |t_0|.
class LatitudeBound {
public:
  explicit LatitudeBound(const std::vector<cd>& t)
      : order_(static_cast<int>(t.size()) - 1), weight_(t.size()), c_powers_(t.size()), s_powers_(t.size()) {
    double binomial = 1.0;  // binom(D, k)
    for (int k = 0; k <= order_; ++k) {
      weight_[static_cast<std::size_t>(k)] = binomial * std::abs(t[static_cast<std::size_t>(k)]);
      binomial = binomial * (order_ - k) / (k + 1);
    }
  }

  double over(double theta_1, double theta_2) {
    const double c = std::cos(0.5 * std::max(theta_1, 0.0)), s = std::sin(0.5 * std::min(theta_2, pi));
    const std::size_t last = weight_.size() - 1;
    c_powers_[0] = s_powers_[0] = 1.0;
    for (std::size_t k = 1; k <= last; ++k) {
      c_powers_[k] = c_powers_[k - 1] * c;
      s_powers_[k] = s_powers_[k - 1] * s;
    }
    double p = 0.0, q = 0.0;
    for (std::size_t k = 0; k <= last; ++k) {
      p += weight_[k] * c_powers_[last - k] * s_powers_[k];
      q += weight_[k] * s_powers_[last - k] * c_powers_[k];
    }
    return (p * p + q * q) * (1.0 + 64.0 * (order_ + 2.0) * 0x1p-53);
  }

  // The bound over a cell of the sphere (centre n, radius r): the largest of the bands of a fixed
  // partition of [0, pi] that its band of latitude meets (the partition's bounds are taken once).
  double over_cell(const Vec3& centre, double radius) {
    take_table();
    const double theta = std::acos(std::clamp(centre[2], -1.0, 1.0));
    const auto band = [](double angle) {
      return std::clamp(static_cast<int>(angle / pi * table_bands), 0, table_bands - 1);
    };
    double most = 0.0;
    for (int i = band(theta - radius); i <= band(theta + radius); ++i)
      most = std::max(most, table_[static_cast<std::size_t>(i)]);
    return most;
  }

  // The smallest band bound of that partition: no cell's bound is under it, so where it is above
  // a threshold no cell is (and the search skips the test).
  double lowest_band() {
    take_table();
    return lowest_;
  }

private:
  static constexpr double pi = std::numbers::pi;

  // The partition's bounds, taken on first use (the cells need them; the certificate does not).
  void take_table() {
    if (!table_.empty()) return;
    table_.resize(table_bands);
    for (int i = 0; i < table_bands; ++i)
      table_[static_cast<std::size_t>(i)] = over(i * pi / table_bands, (i + 1) * pi / table_bands);
    lowest_ = *std::min_element(table_.begin(), table_.end());
  }

  static constexpr int table_bands = 512;
  int order_;
  std::vector<double> weight_;  // binom(D, k) |t_k|
  std::vector<double> c_powers_, s_powers_;
  std::vector<double> table_;  // over_cell's partition
  double lowest_ = 0.0;
};

// Whether no point of the sphere outside the ball about `peak` (a climbed maximum: f decreases
// away from it out to its reach) or about its twin is more than `tolerance` (relative) above
// `best`, proven by bands of latitude (LatitudeBound): near a converged pivot a few dozen bands,
// where the cells over the sphere take thousands. Where it fails (a far pivot, a band whose middle
// latitude is above best, or more than `most_bands`), the caller searches the sphere.
bool latitudes_certify(LatitudeBound& latitude, int order, const Climbed& peak, double best, double tolerance) {
  if (!(peak.lambda > 0.0)) return false;
  const double m = std::max(order, 1);
  constexpr double pi = std::numbers::pi;
  const double from_identity = angle_between(bloch_of(peak.rotation), Vec3{0.0, 0.0, 1.0});
  constexpr std::size_t most_bands = 512;
  struct Band {
    double low, high;  // theta, from the identity's pole
    double bound = 0.0;  // latitude.over(low, high), once known (a band kept whole keeps it)
    bool known = false;
  };
  std::vector<Band> bands, next;
  for (int i = 0; i < 64; ++i) bands.push_back({pi * i / 64, pi * (i + 1) / 64});
  for (int level = 0; level < 24; ++level) {
    double most = 0.0;  // >= max f: the largest band bound
    for (Band& band : bands) {
      if (!band.known) band = {band.low, band.high, latitude.over(band.low, band.high), true};
      most = std::max(most, band.bound);
    }
    const double reach = 2.0 * peak.lambda / (m * m * m * most);
    // A band stays whole (for the next level's bound on max f) unless it is open: outside the
    // peak's reach and its bound above best. The cap theta <= high about the identity lies within
    // high + from_identity of the peak; the cap theta >= low within pi - low + from_identity of the
    // peak's twin.
    next.clear();
    std::size_t open = 0;
    for (const Band& band : bands) {
      const bool in_reach = band.high + from_identity <= reach || pi - band.low + from_identity <= reach;
      if (in_reach || band.bound <= best * (1.0 + tolerance)) {
        next.push_back(band);
        continue;
      }
      // The bound at a single latitude is what halving tends to: where the middle's is above best,
      // no refinement closes the band.
      const double middle = 0.5 * (band.low + band.high);
      if (latitude.over(middle, middle) > best * (1.0 + tolerance)) return false;
      ++open;
      next.push_back({band.low, middle});
      next.push_back({middle, band.high});
    }
    if (open == 0) return true;
    if (next.size() > most_bands) return false;
    std::swap(bands, next);
  }
  return false;
}

// Branch and bound over the sphere for the climbs past those in `climbed` (the identity's first),
// whose best f is `best`: appends each climb it starts, until no point can be more than `tolerance`
// (relative) above the best of them. The cells of a level are evaluated on up to `threads` threads.
void search_the_sphere(Pivot& pivot, LatitudeBound& latitude, int order, double tolerance, double best,
                       std::vector<Climbed>& climbed, int threads) {
  // Branch and bound over a hemisphere, in cells of a cube's faces seen from its centre. f depends on
  // the Bloch vector n alone, f(n) = f(-n), and along any great circle it is a trigonometric
  // polynomial of degree <= D (a polynomial of degree D in n), so by Bernstein's inequality
  // |f'| <= D M, |f''| <= D^2 M and |f'''| <= D^3 M along it, M = max f. A cell of radius r holds no
  // point above
  //   f(c) + D U r   or   f(c) + |grad f(c)| r + D^2 U r^2 / 2,   for any U >= M;
  // the first grid has D r <= 1/2, so M <= f(c*) + D M r gives U = max f(c) / (1 - D r_max). About a
  // local maximum where f's second derivative along every geodesic is <= -lambda, f' <= -lambda s +
  // D^3 U s^2 / 2 < 0 out to s = 2 lambda / (D^3 U): no point there is higher, and the cells inside
  // that ball (or its twin's) are dropped. A cell centre higher than every climb so far starts a
  // new climb. The search ends when no cell could hold a point 1e-7 above the best climb. Cells
  // whose latitude band LatitudeBound holds under that are never evaluated.
  const int m = std::max(order, 1);
  // Even: the side faces halve; sqrt 2 / per_side <= 1 / (2 D).
  const int per_side = 2 * static_cast<int>(std::ceil(1.42 * m));
  std::vector<Cell> cells;
  Cell highest_cell{-1, 0.0, 0.0, 0.0};
  // A cell whose band of latitude is bounded under best (1 + tolerance) holds no point the
  // search looks for: it is dropped unevaluated, and max f may then be up to that bound.
  double pruned_ceiling = 0.0;
  // The cells of `batch` (a level's children, or the first grid) evaluated and those kept appended
  // to `cells`: f and |grad f| at each centre, on `threads` threads where the batch has 256 cells or
  // more (each thread its own Pivot: its power tables are a cache; a smaller batch is a few hundred
  // microseconds at most, left on one thread: the floor is not tuned), then the cells taken in
  // order for the pruned ceiling and the highest cell, so the search is the same on any number of
  // threads.
  std::vector<Cell> batch;
  std::vector<char> kept;
  const auto evaluate = [&] {
    const double ceiling = best * (1.0 + tolerance);
    const bool prunable = latitude.lowest_band() <= ceiling;  // (takes the bands' table: before the threads)
    kept.assign(batch.size(), 0);
    const auto evaluate_cell = [&](Pivot& own, std::size_t i) {
      Cell& c = batch[i];
      c.centre = cube_point(c.face, c.x, c.y);
      c.radius = std::sqrt(2.0) * c.half;
      if (prunable && latitude.over_cell(c.centre, c.radius) <= ceiling) return;
      std::tie(c.f, c.gradient) = own.objective_and_gradient(rotation_of(c.centre));
      kept[i] = 1;
    };
    const auto count = static_cast<long long>(batch.size());
    if (threads > 1 && count >= 256) {
#pragma omp parallel num_threads(threads)
      {
        Pivot own(pivot.values());
#pragma omp for schedule(static)
        for (long long i = 0; i < count; ++i) evaluate_cell(own, static_cast<std::size_t>(i));
      }
    } else {
      for (std::size_t i = 0; i < batch.size(); ++i) evaluate_cell(pivot, i);
    }
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const Cell& c = batch[i];
      if (!kept[i]) {
        pruned_ceiling = std::max(pruned_ceiling, ceiling);
        continue;
      }
      if (c.f > highest_cell.f || highest_cell.face < 0) highest_cell = c;
      cells.push_back(c);
    }
    batch.clear();
  };
  // The hemisphere n_1 >= 0 (f(n) = f(-n)): the face n_1 = 1, and the halves with n_1 >= 0 of the
  // faces n_2 = +-1 (n_1 is their y) and n_3 = +-1 (n_1 is their x).
  const double side = 2.0 / per_side;
  for (int face : {0, 2, 3, 4, 5})
    for (int i = 0; i < per_side; ++i)
      for (int j = 0; j < per_side; ++j) {
        Cell c{face, -1.0 + (i + 0.5) * side, -1.0 + (j + 0.5) * side, 0.5 * side};
        if ((face == 2 || face == 3) && c.y < 0.0) continue;
        if ((face == 4 || face == 5) && c.x < 0.0) continue;
        batch.push_back(c);
      }
  evaluate();
  const double first_radius = std::sqrt(2.0) * 0.5 * side;
  double bound_all = std::max({highest_cell.f, best, pruned_ceiling}) / (1.0 - m * first_radius);
  constexpr std::size_t most_cells = 1 << 15;
  constexpr std::size_t most_climbs = 8;
  std::vector<Vec3> peaks;
  std::vector<double> reach;
  std::vector<std::size_t> open;  // indices in cells
  for (int level = 0; level < 50 && !cells.empty(); ++level) {
    if (highest_cell.f > best * (1.0 + 0x1p-48) && climbed.size() < most_climbs) {
      climbed.push_back(climb(pivot, rotation_of(highest_cell.centre)));
      best = std::max(best, climbed.back().f);
    }
    peaks.clear();
    reach.clear();
    for (const Climbed& c : climbed)
      if (c.lambda > 0.0) {
        peaks.push_back(bloch_of(c.rotation));
        reach.push_back(2.0 * c.lambda / (static_cast<double>(m) * m * m * bound_all));
      }
    open.clear();
    double highest = best;
    for (std::size_t index = 0; index < cells.size(); ++index) {
      const Cell& c = cells[index];
      double bound = c.f + m * bound_all * c.radius;
      if (bound >= best)
        bound = std::min(bound, c.f + c.gradient * c.radius + 0.5 * m * m * bound_all * c.radius * c.radius);
      if (bound < best) continue;
      bool inside = false;
      for (std::size_t k = 0; k < peaks.size() && !inside; ++k) {
        if (!(c.radius <= reach[k])) continue;  // the angles are >= 0: not inside
        const Vec3 twin{-peaks[k][0], -peaks[k][1], -peaks[k][2]};
        inside = std::min(angle_between(c.centre, peaks[k]), angle_between(c.centre, twin)) + c.radius <= reach[k];
      }
      if (inside) continue;
      highest = std::max(highest, bound);
      open.push_back(index);
    }
    bound_all = std::min(bound_all, std::max(highest, pruned_ceiling));
    if (open.empty() || highest <= best * (1.0 + tolerance) || open.size() * 4 > most_cells) break;
    for (const std::size_t index : open) {
      const Cell& c = cells[index];
      for (const double dx : {-0.5, 0.5})
        for (const double dy : {-0.5, 0.5}) batch.push_back({c.face, c.x + dx * c.half, c.y + dy * c.half, 0.5 * c.half});
    }
    cells.clear();
    evaluate();
  }
}

}  // namespace

double symmetric_unitary_objective(SymmetricPivotValues t, cd a, cd b) { return Pivot(t).objective({a, b}); }

std::vector<cd> rotated_symmetric_pivot(SymmetricPivotValues t, cd a, cd b) { return Pivot(t).rotated({a, b}); }

namespace {

// symmetric_unitary_search on up to `threads` threads (the sphere's cells).
dsl::UnitaryGivens<double> search_step(SymmetricPivotValues t_in, int threads) {
  const int order = static_cast<int>(t_in.size()) - 1;
  double largest = 0.0;
  for (const cd& x : t_in) largest = std::max(largest, std::abs(x));
  if (order < 1 || !(largest > 0.0) || !std::isfinite(largest)) return {};
  // On t scaled by a power of two (exact) to a largest entry in [1, 2): f scales, the rotation not.
  const double scale = std::ldexp(1.0, -std::ilogb(largest));
  std::vector<cd> scaled(t_in.begin(), t_in.end());
  for (cd& x : scaled) x *= scale;
  Pivot pivot(scaled);

  // Newton from the identity first: near convergence its basin holds the maximum, and its value
  // prunes the search below. Where the identity's first-order change is under 2^-60 of the
  // diagonal and nothing else is higher, the step is the identity exactly (as
  // dsl/symmetric_unitary_angle.hpp's leaves it; the CPU pass skips identities).
  const LocalModel at_identity = model_of(order, [&](int k) { return scaled[static_cast<std::size_t>(k)]; });
  const bool still = std::abs(at_identity.g) <= 0x1p-60 * at_identity.f0;
  std::vector<Climbed> climbed{climb(pivot, Su2{})};
  double best = climbed.front().f;

  // The search finds the basin, Newton the point in it: no point may be more than this (relative)
  // above the climb chosen.
  constexpr double tolerance = 1e-7;
  // Near a converged pivot bands of latitude prove the identity's climb highest at once
  // (latitudes_certify); elsewhere the sphere is searched.
  LatitudeBound latitude(scaled);
  if (!latitudes_certify(latitude, order, climbed.front(), best, tolerance))
    search_the_sphere(pivot, latitude, order, tolerance, best, climbed, threads);

  // The highest climb; the identity's unless another is higher beyond rounding.
  std::size_t chosen = 0;
  for (std::size_t k = 1; k < climbed.size(); ++k)
    if (climbed[k].f > climbed[chosen].f * (1.0 + 0x1p-48)) chosen = k;
  if (chosen == 0 && still && climbed[0].f <= at_identity.f0 * (1.0 + 0x1p-48)) return {};
  Su2 rotation = climbed[chosen].rotation;
  // Of the twins, the one nearer the identity: |a| >= |b|, the Bloch vector in the upper hemisphere.
  if (std::abs(rotation.a) < std::abs(rotation.b)) rotation = {-std::conj(rotation.b), std::conj(rotation.a)};
  // A phase e^(i psi) on the first column and its conjugate on the second change no |C'|: a real.
  const double al = std::abs(rotation.a);
  dsl::UnitaryGivens<double> out;
  out.al = al;
  out.be = rotation.b * std::conj(rotation.a) / al;
  if (out.be == cd(0.0)) out.al = 1.0;
  return out;
}

}  // namespace

dsl::UnitaryGivens<double> symmetric_unitary_search(SymmetricPivotValues t) { return search_step(t, 1); }

std::vector<dsl::UnitaryGivens<double>> symmetric_unitary_searches(std::span<const std::complex<double>> t, int order,
                                                                   int threads) {
  const auto values = static_cast<std::size_t>(order) + 1;
  const auto count = static_cast<long long>(t.size() / values);
  std::vector<dsl::UnitaryGivens<double>> steps(static_cast<std::size_t>(count));
  const int team = threads > 0 ? threads : omp_get_max_threads();
  // One pivot (N = 2 and 3: one pair a group) takes the threads for its cells.
  if (count == 1) {
    steps[0] = search_step(t.first(values), team);
    return steps;
  }
#pragma omp parallel for num_threads(team) schedule(dynamic) if (count > 1)
  for (long long k = 0; k < count; ++k)
    steps[static_cast<std::size_t>(k)] = search_step(t.subspan(static_cast<std::size_t>(k) * values, values), 1);
  return steps;
}

}  // namespace tensordiag::runtime
