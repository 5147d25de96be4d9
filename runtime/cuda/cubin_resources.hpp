#pragma once
// The resources each kernel of a cubin uses, read from the cubin's ELF metadata without loading
// it: this works on machines without a GPU and without cuobjdump (which the toolkit on CI lacks),
// and NVRTC 13's log has no register statistics even with --ptxas-options=-v.
//
// Where the numbers live (checked against `nvcc --resource-usage` on CUDA 13.0): sections of type
// SHT_CUDA_INFO (".nv.info" and ".nv.info.<kernel>") hold attribute records {format byte,
// attribute byte, 16-bit size or value}; records of format EIFMT_SVAL carry `size` bytes of
// payload. EIATTR_REGCOUNT (0x2f) and EIATTR_FRAME_SIZE (0x11) have the payload {symbol index,
// value}, both 32-bit little-endian, the symbol being the function in .symtab.
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tensordiag::runtime {

struct KernelResources {
  std::string name;                       // the symbol: as written for extern "C", else mangled
  std::optional<int> registers;           // per thread; absent if the cubin does not record it
  std::optional<int> stack_frame_bytes;   // per thread local memory (spills, local arrays)
};

// Every kernel entry point of the cubin, in symbol-table order.
// Throws internal_error if the image is not a well-formed 64-bit little-endian ELF file.
std::vector<KernelResources> read_cubin_resources(std::span<const char> cubin);

}  // namespace tensordiag::runtime
