// The signature table: every kernel a source defines has one, its printed parameter list keeps
// the template's layout (at most 120 columns, continuations under the first parameter), and
// try_plan refuses where plan_kernel throws, with the same reason.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <variant>

#include "codegen/codegen_error.hpp"
#include "codegen/kernel_plan.hpp"
#include "codegen/kernel_signatures.hpp"
#include "codegen/kernel_source.hpp"
#include "kind_sample_shape.hpp"

using namespace tensordiag::codegen;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(text.substr(start, end - start));
  lines.push_back(text.substr(start));
  return lines;
}

}  // namespace

TEST_CASE("every kernel of every kind has a signature") {
  for (const auto& kind : kernel_kinds()) {
    const auto [order, size] = tensordiag::testing::sample_shape(kind, 3, 5);
    for (const KernelEntry& entry : kernel_entries(make_kernel_spec(kind, order, size, "float64", "C", "max_diag")))
      CHECK(kernel_signature(entry.name).name == entry.name);
  }
}

TEST_CASE("parameter_list: the parameters in order, lines within 120 columns, continuations aligned") {
  for (const KernelSignature& signature : kernel_signatures::all) {
    CAPTURE(signature.name);
    const std::string opening = std::string(signature.name) + "(";
    const auto lines = lines_of(opening + parameter_list(signature) + ") {");
    std::string joined = lines.front();
    for (std::size_t i = 0; i < lines.size(); ++i) {
      CHECK(lines[i].size() <= 120);
      if (i == 0) continue;
      CHECK(lines[i - 1].ends_with(","));
      CHECK(lines[i].find_first_not_of(' ') == opening.size());
      joined.append(" ").append(lines[i].substr(opening.size()));
    }
    // "name(type a, type b) {": each comma-separated piece ends with its parameter's name.
    std::vector<std::string> pieces;
    std::size_t start = opening.size();
    for (std::size_t comma; (comma = joined.find(", ", start)) != std::string::npos; start = comma + 2)
      pieces.push_back(joined.substr(start, comma - start));
    pieces.push_back(joined.substr(start, joined.size() - 3 - start));
    REQUIRE(pieces.size() == signature.parameters.size());
    for (std::size_t i = 0; i < pieces.size(); ++i)
      CHECK(pieces[i].substr(pieces[i].rfind(' ') + 1) == signature.parameters[i].name);
  }
  CHECK(parameter_list(kernel_signatures::off_norm_final) ==
        "const double* __restrict__ partials, int count, double* __restrict__ figures");
}

TEST_CASE("try_plan refuses where plan_kernel throws, with the same reason") {
  const KernelSpec fits = make_kernel_spec("small_tensor", 3, 8, "float64", "C", "max_diag");
  const PlanAttempt planned = try_plan(fits);
  REQUIRE(planned.plan);
  CHECK(planned.refusal.empty());
  CHECK(std::holds_alternative<SmallTensorPlan>(planned.plan->kind_plan));

  const KernelSpec too_large = make_kernel_spec("small_tensor", 3, 64, "float64", "C", "max_diag");
  const PlanAttempt refused = try_plan(too_large);
  CHECK_FALSE(refused.plan);
  CHECK(refused.refusal.starts_with("small_tensor: a tensor of 64^3 entries"));
  CHECK_THROWS_WITH_AS(plan_kernel(too_large), ("codegen_error: " + refused.refusal).c_str(), codegen_error);
}

TEST_CASE("the plans give the buffer sizes their kernels need") {
  const auto norm = std::get<LambdaNormPlan>(plan_kernel(make_kernel_spec("lambda_norm", 3, 200, "float64", "C",
                                                                          "max_diag")).kind_plan);
  CHECK(norm.steps == 128);
  CHECK(norm.basis_doubles == 129 * 200);
  const auto pass = std::get<GroupPassPlan>(plan_kernel(make_kernel_spec("group_pass", 3, 128, "float32", "C",
                                                                         "max_diag")).kind_plan);
  CHECK(pass.pass_blocks == 512);
  CHECK(pass.partial_doubles == 2 * 512);
  const auto off = std::get<OffNormPlan>(plan_kernel(make_kernel_spec("off_norm", 3, 128, "float32", "C",
                                                                      "max_diag")).kind_plan);
  CHECK(off.partial_doubles == 2 * off.partial_blocks);
}

