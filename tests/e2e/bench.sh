#!/usr/bin/env bash
# A short srcprof-bench run: its outputs have the right structure and agree
# with themselves (speed is not checked); bad options exit non-zero.
# With "plain": a run in plain GPU timing (the mode of every real GPU),
# --isolate and compare with itself, no warning line, and the report and
# JSON say that nothing is subtracted.
# With "threads": a sweep over record threads (1 and 2) with ticks on 2
# threads and compute: a point per thread count, the sweep's table, each
# point's threads and queues in the report and JSON, the CSV's per-queue
# figures, and compare pairing points by their threads.
# With "work": --work. Two runs at 1280x720 count the same work
# (every frame GPU-timed, scene time a frame's worth a frame), so compare
# calls every counted source's work equal; a run at 640x360 against one at
# 1920x1080 changes the pixel-bound sources' (heavy, effect, video)
# fragment invocations and no source's vertices. OpenGL the same.
# usage: bench.sh <srcprof-bench> <bench_check> <api> [plain|threads|work]
set -u
bench="$1" check="$2" api="$3" mode="${4:-auto}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
fails=0
if [[ "$mode" == plain ]]; then
	if ! "$bench" --api "$api" --gpu-timing plain --scene default --sources 12 --frames 12 \
		--warmup 4 --repeat 2 --isolate --isolate-rounds 3 --json "$out/p.json" \
		--csv "$out/p.csv" --svg "$out/p.svg" >"$out/stdout" 2>"$out/stderr"; then
		echo "FAIL: bench exited with an error"; cat "$out/stdout" "$out/stderr"; exit 1
	fi
	if grep -iE "warning|error" "$out/stderr"; then echo "FAIL: a warning or error line"; fails=1; fi
	grep -qE "^GPU timing mode: [a-z]+-timestamp( \(software device[^)]*\))?; bare stamps, nothing subtracted" \
		"$out/stdout" || { echo "FAIL: the report does not say plain stamps"; fails=1; }
	if grep -q "(software device" "$out/stdout"; then
		grep -q "^note: plain stamps on a software device do not measure each source's cost" \
			"$out/stdout" || { echo "FAIL: no plain-on-software note"; fails=1; }
	fi
	if grep -q "rasterizer threads; sources" "$out/stdout"; then
		echo "FAIL: the flushed timing's note in plain mode"; fails=1
	fi
	grep -qE '"timer_overhead_us": 0\.000,' "$out/p.json" ||
		{ echo "FAIL: p.json subtracts an empty timer"; fails=1; }
	grep -qE '"gpu_timed_every": 1,' "$out/p.json" || { echo "FAIL: not every frame timed"; fails=1; }
	"$check" "$out/p.json" "$out/p.csv" "$out/p.svg" --isolated || fails=1
	"$bench" compare "$out/p.json" "$out/p.json" >"$out/cmp" 2>&1
	st=$?
	[[ $st == 0 ]] || { echo "FAIL: compare of a plain file with itself: exit $st"; cat "$out/cmp"; fails=1; }
	((fails)) || echo "PASS"
	exit $fails
