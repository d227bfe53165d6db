#!/usr/bin/env bash
# Install the system packages cudaport's tests use: the HIP compiler from Debian
# (clang-15 + HIP 5.2 headers and libraries) and cmake. Safe to run twice.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
PACKAGES=(clang-15 libamdhip64-dev libhiprand-dev libhipsparse-dev librocprim-dev
          librocrand-dev librocsparse-dev cmake git
          # CMake's HIP language support needs these (tests/test_cmake.py configures a
          # translated project): hip-lang-config finds AMDDeviceLibs, hip-config hipcc.
          rocm-device-libs hipcc)
missing=()
PACKAGES+=(chromium)  # headless Chromium: the tests render the HTML report in it
for pkg in "${PACKAGES[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# The ROCm 6.4 toolchain (hipcc 7.0, hipBLAS, hipCUB, rocThrust ...) that `cudaport verify`
# and the tests compile with: a Debian sid root in /var/cache/cudaport/rocm-6.4 (about
# 850 MB after pruning; $CUDAPORT_ROCM_DIR moves it). Returns at once when it is there.
bash "$(dirname "$0")/setup-rocm.sh"
