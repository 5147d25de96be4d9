// The device query answers on every machine: an architecture NVRTC compiles for where there is a
// GPU, and a reason where there is none (CI has no driver at all; the binary must still start).
#include <doctest/doctest.h>

#include "runtime/cuda/device_arch.hpp"
#include "runtime/cuda/nvrtc_compiler.hpp"

using namespace tensordiag::runtime;

TEST_CASE("nvrtc: the current device's architecture, or why there is none") {
  const DeviceArch device = current_device_arch();
  if (device.found()) {
    CHECK(device.reason.empty());
    CHECK(device.arch.starts_with("sm_"));
    CHECK_NOTHROW(check_architecture(device.arch));
  } else {
    MESSAGE("no device: " << device.reason);
    CHECK(!device.reason.empty());
  }
  const DeviceArch again = current_device_arch();
  CHECK(again.arch == device.arch);
  CHECK(again.reason == device.reason);
}
