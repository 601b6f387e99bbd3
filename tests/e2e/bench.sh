#!/usr/bin/env bash
# A short srcprof-bench run: its outputs have the right structure and agree
# with themselves (speed is not checked); bad options exit non-zero.
# usage: bench.sh <srcprof-bench> <bench_check> <api>
set -u
bench="$1" check="$2" api="$3"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
fails=0
if ! "$bench" --api "$api" --scene default --sources 8,12 --frames 12 --warmup 4 --repeat 2 \
	--isolate --json "$out/b.json" --csv "$out/b.csv" --svg "$out/b.svg" >"$out/stdout" 2>&1; then
	echo "FAIL: bench exited with an error"; cat "$out/stdout"; exit 1
fi
grep -q "overhead, 2 interleaved pairs" "$out/stdout" || { echo "FAIL: no overhead table"; fails=1; }
grep -q "scaling (default)" "$out/stdout" || { echo "FAIL: no scaling table"; fails=1; }
"$check" "$out/b.json" "$out/b.csv" "$out/b.svg" --isolated || fails=1
bad() { # <pattern> <args...>
	local pattern="$1"; shift
	local msg; msg="$("$bench" "$@" 2>&1)"; local st=$?
	if [[ $st == 2 ]] && grep -qE -- "$pattern" <<<"$msg"; then echo "ok   $*"; else
		echo "FAIL: $* -> $st: $msg"; fails=1; fi
}
bad "--sources: 'x' is not a whole number" --sources 8,x
bad "--sources: '0' is not a whole number" --sources 0
bad "--api: 'metal' is not vulkan, gl or both" --api metal
bad "--frames: '2' is not a whole number from 5" --frames 2
bad "--frames: '5000' is not a whole number from 5 to 4995" --frames 5000
bad "--json: cannot write '/nonexistent/b.json'" --json /nonexistent/b.json
bad "--html: cannot write '/nonexistent/b.html'" --html /nonexistent/b.html
bad "--isolate-rounds: '2' is not a whole number from 3 to 25" --isolate-rounds 2
bad "unknown option '--fast'" --fast
exit $fails
