#pragma once
// Small real CUDA sources for the NVRTC and kernel cache tests, and for the worker processes that
// the cache tests spawn.
#include <string>

namespace tensordiag::test {

inline const std::string saxpy_source = R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

// A template instantiated twice, and a C++20 concept: the kernels get mangled names.
inline const std::string template_source = R"(
template <class T>
concept Arithmetic = requires(T a) { a * a + a; };

template <Arithmetic T, int N>
__global__ void dot_rows(const T* x, const T* w, T* out) {
  T sum = 0;
#pragma unroll
  for (int k = 0; k < N; ++k) sum += x[threadIdx.x * N + k] * w[k];
  out[threadIdx.x] = sum;
}

template __global__ void dot_rows<double, 8>(const double*, const double*, double*);
template __global__ void dot_rows<float, 4>(const float*, const float*, float*);
)";

inline const std::string dot_rows_double_8 = "_Z8dot_rowsIdLi8EEvPKT_S2_PS0_";
inline const std::string dot_rows_float_4 = "_Z8dot_rowsIfLi4EEvPKT_S2_PS0_";

// Line 3 names an undeclared identifier.
inline const std::string syntax_error_source = R"(extern "C" __global__ void broken(float* x) {
  x[0] = 1.0f;
  x[1] = undeclared_value;
}
)";

// A different kernel for every index, each named "scale_<index>".
inline std::string scale_source(int index) {
  const std::string suffix = std::to_string(index);
  return "extern \"C\" __global__ void scale_" + suffix + "(float* x) {\n  x[threadIdx.x] *= " +
         suffix + ".0f;\n}\n";
}

}  // namespace tensordiag::test
