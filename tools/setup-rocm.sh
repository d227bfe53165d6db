#!/usr/bin/env bash
# Install a ROCm 6.4 compiler (hipcc 7.0 / HIP 6.4, clang 21) with hipBLAS, hipBLASLt, hipCUB,
# rocThrust, hipSPARSE, hipSOLVER, hipFFT, hipRAND, MIOpen and the roc* libraries, from
# Debian unstable's own packages, into a folder of its own (a minimal Debian sid root), and
# write DIR/cudaport-hipcc, which runs that hipcc on files of this machine.
#
#   bash tools/setup-rocm.sh            # folder: $CUDAPORT_ROCM_DIR or /var/cache/cudaport/rocm-6.4
#
# Safe to run twice: a stamp file records the package set and this script's layout version,
# and a second run with the same ones returns at once. Needs root (debootstrap, chroot) and
# the network; the Debian mirror is the one this machine's apt sources name.
#
# The folder keeps what compiling (-fsyntax-only and -c) needs: the compiler, headers,
# device bitcode libraries and the runtime's own small libraries. apt's caches, docs,
# locales, static libraries and the GPU kernel libraries of rocBLAS, rocSOLVER, rocSPARSE,
# hipBLASLt, rocRAND, rocFFT and MIOpen (several GB; only a program that runs loads them)
# are removed, so the folder compiles code but cannot link programs against those libraries.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive LC_ALL=C

DIR=${CUDAPORT_ROCM_DIR:-/var/cache/cudaport/rocm-6.4}
LAYOUT=2  # bump when the pruning or the wrapper below changes
PACKAGES=(hipcc libamdhip64-dev libhipblas-dev libhipblaslt-dev libhipcub-dev librocthrust-dev
          libhipsparse-dev libhipsolver-dev libhipfft-dev libhiprand-dev libmiopen-dev
          librocblas-dev librocsparse-dev librocsolver-dev librocrand-dev librocfft-dev
          # Headers real CUDA programs include besides CUDA's (samples draw with OpenGL,
          # use OpenMP on the host): without them a port would fail for want of the host's.
          libgl-dev libglu1-mesa-dev libglut-dev libomp-dev)
# librccl-dev is left out on purpose: it pulls HIP 5 packages into the same root.
STAMP="$DIR/.cudaport-rocm"
WANT="layout $LAYOUT; packages ${PACKAGES[*]}"

say() { echo "setup-rocm: $*" >&2; }
die() { say "error: $*"; exit 1; }

# Fast path: nothing to do (no root needed to find that out).
if [ -x "$DIR/cudaport-hipcc" ] && [ "$(cat "$STAMP" 2>/dev/null)" = "$WANT" ]; then
  say "ROCm toolchain ready: $DIR/cudaport-hipcc"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || die "needs root (debootstrap and chroot); run it as root"
  exec sudo -E bash "$0" "$@"
fi

retry() {  # retry N CMD...: apt and debootstrap fail now and then on a busy mirror
  local n=$1 i; shift
  for ((i = 1; i <= n; i++)); do
    "$@" && return 0
    [ "$i" -lt "$n" ] && { say "attempt $i of $n failed: $*; retrying in $((i * 10)) s"; sleep $((i * 10)); }
  done
  return 1
}

mirror() {  # the Debian mirror this machine's apt uses (not the security one)
  local uri
  uri=$( { grep -hsE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
             | sed -E 's/^[[:space:]]*deb[[:space:]]+(\[[^]]*\][[:space:]]+)?([^[:space:]]+).*/\2/'
           grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources | sed -E 's/^URIs:[[:space:]]*//' \
             | tr ' ' '\n'
         } | grep -E '^(https?|file)://' | grep -v -- '-security' | grep -iE 'debian' | head -n1 )
  echo "${CUDAPORT_DEBIAN_MIRROR:-${uri:-http://deb.debian.org/debian}}"
}

# Runs CMD inside the root, in a private mount namespace: the /proc and /dev mounts vanish
# with the process, so nothing is left mounted however the command ends.
in_root() {
  unshare --mount --propagation private bash -c '
    root=$1; shift
    mount --rbind /proc "$root/proc" && mount --rbind /dev "$root/dev" || exit 1
    exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
      LC_ALL=C DEBIAN_FRONTEND=noninteractive "$@"' in_root "$DIR" "$@"
}

