#!/usr/bin/env bash
# Install the system packages cudaport's tests use: the HIP compiler from Debian
# (clang-15 + HIP 5.2 headers and libraries) and cmake. Safe to run twice.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
PACKAGES=(clang-15 libamdhip64-dev libhiprand-dev libhipsparse-dev librocprim-dev
          librocrand-dev librocsparse-dev cmake git
          # CMake's HIP language support needs these (tests/test_cmake.py configures a
          # translated project): hip-lang-config finds AMDDeviceLibs, hip-config hipcc.
          rocm-device-libs hipcc
          # `python3 -m venv` (the README's install and .ci/run use a virtual environment)
          python3-venv)
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
# The ROCm toolchains `cudaport verify` and the tests compile and link with, each a Debian
# root of its own: ROCm 7.2.4 from Debian experimental in /var/cache/cudaport/rocm-7.2 (the
# default target; $CUDAPORT_ROCM72_DIR moves it) and ROCm 6.4 from Debian unstable in
# /var/cache/cudaport/rocm-6.4 ($CUDAPORT_ROCM64_DIR). Each returns at once when it is there.
bash "$(dirname "$0")/setup-rocm.sh" 7.2
bash "$(dirname "$0")/setup-rocm.sh" 6.4