fi
if [[ "$mode" == work ]]; then
	wrun() { # <name> <size>: a short --work run into $out/<name>.json (and .csv, .svg)
		"$bench" --api "$api" --scene default --sources 8 --frames 6 --warmup 8 --repeat 1 \
			--work --size "$2" --json "$out/$1.json" --csv "$out/$1.csv" --svg "$out/$1.svg" \
			>"$out/$1.stdout" 2>&1 ||
			{ echo "FAIL: bench --work ($1) exited with an error"; cat "$out/$1.stdout"; exit 1; }
	}
	wrun a 1280x720
	"$check" "$out/a.json" "$out/a.csv" "$out/a.svg" --work || fails=1
	grep -q "^work per frame (--work: the device's counts over the timed frames, exact):" \
		"$out/a.stdout" || { echo "FAIL: the report has no work table"; fails=1; }
	# The overhead pairs' fifth mode: timing and counting against timing alone.
	grep -qE "^  CPU\+GPU  mean .*GPU-timed \(budget [0-9.]+%\), timing alone" "$out/a.stdout" &&
		grep -qE "^  \+work    mean +[0-9.]+ ms .*work counted in its timed frames:$" "$out/a.stdout" &&
		grep -qE "^           [-+][0-9]+\.[0-9]{2} points of frame time above timing alone" "$out/a.stdout" ||
		{ echo "FAIL: the overhead has no work mode"; sed -n '/^overhead/,/burst/p' "$out/a.stdout"; fails=1; }
	# heavy-k2's counts are exact; its work per us needs a GPU time above
	# the resolution, which a loaded machine (or a sanitizer build) can
	# take from a source this small: "-" is its defined reading then. The
	# fountain (1.5 M fragments a frame) always has one.
	grep -qE "^heavy-k2 +[0-9]+ +[1-9][0-9]* +[0-9]+ .* +([0-9]+\.[0-9]|-) +([0-9]+\.[0-9]|-) +([0-9]+\.[0-9]|-)$" \
		"$out/a.stdout" || { echo "FAIL: no counts for heavy-k2"; cat "$out/a.stdout"; fails=1; }
	grep -qE "^fountain +[0-9]+ +[1-9][0-9]* +[0-9]+ .* +[0-9]+\.[0-9] +[1-9][0-9]*\.[0-9] +[0-9]+\.[0-9]$" \
		"$out/a.stdout" || { echo "FAIL: no counts and work per us for the fountain"; cat "$out/a.stdout"; fails=1; }
	wrun b 1280x720
	"$bench" compare "$out/a.json" "$out/b.json" >"$out/same" 2>&1
	st=$?
	[[ $st == 0 || $st == 1 ]] || { echo "FAIL: compare of two --work runs: exit $st"; cat "$out/same"; fails=1; }
	# game-logic draws nothing: no frame counted. The videos' upload pass
	# starts when their first picture arrives, on their producer's clock:
	# the frames counted before it stay counted.
	grep -qE "^work: 7 sources equal, 0 changed, 1 not compared" "$out/same" &&
		grep -qE "^  game-logic +not tested +no frame counted +work not compared$" "$out/same" ||
		{ echo "FAIL: two --work runs do not count the same work"; cat "$out/same"; fails=1; }
	for s in fountain sparks video-30fps video-24fps blur-effect heavy-k2 mesh-5; do
		grep -qE "^  $s +[a-z ]+ +equal \(7 counters\) +(neither changed|time changed, work did not)$" \
			"$out/same" || { echo "FAIL: $s's work is not equal in two runs"; fails=1; }
	done
	wrun small 640x360
	wrun large 1920x1080
	"$bench" compare "$out/small.json" "$out/large.json" >"$out/size" 2>&1
	for s in heavy-k2 blur-effect video-30fps video-24fps; do
		grep -qE "^  $s +[a-z ]+ +changed \([0-9] of 7\) +work changed" "$out/size" ||
			{ echo "FAIL: $s's work did not change with the size"; fails=1; }
		grep -A3 -E "^  $s " "$out/size" | grep -qE "^      FS invocations: [0-9]+ -> [0-9]+ a frame \((\+[0-9.]+%|from 0)\)$" ||
			{ echo "FAIL: $s's fragments did not grow with the size"; fails=1; }
	done
	if grep -qE "^      (vertices|VS invocations|primitives):" "$out/size"; then
		echo "FAIL: vertex counts changed with the size"; fails=1
	fi
	grep -q "^settings differ: size 640x360 -> 1920x1080" "$out/size" ||
		{ echo "FAIL: compare does not say the sizes differ"; fails=1; }
	((fails)) || { echo "PASS"; cat "$out/size"; }
	exit $fails
