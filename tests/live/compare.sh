#!/usr/bin/env bash
# The live view's figures equal the demo's exit table for the same window:
# a headless run writes --csv at its end and, with --serve-linger, serves
# its final figures on; the snapshot taken then must hold, for every
# source, every column of the CSV (live_compare) but the async input ones:
# video producer threads deliver frames after the renderer's last one.
# On Vulkan the run has record and tick threads and a compute queue.
# Further arguments go to the demo; with --work (work counters) the work
# columns must hold the same exact counts, each pass's work must add up to
# its source's, and /metrics must carry each count as a gauge.
# usage: compare.sh <srcprof-demo> <live_compare> <api> [scene [demo args...]]
set -u
demo="$1" compare="$2" api="$3" scene="${4:-default}"
shift $(($# < 4 ? $# : 4))
extra=("$@")
work=0
for a in "${extra[@]}"; do [[ "$a" == --work ]] && work=1; done
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/serve_lib.sh"
live_scratch

# On Vulkan with record and tick threads and compute: the per-queue sums
# (gpu_sum_by_queue_ns) are compared too.
threads=()
[[ "$api" == vulkan ]] && threads=(--record-threads 4 --tick-threads 2 --compute)
serve_demo "$demo" "$out/demo.txt" --api "$api" --headless --scene "$scene" --frames 240 \
	"${threads[@]}" "${extra[@]}" --csv "$out/exit.csv" --serve-linger 120 || exit 1
for _ in $(seq 1800); do
	grep -q '^live view: serving the final figures' "$out/demo.txt" && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
if ! grep -q '^live view: serving the final figures' "$out/demo.txt"; then
	echo "FAIL: the run did not reach its end:"; cat "$out/demo.txt"; exit 1
fi
# One update period after the last frame: a snapshot of the final state.
sleep 1.5
curl -s --max-time 60 -H "Authorization: Bearer $token" "$base/api/v1/snapshot" >"$out/snap.json"
curl -s --max-time 60 -H "Authorization: Bearer $token" "$base/api/v1/snapshot?format=csv" \
	>"$out/snap.csv"
curl -s --max-time 60 -H "Authorization: Bearer $token" "$base/metrics" >"$out/metrics.txt"
stop_demo || exit 1
"$compare" "$out/exit.csv" "$out/snap.json" || exit 1
# The server's own CSV holds the same rows and columns (and a type last),
# but for the async input columns (10-12) that video producers move on;
# gpu_sum_by_queue_ns (27) and the work columns (28-35) included.
rows() { grep -v '^#' "$1" | cut -d, -f1-9,13-35 | sort; }
if ! diff <(rows "$out/exit.csv") <(rows "$out/snap.csv") >"$out/diff.txt"; then
	echo "FAIL: /api/v1/snapshot?format=csv differs from --csv:"; head -20 "$out/diff.txt"; exit 1
fi
if ! grep -q ',gpu_sum_by_queue_ns,work_frames,.*,cs_invocations_per_frame,type$' "$out/snap.csv"; then
	echo "FAIL: the CSV's header has no work columns between gpu_sum_by_queue_ns and type:"
	grep -v '^#' "$out/snap.csv" | head -1; exit 1
fi
echo "ok   /api/v1/snapshot?format=csv equals --csv row for row (but the async input columns)"

if [[ $work == 1 ]]; then
	# Each pass of a source counts the same frames as the source, and the
	# passes' averages add up to the source's within rounding (an integer
	# division each).
	if ! jq -e '.work_enabled and (.frame_work.frames > 0) and
		([.sources[] | select(.work != null)] | length > 0) and
		all(.sources[] | select(.work != null); . as $s |
			([.passes[] | select(.work != null)] | length > 0) and
			all(.passes[] | select(.work != null); .work.frames == $s.work.frames) and
			all($s.work.counters | to_entries[] | select(.value != null);
				.key as $k | .value.avg as $avg |
				([$s.passes[] | .work.counters[$k].avg // 0] | add) as $sum |
				$sum <= $avg and $avg - $sum < ($s.passes | length) and
				.value.max >= $avg and .value.last >= 0))' "$out/snap.json" >/dev/null; then
		echo "FAIL: the snapshot's work per pass does not add up to its sources':"
		jq -c '{work_enabled, frame_work, sources: [.sources[] | {source, work, passes: [.passes[]? | {name, work}]}]}' \
			"$out/snap.json" | head -c 3000; echo; exit 1
	fi
	echo "ok   work: $(jq '[.sources[] | select(.work != null)] | length' "$out/snap.json") sources counted, their passes add up"
	# /metrics: one gauge per source and counted counter, the snapshot's average.
	jq -r '.sources[] | select(.work != null) | .source as $n | .type as $t |
		.work.counters | to_entries[] | select(.value != null) |
		"srcprof_source_work_per_frame{source=\"\($n)\",type=\"\($t)\",counter=\"\(.key)\"} \(.value.avg)"' \
		"$out/snap.json" >"$out/want.txt"
	missing=$(grep -vxFf "$out/metrics.txt" "$out/want.txt" | head -5)
	if [[ ! -s "$out/want.txt" || -n "$missing" ]]; then
		echo "FAIL: /metrics lacks the work gauges:"; echo "$missing"
		grep 'work' "$out/metrics.txt" | head -10; exit 1
	fi
	have=$(grep -c '^srcprof_source_work_per_frame{' "$out/metrics.txt")
	if [[ $have != $(wc -l <"$out/want.txt") ]] || ! grep -qx 'srcprof_work_enabled 1' "$out/metrics.txt" ||
		! grep -q '^srcprof_frame_work_per_frame{counter="fs_invocations"} [1-9][0-9]*$' "$out/metrics.txt"; then
		echo "FAIL: /metrics' work series: $have source gauges for $(wc -l <"$out/want.txt") counts:"
		grep 'work' "$out/metrics.txt" | head -20; exit 1
	fi
	echo "ok   /metrics: $have work gauges, each the snapshot's average"
fi
