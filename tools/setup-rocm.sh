#!/usr/bin/env bash
# Install a ROCm toolchain from Debian's own packages into a folder of its own (a minimal
# Debian sid root), and write DIR/cudaport-hipcc, which runs that hipcc on files of this machine.
#
#   bash tools/setup-rocm.sh 7.2   # ROCm 7.2.4 (HIP 7.2, hipBLAS 3) from Debian experimental,
#                                  # folder $CUDAPORT_ROCM72_DIR or /var/cache/cudaport/rocm-7.2
#   bash tools/setup-rocm.sh 6.4   # ROCm 6.4 (hipcc 7.0, clang 21) from Debian unstable,
#                                  # folder $CUDAPORT_ROCM64_DIR or /var/cache/cudaport/rocm-6.4
#
# Both come with hipBLAS, hipBLASLt, hipCUB, rocThrust, hipSPARSE, hipSOLVER, hipFFT, hipRAND,
# MIOpen and the roc* libraries; 7.2 also with RCCL, rocWMMA, roctx and ROCm SMI (6.4's RCCL
# pulls HIP 5 packages into the root, so it is left out there).
#
# Safe to run twice: a stamp file records the package set and this script's layout version,
# and a second run with the same ones returns at once. Needs root (debootstrap, chroot) and
# the network; the Debian mirror is the one this machine's apt sources name.
#
# The folder keeps what compiling (-fsyntax-only and -c) and linking need: the compiler,
# headers, device bitcode libraries, the C runtime's static pieces (libc_nonshared.a ...) and
# every library's shared object. apt's caches, docs, locales and the GPU kernel files of
# rocBLAS, hipBLASLt, MIOpen ... (the .co/.hsaco/.dat files only a running program loads;
# several GB) are removed: programs link, and cannot run here (there is no AMD GPU anyway).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive LC_ALL=C

LINE=${1:-6.4}
LAYOUT=5  # bump when the pruning or the wrapper below changes
PACKAGES=(hipcc libamdhip64-dev libhipblas-dev libhipblaslt-dev libhipcub-dev librocthrust-dev
          libhipsparse-dev libhipsolver-dev libhipfft-dev libhiprand-dev libmiopen-dev
          librocblas-dev librocsparse-dev librocsolver-dev librocrand-dev librocfft-dev
          # Headers real CUDA programs include besides CUDA's (samples draw with OpenGL,
          # use OpenMP on the host): without them a port would fail for want of the host's.
          libgl-dev libglu1-mesa-dev libglut-dev libomp-dev
          # A project's own build (cudaport verify --build): make, CMake, and the host C/C++
          # compilers Makefiles call for their .c/.cpp files (gcc, g++, cc).
          make cmake gcc g++)
case "$LINE" in
  7.2)
    DIR=${CUDAPORT_ROCM72_DIR:-/var/cache/cudaport/rocm-7.2}
    SUITE=experimental  # Debian experimental carries ROCm 7.2.4 over a sid base
    # libhipsparselt-dev is left out: it collides with libhipblaslt-dev over origami/gemm.hpp.
    PACKAGES+=(librccl-dev librocwmma-dev libroctx-dev librocm-smi-dev) ;;
  6.4)
    DIR=${CUDAPORT_ROCM64_DIR:-/var/cache/cudaport/rocm-6.4}
    SUITE=sid ;;
  *) echo "setup-rocm: unknown ROCm line '$LINE' (7.2 or 6.4)" >&2; exit 2 ;;
