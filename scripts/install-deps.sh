#!/usr/bin/env bash
# Installs what `make test` and `make demo` need on Debian 12, as root:
# the real solvers the tests and the demo run, gcc and the C library's
# development files (cgo, and the C random() reference)
# PostgreSQL (the store's conformance tests start their own server) and Chromium (the
# site's browser tests). Already-installed tools are
# left alone, so a second run costs nothing.
set -euo pipefail
need=()
# zstd: internal/zstd's tests decode what the zstd command writes.
for tool in z3 cvc4 cvc5 boolector gcc zstd; do
  command -v "$tool" >/dev/null 2>&1 || need+=("$tool")
done
# cgo (the sandbox's first process, SQLite) and the static build need the C
# library's headers and archive.
[ -f /usr/include/stdio.h ] && ls /usr/lib/*/libc.a >/dev/null 2>&1 || need+=(libc6-dev)
# The store's conformance tests start their own PostgreSQL server.
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  need+=(postgresql)
fi
# The site's browser tests drive Debian's headless Chromium.
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# The Slurm executor's tests start their own cluster on loopback: slurmctld,
# slurmd (two nodes), the client commands and munge for authentication.
for tool in slurmctld slurmd sbatch munged; do
  if ! command -v "$tool" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$tool" ]; then
    need+=(slurm-wlm munge)
    break
  fi
done
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing ${need[*]}; run as root (or install them) to get every test to run" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
# Packages must not start their daemons here (the tests start their own).
policy=/usr/sbin/policy-rc.d
made_policy=
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && made_policy=1
  trap '[ -n "$made_policy" ] && rm -f "$policy"' EXIT
fi
apt-get -o DPkg::Lock::Timeout=300 update -qq
apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${need[@]}" >/dev/null
echo "install-deps: installed ${need[*]}"
