#pragma once
// Full-storage symmetric tensors through packed storage on the CPU: the engine table's
// "cpu_packed" entry, before "cpu". From order 5 the packed engine's sweep is faster than full
// storage's on the CPU: 2.0-2.3x at D = 5, N = 8..16, 2.4x and more from D = 6 (since its class
// positions are kept across sweeps: bench/results/cpu_packed_rotation_2026-11-27.md; before,
// packed_symmetric_cpu_2026-11-26.md and cpu_packed_route_2026-11-27.md); at D = 3 and 4 it is up
// to 10x slower (float32 unmeasured), so it takes float64 tensors of orders >= 5.
// The tensor's distinct entries are packed, run_cpu_packed_engine runs the same rotations in the
// same group order (to rounding: the tests hold it to the full engine at 1e-12), and the core is
// unpacked in the input's layout (a symmetric tensor's C and Fortran arrays are the same array).
//
// And the reverse: packed tensors of orders 2 and 3 (and 4 in float32) through full storage on the
// CPU, where the full symmetric engine's sweep is the faster (2 cores, 10 sweeps,
// bench/results/cpu_packed_full_route_2026-11-27.md: D = 2, N = 128..512 6-13x; D = 3, N = 32..128
// 3.8-11x; D = 4 float32 N = 16..32 1.5-2.2x, float64 N = 16 0.8x and N = 32 about even, so float64
// keeps packed storage there), and the full tensor is small: at most TENSORDIAG_PACKED_FULL_BYTES
// (default 256 MiB; 0: never), the run holding it about twice.
#include <cstddef>
#include <optional>
#include <string>

#include "runtime/algorithm/packed_result.hpp"
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/engines/engine.hpp"

namespace tensordiag::runtime {

// The lowest order this route takes (measured, above).
inline constexpr int cpu_packed_route_min_order = 5;

// Why the route does not take the request: another structure, float32, an order below
// cpu_packed_route_min_order, the pivot check or a rule other than max_diag (the packed engine has
// neither).
template <class T>
std::optional<std::string> cpu_packed_route_declines(const HostTensor<T>& first, std::size_t count, const EngineRun& run);

template <class T>
Result<T> run_cpu_packed_route(const HostTensor<T>& tensor, const EngineRun& run);

// The reverse route: its highest order (float32; float64 one less), and its default bound on the
// full tensor's bytes.
inline constexpr int packed_full_route_max_order = 4;
inline constexpr std::size_t packed_full_route_default_bytes = std::size_t{256} << 20;

// Whether a packed tensor of this shape takes the reverse route (orders <= 3, float32 <= 4, the full
// tensor within TENSORDIAG_PACKED_FULL_BYTES).
template <class T>
bool packed_takes_full_route(int order, int size);

// The packed tensor unpacked, run by the full symmetric CPU engine (run_cpu_symmetric_engine), the
// core packed again (its sorted-index entries): the engine's rotations, bit for bit.
template <class T>
PackedResult<T> run_packed_through_full(const PackedSymmetricTensor<T>& tensor, const RunSettings& settings);

extern template std::optional<std::string> cpu_packed_route_declines(const HostTensor<float>&, std::size_t,
                                                                     const EngineRun&);
extern template std::optional<std::string> cpu_packed_route_declines(const HostTensor<double>&, std::size_t,
                                                                     const EngineRun&);
extern template Result<float> run_cpu_packed_route(const HostTensor<float>&, const EngineRun&);
extern template Result<double> run_cpu_packed_route(const HostTensor<double>&, const EngineRun&);
extern template bool packed_takes_full_route<float>(int, int);
extern template bool packed_takes_full_route<double>(int, int);
extern template PackedResult<float> run_packed_through_full(const PackedSymmetricTensor<float>&, const RunSettings&);
extern template PackedResult<double> run_packed_through_full(const PackedSymmetricTensor<double>&, const RunSettings&);

}  // namespace tensordiag::runtime
