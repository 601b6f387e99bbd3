#!/usr/bin/env bash
# Sets up (missing Debian packages), builds and runs every test through ctest.
#
#   scripts/test.sh              the default build (RelWithDebInfo) and all tests
#   scripts/test.sh --sanitize   then the suite again under ASan+UBSan, and the
#                                threaded tests under TSan
#   scripts/test.sh --only asan|tsan|default   just that build and its tests
#
# Build trees go to build/<preset>. Extra arguments after -- go to ctest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

presets=(default)
ctest_args=()
while (($#)); do
	case "$1" in
	--sanitize) presets=(default asan tsan) ;;
	--only)
		shift
		case "${1:-}" in
		default | asan | tsan) presets=("$1") ;;
		*)
			echo "test.sh: --only takes default, asan or tsan (got '${1:-}')" >&2
			exit 2
			;;
		esac
		;;
	--) shift; ctest_args=("$@"); break ;;
	-h | --help) sed -n '2,10p' "$0"; exit 0 ;;
	*)
		echo "test.sh: unknown option '$1' (try --help)" >&2
		exit 2
		;;
	esac
	shift
done

# The browser tests' Chromium too (tests/e2e/html.sh).
scripts/setup.sh scripts/packages-browser.txt

for preset in "${presets[@]}"; do
	echo "== $preset: configure and build"
	cmake --preset "$preset" >/dev/null
	cmake --build --preset "$preset"
	echo "== $preset: tests"
	filter=()
	case "$preset" in
	# TSan: the parts that run threads; the rest is single-threaded.
	tsan) filter=(-L "threads") ;;
	esac
	ctest --preset "$preset" -j2 "${filter[@]}" "${ctest_args[@]}"
done