TEST_CASE("group_pass's warp shuffles and register bound reach its source, and bad values are refused") {
  KernelSpec spec = make_kernel_spec("group_pass", 9, 8, "float64", "C", "max_diag");
  const auto plan_of = [&] { return std::get<GroupPassPlan>(plan_kernel(spec).kind_plan); };
  const GroupPassPlan by_default = plan_of();
  CHECK(by_default.warp_shuffles);
  CHECK(by_default.threads == 128);
  CHECK(by_default.min_blocks == 4);  // float64: 128 registers a thread
  spec.dtype = ScalarType::complex64;
  CHECK(plan_of().threads == 128);
  CHECK(plan_of().min_blocks == 5);  // complex64 from 256 MB: 96 registers a thread
  spec.dtype = ScalarType::complex128;
  CHECK(plan_of().min_blocks == 4);  // complex128 from 256 MB: 128
  spec.order = 10;
  spec.size = 4;  // 2^20 entries: the plan of smaller complex tensors
  CHECK(plan_of().threads == 256);
  CHECK(plan_of().min_blocks == 0);  // complex128: no bound but the block's
  spec.dtype = ScalarType::complex64;
  CHECK(plan_of().min_blocks == 4);  // complex64: 64 registers a thread
  spec.order = 9;
  spec.size = 8;
  spec.dtype = ScalarType::float32;
  CHECK(plan_of().min_blocks == 0);  // no bound but the block's
  CHECK(kernel_source(spec).find("__launch_bounds__(THREADS)") != std::string::npos);
  spec.dtype = ScalarType::float64;
  CHECK(kernel_source(spec).find("WARP_SHUFFLES = true;") != std::string::npos);
  spec.tuning.pass_warp_shuffles = 0;
  spec.tuning.pass_max_registers = 128;
  const GroupPassPlan bounded = plan_of();
  CHECK_FALSE(bounded.warp_shuffles);
  CHECK(bounded.min_blocks == 4);
  const std::string source = kernel_source(spec);
  CHECK(source.find("WARP_SHUFFLES = false;") != std::string::npos);
  CHECK(source.find("__launch_bounds__(THREADS, " + std::to_string(bounded.min_blocks) + ")") != std::string::npos);
  spec.tuning.pass_warp_shuffles = 2;
  CHECK_THROWS_WITH_AS(plan_kernel(spec), "codegen_error: pass_warp_shuffles 2: use -1 (the default), 0 or 1", codegen_error);
  spec.tuning.pass_warp_shuffles = -1;
  spec.tuning.pass_max_registers = 16;
  CHECK_THROWS_WITH_AS(plan_kernel(spec), "codegen_error: pass_max_registers 16: use -1 (the default), 0 (no bound) or 32..255", codegen_error);
}

TEST_CASE("group_pass's tiles take two inner modes whole only where the rows are short and the tile stays small") {
  const auto inner_modes = [](int order, int size, const char* dtype, int asked = -1) {
    KernelSpec spec = make_kernel_spec("group_pass", order, size, dtype, "C", "max_diag");
    spec.tuning.pass_inner_modes = asked;
    return std::get<GroupPassPlan>(plan_kernel(spec).kind_plan).inner_modes;
  };
  // Rows under 32 bytes (float32 N = 4, 6) and a tile of two of at most 512 threads: two.
  CHECK(inner_modes(12, 4, "float32") == 2);  // 16 << 5 threads
  CHECK(inner_modes(9, 6, "float32") == 2);
  CHECK(inner_modes(10, 6, "float32") == 2);
  CHECK(inner_modes(13, 4, "float32") == 2);  // six register modes from 2^26 entries: 16 << 5 threads
  CHECK(inner_modes(11, 6, "float32") == 1);  // 576 threads
  CHECK(inner_modes(14, 4, "float32") == 1);  // 1024 threads even with six register modes
  CHECK(inner_modes(3, 4, "float32") == 1);   // D = 3: the two outermost modes stay outer
  // Rows of 32 bytes or more, and odd N: one.
  CHECK(inner_modes(9, 8, "float32") == 1);
  CHECK(inner_modes(12, 4, "float64") == 1);
  CHECK(inner_modes(9, 5, "float32") == 1);
  // Asked: at most D - 2.
  CHECK(inner_modes(9, 8, "float32", 2) == 2);
  CHECK(inner_modes(5, 8, "float32", 9) == 3);
  CHECK(inner_modes(12, 4, "float32", 1) == 1);
  KernelSpec spec = make_kernel_spec("group_pass", 9, 8, "float32", "C", "max_diag");
  spec.tuning.pass_inner_modes = 0;
  CHECK_THROWS_WITH_AS(plan_kernel(spec), "codegen_error: pass_inner_modes 0: use -1 (the default) or 1 and more (above D - 2 the plan takes D - 2)", codegen_error);
  spec.tuning.pass_inner_modes = 2;
  CHECK(kernel_source(spec).find("INNER_MODES = 2;") != std::string::npos);
}

