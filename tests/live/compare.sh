#!/usr/bin/env bash
# The live view's figures equal the demo's exit table for the same window:
# a headless run writes --csv at its end and, with --serve-linger, serves
# its final figures on; the snapshot taken then must hold, for every
# source, every column of the CSV (live_compare) but the async input ones:
# video producer threads deliver frames after the renderer's last one.
# On Vulkan the run has record and tick threads and a compute queue.
# usage: compare.sh <srcprof-demo> <live_compare> <api> [scene]
set -u
demo="$1" compare="$2" api="$3" scene="${4:-default}"
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp -d)"
pid=
cleanup() {
	[[ -n "$pid" ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$out"
}
trap cleanup EXIT
. "$here/serve_lib.sh"

# On Vulkan with record and tick threads and compute: the per-queue sums
# (gpu_sum_by_queue_ns) are compared too.
threads=()
[[ "$api" == vulkan ]] && threads=(--record-threads 4 --tick-threads 2 --compute)
serve_demo "$demo" "$out/demo.txt" --api "$api" --headless --scene "$scene" --frames 240 \
	"${threads[@]}" --csv "$out/exit.csv" --serve-linger 120 || exit 1
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
stop_demo || exit 1
"$compare" "$out/exit.csv" "$out/snap.json" || exit 1
# The server's own CSV holds the same rows and columns (and a type), but
# for the async input columns (10-12) that video producers move on;
# gpu_sum_by_queue_ns (27) included.
rows() { grep -v '^#' "$1" | cut -d, -f1-9,13-27 | sort; }
if ! diff <(rows "$out/exit.csv") <(rows "$out/snap.csv") >"$out/diff.txt"; then
	echo "FAIL: /api/v1/snapshot?format=csv differs from --csv:"; head -20 "$out/diff.txt"; exit 1
fi
echo "ok   /api/v1/snapshot?format=csv equals --csv row for row (but the async input columns)"