fi
if [[ "$mode" == threads ]]; then
	if ! "$bench" --api "$api" --scene default --sources 8 --record-threads 1,2 --tick-threads 2 \
		--compute --frames 12 --warmup 4 --repeat 2 --json "$out/t.json" --csv "$out/t.csv" \
		--svg "$out/t.svg" >"$out/stdout" 2>"$out/stderr"; then
		echo "FAIL: bench exited with an error"; cat "$out/stdout" "$out/stderr"; exit 1
	fi
	grep -q "^record threads (default):" "$out/stdout" || { echo "FAIL: no sweep table"; fails=1; }
	grep -qE "^   1: frame [0-9.]+ ms \(profiler off\)" "$out/stdout" &&
		grep -qE "^   2.*: frame [0-9.]+ ms .*sources' GPU / 1 thread: median [0-9.]+" \
			"$out/stdout" || { echo "FAIL: the sweep does not compare 2 threads with 1"; fails=1; }
	grep -qE '"record_threads": 2, "record_threads_used": [12], "tick_threads": 2' "$out/t.json" ||
		{ echo "FAIL: t.json has no point of 2 record threads"; fails=1; }
	if [[ "$api" == vulkan ]]; then
		grep -q "^threads: ticks on 2, each view recorded on 2; queues: graphics, compute" \
			"$out/stdout" || { echo "FAIL: the report does not name threads and queues"; fails=1; }
		grep -q '"queues": \["graphics", "compute"\]' "$out/t.json" ||
			{ echo "FAIL: t.json does not name the queues"; fails=1; }
		grep -qE "^vulkan,8,fountain,.*,2,graphics:[0-9.]+;compute:[0-9.]+(,|$)" "$out/t.csv" ||
			{ echo "FAIL: the CSV has no fountain row with its queues"; fails=1; }
	else
		grep -q "(2 asked; gl records on one)" "$out/stdout" ||
			{ echo "FAIL: the report does not say OpenGL records on one thread"; fails=1; }
	fi
	"$check" "$out/t.json" "$out/t.csv" "$out/t.svg" || fails=1
	"$bench" compare "$out/t.json" "$out/t.json" >"$out/cmp" 2>&1
	st=$?
	[[ $st == 0 ]] || { echo "FAIL: compare of a sweep with itself: exit $st"; cat "$out/cmp"; fails=1; }
	grep -q "^== $api, 8 sources, 2 record threads" "$out/cmp" ||
		{ echo "FAIL: compare did not pair the 2-thread points"; fails=1; }
	((fails)) || echo "PASS"
	exit $fails
fi
if ! "$bench" --api "$api" --scene default --sources 8,12 --frames 12 --warmup 4 --repeat 2 \
	--isolate --json "$out/b.json" --csv "$out/b.csv" --svg "$out/b.svg" >"$out/stdout" 2>&1; then
	echo "FAIL: bench exited with an error"; cat "$out/stdout"; exit 1
fi
grep -q "overhead, 2 interleaved pairs" "$out/stdout" || { echo "FAIL: no overhead table"; fails=1; }
grep -q "scaling (default)" "$out/stdout" || { echo "FAIL: no scaling table"; fails=1; }
"$check" "$out/b.json" "$out/b.csv" "$out/b.svg" --isolated || fails=1
# --runs 2: the whole measurement twice, each run in the JSON; compare
# takes one file a side as two runs (the same file against itself: Welch's
# t over 2 and 2 runs, nothing changed).
# --raster-threads 1 too: a software device runs one rasterizer thread,
# counted, and the report and JSON say so (a hardware device ignores it).
if ! "$bench" --api "$api" --scene default --sources 8 --frames 8 --warmup 2 --repeat 1 \
	--runs 2 --raster-threads 1 --json "$out/r.json" >"$out/runs.stdout" 2>&1; then
	echo "FAIL: bench --runs 2 exited with an error"; cat "$out/runs.stdout"; exit 1
fi
grep -q "runs: 2, each on a new engine" "$out/runs.stdout" || { echo "FAIL: no runs table"; fails=1; }
if grep -q "(software device" "$out/runs.stdout"; then
	grep -q "(software device, 1 rasterizer thread)" "$out/runs.stdout" &&
		grep -qE '"raster_threads": 1,' "$out/r.json" ||
		{ echo "FAIL: --raster-threads 1 is not what the report or JSON counted"; fails=1; }
fi
grep -qE '"runs": 2, "runs_asked": 2,' "$out/r.json" || { echo "FAIL: r.json lacks runs 2"; fails=1; }
grep -qE '"other_runs": \[' "$out/r.json" && grep -qE '\{"run": 2, "points": \[' "$out/r.json" ||
	{ echo "FAIL: r.json lacks other_runs' run 2"; fails=1; }
"$bench" compare "$out/r.json" "$out/r.json" >"$out/runs.cmp" 2>&1
st=$?
if [[ $st != 0 ]] || ! grep -q "over the 2 and 2 runs" "$out/runs.cmp" ||
	! grep -q "BASE $out/r.json#2" "$out/runs.cmp"; then
	echo "FAIL: compare of a --runs 2 file with itself: exit $st"; cat "$out/runs.cmp"; fails=1
fi
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
bad "--runs: '9' is not a whole number from 1 to 8" --runs 9
bad "--runs: '0' is not a whole number from 1 to 8" --runs 0
bad "--raster-threads: '65' is not a whole number from 0 to 64" --raster-threads 65
bad "unknown option '--fast'" --fast
exit $fails
