#include "runtime/algorithm/murnaghan_step.hpp"

#include <Eigen/Dense>
#include <cmath>

namespace tensordiag::runtime {

namespace {

using Vector = Eigen::VectorXd;
using Square = Eigen::MatrixXd;

// The unit vector along what is left of `v` after removing its components along `basis`' columns.
Vector residual(Vector v, const Square& basis, int columns) {
  for (int c = 0; c < columns; ++c) v -= basis.col(c).dot(v) * basis.col(c);
  for (int c = 0; c < columns; ++c) v -= basis.col(c).dot(v) * basis.col(c);  // twice: orthogonal to rounding
  return v;
}

// An orthonormal completion of the first `columns` columns of `basis` by the unit vectors e_i, the
// one with the largest residual first.
void complete(Square& basis, int columns) {
  const int k = static_cast<int>(basis.rows());
  for (int c = columns; c < k; ++c) {
    Vector best;
    for (int i = 0; i < k; ++i) {
      const Vector r = residual(Vector::Unit(k, i), basis, c);
      if (best.size() == 0 || r.norm() > best.norm()) best = r;
    }
    basis.col(c) = best / best.norm();
  }
}

}  // namespace

std::vector<double> murnaghan_step(const std::vector<double>& s_values, int k) {
  const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> s(s_values.data(), k, k);
  const double scale = s.norm();
  Square w = Square::Identity(k, k);
  if (scale > 0) {
    // The top invariant plane: v1 the dominant eigenvector of S^T S = -S^2, and S v1, which lies in
    // the same eigenspace and is orthogonal to v1 (S skew). Its complement is invariant too (S normal).
    const Eigen::SelfAdjointEigenSolver<Square> solver(s.transpose() * s);
    Square planes(k, k);  // columns: the top plane (2), then the rest (k - 2), orthonormal
    planes.col(0) = solver.eigenvectors().col(k - 1);
    planes.col(1) = residual(s * planes.col(0), planes, 1).normalized();
    complete(planes, 2);
    // The plane the first unit (indices 0, 1) gets: the one it overlaps most; k = 3: the top one.
    const auto overlap = [&](int column) { return planes.block(0, column, 2, 2).squaredNorm(); };
    const int first_plane = (k == 4 && overlap(2) > overlap(0)) ? 2 : 0;
    // Columns out, out + 1 of W (the first `out` already set): the plane's vector nearest e_index, a, and b = -S a / |S a|, so that
    // a^T S b = |S a| >= 0 (S vanishing on the plane: b the plane's other direction).
    const auto fill_unit = [&](int index, int plane_column, int out) {
      const Square plane = planes.middleCols(plane_column, 2);
      const Vector projected = plane * (plane.transpose() * Vector::Unit(k, index));
      // Against the columns so far: a small projection's rounding is not orthogonal to them.
      const Vector a = residual(projected.norm() > 1e-8 ? projected : Vector(plane.col(0)), w, out).normalized();
      Vector b = -(s * a);
      if (b.norm() <= 1e-14 * scale) {
        const Vector r0 = residual(plane.col(0), a, 1), r1 = residual(plane.col(1), a, 1);
        b = r0.norm() > r1.norm() ? r0 : r1;
      }
      // Against every column so far, not a alone: -S a of the weaker plane carries rounding of the
      // stronger plane's size (eps s1 against s2).
      w.col(out) = a;
      w.col(out + 1) = residual(b, w, out + 1).normalized();
    };
    fill_unit(0, first_plane, 0);
    if (k == 4) {
      fill_unit(2, 2 - first_plane, 2);
    } else {  // the leftover index: the null direction, signed toward e_2
      const Vector n = residual(Vector::Unit(k, 2), w, 2);
      if (n.norm() > 1e-8) w.col(2) = n.normalized();
      else complete(w, 2);
    }
  }
  std::vector<double> out(static_cast<std::size_t>(k) * k);
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j) out[static_cast<std::size_t>(i) * k + j] = w(i, j);
  return out;
}

}  // namespace tensordiag::runtime
