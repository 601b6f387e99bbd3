#!/usr/bin/env bash
# Fuzzes every parser srcprof has for a bounded time with libFuzzer (clang,
# ASan+UBSan): the command lines of srcprof-demo, srcprof-bench and
# srcprof-soak, the bench files compare reads, --script lists, the SPIR-V
# shader files the engine reads and the live view's request handling (where
# libmicrohttpd is installed).
#
#   scripts/fuzz.sh [SECONDS]   each target for SECONDS (default 60)
#
# Inputs found along the way go to build/fuzz/corpus/<target> (not kept).
# A crash is written to tests/fuzz/regress/<target>/ and the script fails:
# commit that file with the fix, and every ctest run replays it from then on.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || ((seconds < 1 || seconds > 86400)); then
	echo "fuzz.sh: SECONDS must be a whole number from 1 to 86400 (got '$seconds')" >&2
	exit 2
fi

scripts/setup.sh scripts/packages-fuzz.txt
targets=(demo_args bench_args bench_load soak_args script spirv)
cmake --preset fuzz >/dev/null
grep -q '^SRCPROF_HAVE_LIVE:INTERNAL=ON' build/fuzz/CMakeCache.txt 2>/dev/null && targets+=(live_request)
cmake --build --preset fuzz --target "${targets[@]/#/fuzz_}"

export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
for t in "${targets[@]}"; do
	work="build/fuzz/corpus/$t"
	mkdir -p "$work" "tests/fuzz/regress/$t"
	echo "== fuzz_$t: ${seconds} s"
	# -close_fd_mask=3: the parsers' messages would flood the log.
	if ! "build/fuzz/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 \
		-rss_limit_mb=2048 -max_len=4096 -close_fd_mask=3 -print_final_stats=1 \
		-artifact_prefix="tests/fuzz/regress/$t/" \
		"$work" "tests/fuzz/corpus/$t" "tests/fuzz/regress/$t" 2>"build/fuzz/fuzz_$t.log"; then
		echo "fuzz_$t: FAILED; the input is in tests/fuzz/regress/$t/ (log: build/fuzz/fuzz_$t.log)" >&2
		grep -E "ERROR|SUMMARY" "build/fuzz/fuzz_$t.log" | head -5 >&2 || true
		status=1
		continue
	fi
	grep -E "^stat::(number_of_executed_units|new_units_added)|cov:" "build/fuzz/fuzz_$t.log" |
		tail -3 | sed "s/^/  /"
done
exit "$status"