TEST_CASE("group_pass holds six register modes for float32 N = 4 and 8 from 2^26 entries, five else, three or four for complex") {
  const auto register_bits = [](int order, int size, const char* dtype) {
    return std::get<GroupPassPlan>(plan_kernel(make_kernel_spec("group_pass", order, size, dtype, "C", "max_diag")).kind_plan)
        .register_bits;
  };
  CHECK(register_bits(9, 8, "float32") == 6);   // 2^27 entries
  CHECK(register_bits(13, 4, "float32") == 6);  // 2^26
  CHECK(register_bits(8, 8, "float32") == 5);   // 2^24
  CHECK(register_bits(12, 4, "float32") == 5);
  CHECK(register_bits(11, 6, "float32") == 5);  // N = 6 was slower with six
  CHECK(register_bits(7, 16, "float32") == 5);
  CHECK(register_bits(9, 8, "float64") == 5);   // 256 bytes of registers: five at most
  CHECK(register_bits(9, 8, "complex64") == 4);    // complex, N >= 4, from 256 MB (1 GB)
  CHECK(register_bits(10, 6, "complex64") == 4);   // 483 MB
  CHECK(register_bits(8, 8, "complex128") == 4);   // 256 MB
  CHECK(register_bits(8, 8, "complex64") == 3);    // 128 MB
  CHECK(register_bits(11, 4, "complex128") == 3);  // 64 MB
  CHECK(register_bits(12, 2, "complex128") == 3);  // N = 2
  KernelSpec asked = make_kernel_spec("group_pass", 9, 8, "float32", "C", "max_diag");
  asked.tuning.pass_register_bits = 5;
  CHECK(std::get<GroupPassPlan>(plan_kernel(asked).kind_plan).register_bits == 5);
}

TEST_CASE("group_pass leaves to chunk_pass the tiles of 1024 threads with 256 bytes of entries a thread") {
  // float32 with 64 entries, float64 and complex64 with 32, complex128 with 16: 64 registers full.
  // Complex tensors of N >= 4 from 256 MB take tiles of at most 512 threads: there such a tile
  // needs more than 256 bytes of entries a thread, and is refused for that.
  for (const auto& [order, size, dtype, refusal] :
       {std::tuple{15, 4, "float32", "leaves 64 registers a thread"}, {16, 2, "float32", "leaves 64 registers a thread"},
        {14, 4, "float64", "leaves 64 registers a thread"}, {15, 2, "float64", "leaves 64 registers a thread"},
        {15, 2, "complex64", "leaves 64 registers a thread"}, {14, 2, "complex128", "leaves 64 registers a thread"},
        {14, 4, "complex64", "needs 2^6 registers a thread, over the 2^5"},
        {13, 4, "complex128", "needs 2^5 registers a thread, over the 2^4"}}) {
    CAPTURE(order);
    CAPTURE(size);
    CAPTURE(dtype);
    const PlanAttempt pass = try_plan(make_kernel_spec("group_pass", order, size, dtype, "C", "max_diag"));
    CHECK_FALSE(pass.plan);
    CHECK(pass.refusal.find(refusal) != std::string::npos);
    CHECK(try_plan(make_kernel_spec("chunk_pass", order, size, dtype, "C", "max_diag")).plan);
  }
  // 128 bytes a thread at 1024 threads, and 256 at 512, keep group_pass.
  const auto plan = [](int order, int size, const char* dtype) {
    return std::get<GroupPassPlan>(plan_kernel(make_kernel_spec("group_pass", order, size, dtype, "C", "max_diag")).kind_plan);
  };
  CHECK(plan(15, 2, "float32").threads == 1024);
  CHECK(plan(15, 2, "float32").register_bits == 5);
  CHECK(plan(13, 4, "complex64").threads == 512);  // R raised to 5 for a tile of 512 threads
  CHECK(plan(13, 4, "complex64").register_bits == 5);
  CHECK(plan(12, 4, "complex128").threads == 512);
  CHECK(plan(12, 4, "complex128").register_bits == 4);
  CHECK(plan(12, 2, "complex128").threads == 512);  // N = 2 keeps the plan of small tensors: R = 3
  CHECK(plan(12, 2, "complex128").register_bits == 3);
  CHECK(plan(14, 4, "float32").threads == 512);
  CHECK(plan(14, 4, "float32").register_bits == 6);
}