mkdir -p "$(dirname "$DIR")"
exec 9>"$DIR.lock"
flock 9  # one setup at a time (CI and a user's shell may start it together)

# 1. A minimal Debian sid root.
if [ ! -f "$DIR/.cudaport-debootstrap" ]; then
  if [ -x "$DIR/usr/bin/apt-get" ] && [ -x "$DIR/usr/bin/dpkg" ]; then
    say "reusing the Debian root already in $DIR"
  else
    command -v debootstrap >/dev/null || {
      say "installing debootstrap"
      retry 3 apt-get update -qq || die "apt-get update failed (network or mirror?)"
      retry 3 apt-get install -y -qq debootstrap >/dev/null || die "cannot install debootstrap"
    }
    url=$(mirror)
    say "debootstrap sid from $url into $DIR (about a minute)"
    rm -rf "$DIR.partial"
    retry 3 debootstrap --variant=minbase sid "$DIR.partial" "$url" >"$DIR.debootstrap.log" 2>&1 \
      || die "debootstrap failed; see $DIR.partial/debootstrap/debootstrap.log and $DIR.debootstrap.log"
    rm -rf "$DIR"
    mv "$DIR.partial" "$DIR"
  fi
  touch "$DIR/.cudaport-debootstrap"
fi

# 2. The packages (apt-get only when one is missing).
installed=$(in_root dpkg-query -W -f='${db:Status-Status} ${Package}\n' "${PACKAGES[@]}" 2>/dev/null \
            | grep -c '^installed ' || true)
if [ "$installed" -ne ${#PACKAGES[@]} ]; then
  say "installing ${#PACKAGES[@]} ROCm packages into $DIR (a few minutes)"
  # Check-Valid-Until: a frozen snapshot mirror serves an expired Release file.
  APT=(apt-get -o Acquire::Check-Valid-Until=false -o Acquire::Retries=3 -o Dpkg::Use-Pty=0)
  in_root dpkg --configure -a  # finish an install an earlier run was stopped in
  retry 3 in_root "${APT[@]}" update -qq || die "apt-get update in $DIR failed (network or mirror?)"
  retry 3 in_root "${APT[@]}" install -y -qq --no-install-recommends "${PACKAGES[@]}" >/dev/null \
    || die "apt-get install in $DIR failed: ${PACKAGES[*]}"
fi

# 3. Prune what compiling never reads.
before=$(du -shx "$DIR" 2>/dev/null | cut -f1)
in_root apt-get clean
lib="$DIR/usr/lib/x86_64-linux-gnu"
rm -rf "$DIR"/var/lib/apt/lists/* "$DIR"/usr/share/doc/* "$DIR"/usr/share/man/* \
       "$DIR"/usr/share/info/* "$DIR"/usr/share/locale/* "$DIR"/usr/share/lintian/* \
       "$lib/rocblas" "$lib/hipblaslt"
find "$lib" -maxdepth 1 -type f \( -name '*.a' \
     -o -name 'librocblas.so.*' -o -name 'librocsolver.so.*' -o -name 'librocsparse.so.*' \
     -o -name 'librocrand.so.*' -o -name 'librocfft.so.*' -o -name 'libhipblaslt.so.*' \
     -o -name 'libMIOpen.so.*' \) -delete
# Mesa (which OpenGL's headers pull in) brings its own LLVM and drivers: the compiler's
# LLVM is the one of a /usr/lib/llvm-N folder.
for f in "$lib"/libLLVM.so.*; do
  major=${f##*/libLLVM.so.}; major=${major%%.*}
  [ -L "$f" ] || [ -d "$DIR/usr/lib/llvm-$major" ] || rm -f "$f"
done
rm -f "$lib"/libgallium-*.so
say "pruned $DIR: $before -> $(du -shx "$DIR" | cut -f1)"

# 4. The wrapper.
cat >"$DIR/cudaport-hipcc" <<'WRAPPER'
#!/usr/bin/env bash
# cudaport-hipcc: run the hipcc of this folder (a Debian sid root holding ROCm, written by
# cudaport's tools/setup-rocm.sh) on files of the host, with hipcc's own arguments.
#
# Why chroot: hipcc and clang find their headers, device libraries and helper programs by
# absolute /usr paths of the root they were built for; running them with the folder's
# ld.so and --sysroot would need every such path redirected (hipcc calls clang, clang calls
# lld and the offload bundler) and breaks with each release. A chroot runs them as built.
# It happens in a private mount namespace (unshare), so the bind mounts it needs exist only
# for this process and vanish when it exits; nothing is left mounted. The current folder and
# every absolute path in the arguments appear inside at the same path (their top-level
# folder, such as /tmp or /home, is bound whole; below /usr, /var, /opt ... the root's own
# files win and only what it lacks is bound), so the paths in the arguments and in the
# compiler's messages are the host's paths.
set -euo pipefail
self=$(readlink -f "${BASH_SOURCE[0]}")
root=$(dirname "$self")
if [ "${CUDAPORT_HIPCC_ROOT:-}" != "$root" ]; then
  flags=(--mount --propagation private)
  [ "$(id -u)" -eq 0 ] || flags+=(--map-root-user)  # unprivileged: a user namespace
  CUDAPORT_HIPCC_ROOT=$root exec unshare "${flags[@]}" "$self" "$@"
fi
mount --rbind /proc "$root/proc"
mount --rbind /dev "$root/dev"
bound=" "
expose() {  # make host path $1 visible at the same path inside the root
  local prefix="" part
  local -a parts
  IFS=/ read -ra parts <<<"${1#/}"
  case "${parts[0]:-}" in
    ""|bin|boot|dev|etc|lib|lib32|lib64|libx32|opt|proc|run|sbin|sys|usr|var) ;;
    *)  # a folder of the user's (/tmp, /home, /work ...): bind all of it, over the root's
      [ -d "/${parts[0]}" ] || return 0
      case "$bound" in *" /${parts[0]} "*) return 0 ;; esac
      mkdir -p "$root/${parts[0]}"
      mount --rbind "/${parts[0]}" "$root/${parts[0]}"
      bound+="/${parts[0]} "
      return 0 ;;
  esac
  for part in "${parts[@]}"; do  # below a system folder: the root's own copy wins
    [ -n "$part" ] && [ "$part" != . ] && [ "$part" != .. ] || continue
    prefix+="/$part"
    [ -e "$root$prefix" ] && continue
    [ -e "$prefix" ] || return 0
    if [ -d "$prefix" ]; then mkdir -p "$root$prefix"; else touch "$root$prefix"; fi
    mount --rbind "$prefix" "$root$prefix"
    return 0
  done
}
expose "$PWD"
for arg in "$@"; do
  if [[ $arg =~ ^(-[A-Za-z_=-]*)?(/.*)$ ]]; then expose "${BASH_REMATCH[2]}"; fi
