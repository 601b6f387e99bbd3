#!/usr/bin/env bash
# Sets up (missing Debian packages), builds, and runs the profiler
# microbenchmark. (The scene engine and its demo land with the Vulkan
# backend; until then this is what there is to run.)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default
echo "== srcprof-microbench (the engine demo is not built yet)"
exec build/default/profiler/srcprof-microbench "$@"