TEST_CASE("pivot_check_gather's teams divide its blocks and its grids hold a team for every entry at every mode") {
  for (const int block_size : {256, 96, 1024})
    for (const int size : {2, 3, 5, 8, 16, 31, 128, 1024})
      for (const int order : {3, 5, 9, 20}) {
        if (std::pow(size, order) > 1e12) continue;
        CAPTURE(block_size);
        CAPTURE(size);
        CAPTURE(order);
        KernelSpec spec = make_kernel_spec("pivot_check_gather", order, size, "float64", "C", "max_diag");
        spec.tuning.block_size = block_size;
        const auto plan = std::get<PivotCheckGatherPlan>(plan_kernel(spec).kind_plan);
        const long long team = plan.team_lanes;
        CHECK(team >= 32);
        CHECK((team & (team - 1)) == 0);
        CHECK(plan.threads % team == 0);
        CHECK(plan.threads <= block_size);
        // At mode n the kernel's team is min(TEAM, 4 * 2^n) lanes an entry of the upper triangle, and
        // min(TEAM, 2^n) an entry of the N x N lines: the grids must hold them at the last mode.
        const long long upper = static_cast<long long>(size) * (size - 1) / 2, square = static_cast<long long>(size) * size;
        const long long top = 1LL << std::min(order - 1, 40);
        CHECK(plan.blocks * plan.threads >= upper * std::min(team, 4 * top));
        CHECK(plan.line_blocks * plan.threads >= square * std::min(team, top));
        CHECK(plan.form_blocks * plan.threads >= square);
      }
  // Few entries take teams of a block (N = 8: 28 entries of up to 1024 terms at D = 9), many a warp.
  CHECK(std::get<PivotCheckGatherPlan>(plan_kernel(make_kernel_spec("pivot_check_gather", 9, 8, "float32", "C",
                                                                    "max_diag")).kind_plan).team_lanes == 256);
  CHECK(std::get<PivotCheckGatherPlan>(plan_kernel(make_kernel_spec("pivot_check_gather", 3, 128, "float32", "C",
                                                                    "max_diag")).kind_plan).team_lanes == 32);
}

TEST_CASE("the passes mix by fused multiply-adds for complex dtypes by default, as asked otherwise, and refuse other "
          "values") {
  const auto fma_of = [](const char* kind, int order, int size, const char* dtype, int asked) {
    KernelSpec spec = make_kernel_spec(kind, order, size, dtype, "C", "max_diag");
    spec.tuning.pass_fma = asked;
    const KernelPlan plan = plan_kernel(spec);
    const bool planned = std::string(kind) == "group_pass" ? std::get<GroupPassPlan>(plan.kind_plan).fma
                                                           : std::get<ChunkPassPlan>(plan.kind_plan).fma;
    // The source says what the plan says.
    CHECK(kernel_source(spec).find(planned ? "inline constexpr bool FMA = true;" : "inline constexpr bool FMA = false;") !=
          std::string::npos);
    return planned;
  };
  for (const char* kind : {"group_pass", "chunk_pass"}) {
    CAPTURE(std::string(kind));
    for (const char* dtype : {"float32", "float64", "complex64", "complex128"}) {
      CAPTURE(std::string(dtype));
      const bool complex = std::string(dtype).rfind("complex", 0) == 0;
      CHECK(fma_of(kind, 6, 5, dtype, -1) == complex);  // the default: complex only
      CHECK(fma_of(kind, 6, 5, dtype, 0) == false);
      CHECK(fma_of(kind, 6, 5, dtype, 1) == true);
    }
  }
  KernelSpec spec = make_kernel_spec("group_pass", 6, 5, "complex64", "C", "max_diag");
  spec.tuning.pass_fma = 2;
  CHECK_THROWS_WITH_AS(plan_kernel(spec), "codegen_error: pass_fma 2: use -1 (the default), 0 or 1", codegen_error);
}
