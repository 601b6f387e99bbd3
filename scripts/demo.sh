#!/usr/bin/env bash
# Sets up (missing Debian packages), builds, and runs the default demo scene:
# in a window when a display exists, else headless, printing the per-source
# table. Arguments go to srcprof-demo (try --help).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default
exec build/default/demos/srcprof-demo "$@"
