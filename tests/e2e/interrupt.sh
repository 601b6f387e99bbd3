#!/usr/bin/env bash
# SIGINT during a bench: once the first point is done, a SIGINT stops the
# run; it exits 130, says so on stderr, and writes the points it finished
# (JSON, CSV, SVG, HTML) marked interrupted, complete and valid. A second
# signal right after the first ends it at once, writing nothing.
# usage: interrupt.sh <srcprof-bench> <bench_check> <api>
set -u
bench="$1" check="$2" api="$3"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
fails=0

# start NAME: a four-point bench in the background, $pid; returns once its
# first point is done (stderr, not a terminal, says so) or it ended.
start() {
	"$bench" --api "$api" --scene default --sources 3,4,5,6 --frames 10 --warmup 3 --repeat 2 \
		--json "$out/$1.json" --csv "$out/$1.csv" --svg "$out/$1.svg" --html "$out/$1.html" \
		>"$out/$1.out" 2>"$out/$1.err" &
	pid=$!
	for _ in $(seq 600); do
		grep -q "point 1 of 4 done" "$out/$1.err" && return 0
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.5
	done
	return 1
}

if ! start one; then
	echo "FAIL: the bench ended (or hung) before its first point was done"; cat "$out/one.err"
	kill -KILL "$pid" 2>/dev/null
	exit 1
fi
kill -INT "$pid"
wait "$pid"
st=$?
if [[ $st == 130 ]]; then echo "ok   SIGINT: exit 130"; else
	echo "FAIL: SIGINT: exit $st, want 130"; cat "$out/one.err"; fails=1; fi
if grep -q "interrupted (SIGINT): writing the [1-3] points finished, marked interrupted" \
	"$out/one.err"; then echo "ok   stderr says so"; else
	echo "FAIL: stderr does not say it was interrupted"; cat "$out/one.err"; fails=1; fi
"$check" "$out/one.json" "$out/one.csv" "$out/one.svg" --interrupted || fails=1
grep -q "INTERRUPTED (SIGINT)" "$out/one.html" && grep -q "</html>" "$out/one.html" ||
	{ echo "FAIL: the HTML page is not marked interrupted, or not complete"; fails=1; }
grep -q "^INTERRUPTED (SIGINT): [1-3] of 4 points finished" "$out/one.out" ||
	{ echo "FAIL: the report on stdout is not marked interrupted"; head -3 "$out/one.out"; fails=1; }

# Two signals at once: the second ends it without waiting, by its default
# action (which one the process takes first is the kernel's choice: killed
# by SIGTERM, 143, or by SIGINT, 130), writing nothing.
if start two; then
	kill -INT "$pid"; kill -TERM "$pid"
	wait "$pid"
	st=$?
	if [[ $st == 130 || $st == 143 ]] && ! grep -q "writing the" "$out/two.err" &&
		[[ ! -e "$out/two.json" ]]; then
		echo "ok   SIGINT then SIGTERM: killed at once ($st), nothing written"
	else
		echo "FAIL: SIGINT then SIGTERM: exit $st, want killed at once with nothing written"
		cat "$out/two.err"; ls "$out"; fails=1
	fi
else
	echo "FAIL: the second bench ended before its first point was done"; cat "$out/two.err"
	kill -KILL "$pid" 2>/dev/null
	fails=1
fi
exit $fails
