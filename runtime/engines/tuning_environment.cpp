#include "runtime/engines/tuning_environment.hpp"

#include <cstdlib>
#include <string>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

namespace {

// The integer in variable `name`, `unset` when it is unset or empty; `valid` says which values pass
// (each variable's range fits its Integer).
template <class Integer, class Valid>
Integer integer_setting(const char* name, Integer unset, Valid valid, const char* range) {
  const char* text = std::getenv(name);
  if (!text || !*text) return unset;
  char* end = nullptr;
  const long long value = std::strtoll(text, &end, 10);
  if (*end != '\0' || !valid(value))
    throw user_error(std::string(name) + " must be " + range + ", not '" + std::string(text) + "'");
  return static_cast<Integer>(value);
}

}  // namespace

int subspace_bits_from_environment() {
  return integer_setting("TENSORDIAG_SUBSPACE_BITS", 0, [](long bits) { return bits >= 0 && bits <= 10 && bits != 1; },
                         "0 or 2..10");
}

int pivot_gram_size_from_environment() {
  return integer_setting("TENSORDIAG_PIVOT_GRAM_SIZE", -1, [](long size) { return size >= 0 && size <= 128; },
                         "0..128");
}

int pass_block_size_from_environment() {
  return integer_setting("TENSORDIAG_PASS_BLOCK_SIZE", 0,
                         [](long threads) { return threads == 0 || (threads >= 32 && threads <= 1024 && threads % 32 == 0); },
                         "0 or a multiple of 32 in 32..1024");
}

int pass_warp_shuffles_from_environment() {
  return integer_setting("TENSORDIAG_PASS_WARP_SHUFFLES", -1, [](long on) { return on == 0 || on == 1; }, "0 or 1");
}

int pass_max_registers_from_environment() {
  return integer_setting("TENSORDIAG_PASS_MAX_REGISTERS", -1,
                         [](long registers) { return registers == 0 || (registers >= 32 && registers <= 255); },
                         "0 or 32..255");
}

int pass_register_bits_from_environment() {
  return integer_setting("TENSORDIAG_PASS_REGISTER_BITS", 0, [](long bits) { return bits >= 0 && bits <= 6; }, "0..6");
}

int pass_inner_modes_from_environment() {
  return integer_setting("TENSORDIAG_PASS_INNER_MODES", -1, [](long modes) { return modes >= 1 && modes <= 64; },
                         "1..64");
}

int pass_fma_from_environment() {
  return integer_setting("TENSORDIAG_PASS_FMA", -1, [](long on) { return on == 0 || on == 1; }, "0 or 1");
}

int subspace_angle_warps_from_environment() {
  return integer_setting("TENSORDIAG_SUBSPACE_ANGLE_WARPS", 0, [](long warps) { return warps >= 0 && warps <= 32; },
                         "0..32");
}

int pipelined_groups_from_environment() {
  return integer_setting("TENSORDIAG_PIPELINED_GROUPS", -1, [](long on) { return on == 0 || on == 1; }, "0 or 1");
}

int subspace_mirrored_from_environment() {
  return integer_setting("TENSORDIAG_SUBSPACE_MIRRORED", -1, [](long on) { return on == 0 || on == 1; }, "0 or 1");
}

int subspace_fused_from_environment() {
  return integer_setting("TENSORDIAG_SUBSPACE_FUSED", -1, [](long fused) { return fused >= 0 && fused <= 2; },
                         "0, 1 or 2");
}

int packed_max_orbit_from_environment() {
  return integer_setting("TENSORDIAG_PACKED_MAX_ORBIT", -1, [](long orbit) { return orbit >= 0 && orbit <= 4096; },
                         "0..4096");
}

long long packed_full_bytes_from_environment() {
  return integer_setting("TENSORDIAG_PACKED_FULL_BYTES", -1LL, [](long long bytes) { return bytes >= 0; },
                         "a byte count >= 0");
}

long long host_hosvd_bytes_from_environment() {
  return integer_setting("TENSORDIAG_HOST_HOSVD_BYTES", -1LL, [](long long bytes) { return bytes >= 0; },
                         "a byte count >= 0");
}

int exchange_pieces_from_environment() {
  return integer_setting("TENSORDIAG_EXCHANGE_PIECES", -1, [](long pieces) { return pieces >= 0 && pieces <= 64; },
                         "0..64");
}

int exchange_staging_mib_from_environment() {
  return integer_setting("TENSORDIAG_EXCHANGE_STAGING", -1, [](long mib) { return mib >= 1 && mib <= 4096; },
                         "1..4096 (MiB)");
}

int exchange_pipeline_from_environment() {
  return integer_setting("TENSORDIAG_EXCHANGE_PIPELINE", -1, [](long on) { return on == 0 || on == 1; }, "0 or 1");
}

int chunk_tile_bytes_from_environment() {
  return integer_setting("TENSORDIAG_CHUNK_TILE_BYTES", -1, [](long bytes) { return bytes >= 0 && bytes <= 227 * 1024; },
                         "0..232448");
}

codegen::Tuning tuning_from_environment(codegen::Tuning tuning) {
  const auto unless_unset = [](int& field, int from_environment, int unset) {
    if (from_environment != unset) field = from_environment;
  };
  unless_unset(tuning.subspace_bits, subspace_bits_from_environment(), 0);
  unless_unset(tuning.subspace_angle_warps, subspace_angle_warps_from_environment(), 0);
  unless_unset(tuning.subspace_mirrored, subspace_mirrored_from_environment(), -1);
  unless_unset(tuning.subspace_fused, subspace_fused_from_environment(), -1);
  unless_unset(tuning.pipelined_groups, pipelined_groups_from_environment(), -1);
  unless_unset(tuning.pivot_gram_size, pivot_gram_size_from_environment(), -1);
  unless_unset(tuning.pass_block_size, pass_block_size_from_environment(), 0);
  unless_unset(tuning.pass_warp_shuffles, pass_warp_shuffles_from_environment(), -1);
  unless_unset(tuning.pass_max_registers, pass_max_registers_from_environment(), -1);
  unless_unset(tuning.pass_inner_modes, pass_inner_modes_from_environment(), -1);
  unless_unset(tuning.pass_fma, pass_fma_from_environment(), -1);
  unless_unset(tuning.pass_register_bits, pass_register_bits_from_environment(), 0);
  unless_unset(tuning.packed_max_orbit, packed_max_orbit_from_environment(), -1);
  unless_unset(tuning.chunk_tile_bytes, chunk_tile_bytes_from_environment(), -1);
  return tuning;
}

int chunked_pass_from_environment() {
  return integer_setting("TENSORDIAG_CHUNKED_PASS", -1, [](long on) { return on == 0 || on == 1; }, "0 or 1");
}

}  // namespace tensordiag::runtime