esac
STAMP="$DIR/.cudaport-rocm"
WANT="layout $LAYOUT; line $LINE; packages ${PACKAGES[*]}"

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
# Check-Valid-Until: a frozen snapshot mirror serves an expired Release file.
APT=(apt-get -o Acquire::Check-Valid-Until=false -o Acquire::Retries=3 -o Dpkg::Use-Pty=0)
TARGET=()
[ "$SUITE" = experimental ] && TARGET=(-t experimental)
if [ "$installed" -ne ${#PACKAGES[@]} ]; then
  say "installing ${#PACKAGES[@]} ROCm packages into $DIR (a few minutes)"
  in_root dpkg --configure -a  # finish an install an earlier run was stopped in
  if [ "$SUITE" = experimental ] && [ ! -f "$DIR/etc/apt/sources.list.d/experimental.list" ]; then
    echo "deb $(mirror) experimental main" >"$DIR/etc/apt/sources.list.d/experimental.list"
  fi
  retry 3 in_root "${APT[@]}" update -qq || die "apt-get update in $DIR failed (network or mirror?)"
  retry 3 in_root "${APT[@]}" install -y -qq --no-install-recommends "${TARGET[@]}" "${PACKAGES[@]}" >/dev/null \
    || die "apt-get install in $DIR failed: ${PACKAGES[*]}"
fi

# 2b. OpenMP's header for the Clang hipcc runs: Debian experimental's libomp-dev may follow a
# newer LLVM than ROCm's (7.2: clang 22, libomp-dev 23), and #include <omp.h> in a HIP
# source (the CUDA samples' cudaOpenMP) is then "file not found".
major=$(in_root hipcc --version 2>/dev/null | sed -nE 's/.*clang version ([0-9]+).*/\1/p' | head -n1)
if [ -n "$major" ] && [ ! -f "$DIR/usr/lib/llvm-$major/lib/clang/$major/include/omp.h" ]; then
  say "installing libomp-$major-dev (OpenMP for hipcc's clang $major)"
  retry 3 in_root "${APT[@]}" update -qq || die "apt-get update in $DIR failed"
  retry 3 in_root "${APT[@]}" install -y -qq --no-install-recommends "${TARGET[@]}" \
    "libomp-$major-dev" >/dev/null || die "apt-get install libomp-$major-dev in $DIR failed"
fi

# 3. Prune what compiling and linking never read.
before=$(du -shx "$DIR" 2>/dev/null | cut -f1)
in_root apt-get clean
lib="$DIR/usr/lib/x86_64-linux-gnu"
rm -rf "$DIR"/var/lib/apt/lists/* "$DIR"/usr/share/doc/* "$DIR"/usr/share/man/* \
       "$DIR"/usr/share/info/* "$DIR"/usr/share/locale/* "$DIR"/usr/share/lintian/*
# GPU kernel files a running program loads (rocBLAS/hipBLASLt Tensile libraries, MIOpen's
# kernel databases); the shared objects linking needs stay.
find "$lib" "$DIR/usr/share" -type f \( -name '*.co' -o -name '*.hsaco' -o -name '*.kdb' \
     -o -name '*.fdb.txt' -o -name '*.db' -o -name 'TensileLibrary*.dat' \
     -o -name 'TensileLibrary*.yaml' -o -name '*.msgpack' \) -delete 2>/dev/null || true
# Static libraries, but the C runtime's pieces a link reads (libc_nonshared.a, crt's) and
# those of the compiler's own folders (/usr/lib/gcc, /usr/lib/llvm-N).
find "$lib" -maxdepth 1 -type f -name '*.a' ! -name 'libc_nonshared.a' \
     ! -name 'libpthread.a' ! -name 'libdl.a' ! -name 'librt.a' ! -name 'libm.a' \
     ! -name 'libm-*.a' ! -name 'libmvec.a' -delete
# Mesa (which OpenGL's headers pull in) brings its own LLVM and drivers: the compiler's
# LLVM is the one of a /usr/lib/llvm-N folder.
for f in "$lib"/libLLVM.so.*; do
  major=${f##*/libLLVM.so.}; major=${major%%.*}
  [ -L "$f" ] || [ -d "$DIR/usr/lib/llvm-$major" ] || rm -f "$f"
done
rm -f "$lib"/libgallium-*.so
say "pruned $DIR: $before -> $(du -shx "$DIR" | cut -f1)"

# ROCm's usual prefix, so a ported Makefile's ROCM_PATH ?= /opt/rocm (and /opt/rocm/bin/hipcc)
# means the root's ROCm, as on a machine with AMD's packages.
[ -e "$DIR/opt/rocm" ] || ln -s /usr "$DIR/opt/rocm"

# 4. The wrappers: cudaport-hipcc runs hipcc, cudaport-run any command of the root (make,
# cmake: a project's own build) the same way. Written beside and renamed, so a wrapper
# running at the time is never read half-written.
cat >"$DIR/cudaport-hipcc.new" <<'WRAPPER'
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
#
# Called as cudaport-run (or with CUDAPORT_ROOT_COMMAND=1), the arguments are a command of
# the root instead (`cudaport-run make -j2`, `cudaport-run cmake -S src -B build`).
set -euo pipefail
[ "${0##*/}" != cudaport-run ] || export CUDAPORT_ROOT_COMMAND=1
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
command=(hipcc "$@")
[ -z "${CUDAPORT_ROOT_COMMAND:-}" ] || command=("$@")
exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
  LANG=C.UTF-8 HIP_PLATFORM=amd "${keep[@]}" \
  /bin/sh -c 'cd "$0" && exec "$@"' "$PWD" "${command[@]}"
WRAPPER
chmod +x "$DIR/cudaport-hipcc.new"
mv -f "$DIR/cudaport-hipcc.new" "$DIR/cudaport-hipcc"
ln -sfn cudaport-hipcc "$DIR/cudaport-run"

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
[ "$version" = "$LINE" ] || say "note: Debian $SUITE now carries HIP $version, not $LINE"
say "ROCm toolchain ready: $DIR/cudaport-hipcc (HIP $version, $(du -shx "$DIR" | cut -f1))"
