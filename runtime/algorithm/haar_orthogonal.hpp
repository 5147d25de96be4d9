#pragma once
// Haar-distributed orthogonal matrices for the seeded test tensors (generator.hpp,
// packed_generator.hpp).
#include "runtime/algorithm/random_stream.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

// QR of an n x n Gaussian matrix (drawn row by row from `random`) with R's diagonal made positive
// (Mezzadri 2007), so the distribution does not depend on the QR algorithm's sign choices.
Matrix<double> haar_orthogonal(int n, RandomStream& random);

}  // namespace tensordiag::runtime