done
keep=()
for name in TMPDIR HIPCC_VERBOSE HIPCC_COMPILE_FLAGS_APPEND HIP_CLANG_PATH; do
  [ -z "${!name:-}" ] || keep+=("$name=${!name}")
done
exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
  LANG=C.UTF-8 HIP_PLATFORM=amd "${keep[@]}" \
  /bin/sh -c 'cd "$0" && exec hipcc "$@"' "$PWD" "$@"
WRAPPER
chmod +x "$DIR/cudaport-hipcc"

# 5. Check it compiles what cudaport's tests need, then stamp.
probe=$(mktemp -d /tmp/cudaport-rocm-probe.XXXXXX)
trap 'rm -rf "$probe"' EXIT
cat >"$probe/probe.hip" <<'PROBE'
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#include <hipcub/hipcub.hpp>
#include <thrust/device_vector.h>
__global__ void scale(float* x, float a) { x[threadIdx.x] *= a; }
int main() { hipblasHandle_t h; return hipblasCreate(&h) != HIPBLAS_STATUS_SUCCESS; }
PROBE
"$DIR/cudaport-hipcc" --offload-arch=gfx90a -std=c++17 -fsyntax-only "$probe/probe.hip" \
  >"$probe/log" 2>&1 || { cat "$probe/log" >&2
    die "$DIR/cudaport-hipcc cannot compile a hipBLAS/hipCUB/rocThrust probe"; }
echo "$WANT" >"$STAMP"
version=$(sed -nE 's/^#define HIP_VERSION_(MAJOR|MINOR) ([0-9]+).*/\2/p' \
          "$DIR/usr/include/hip/hip_version.h" | paste -sd.)
# Debian unstable moves on: say so when it no longer carries the HIP this folder is named for.
[ "$version" = 6.4 ] || say "note: Debian unstable now carries HIP $version, not 6.4"
say "ROCm toolchain ready: $DIR/cudaport-hipcc (HIP $version, $(du -shx "$DIR" | cut -f1))"
