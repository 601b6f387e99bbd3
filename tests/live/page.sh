#!/usr/bin/env bash
# The live page in real headless Chromium against a running headless demo:
# rows appear and update, sorting, filtering, sparklines, pause, a source's
# detail, the CSV and JSON snapshot downloads, a 5 s capture downloaded as a
# valid trace, the Perfetto hand-off, and on Vulkan the threads and queues
# of a run with record and tick threads and compute (tests/live/page_test.js,
# driven by cdp_drive over the DevTools pipe). Skipped (77) without chromium.
# SRCPROF_LIVE_SHOT=FILE keeps the page's screenshot.
# usage: page.sh <srcprof-demo> <cdp_drive> <trace_check> <api>
set -u
demo="$1" drive="$2" trace_check="$3" api="$4"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/serve_lib.sh"
need_browser
live_scratch

# On Vulkan the scene is ticked and recorded by worker threads and its
# particles simulate on the "compute" queue: the header's threads and
# queues, a two-queue source's detail.
threads=()
[[ "$api" == vulkan ]] && threads=(--record-threads 4 --tick-threads 2 --compute)
serve_demo "$demo" "$out/demo.txt" --api "$api" --headless --scene default --seconds 600 \
	"${threads[@]}" || exit 1
mkdir -p "$out/dl"
"$drive" "$browser" "$url" "$here/page_test.js" "$out/dl" --size 1500x1000 \
	--screenshot "$out/page.png" >"$out/drive.txt" 2>&1
st=$?
cat "$out/drive.txt"
fails=0
if [[ $st != 0 ]]; then echo "FAIL: the page's checks (exit $st)"; fails=1; fi

csv=$(ls "$out"/dl/srcprof-snapshot-*.csv 2>/dev/null | head -1)
json=$(ls "$out"/dl/srcprof-snapshot-*.json 2>/dev/null | head -1)
trace=$(ls "$out"/dl/srcprof-trace-*.json 2>/dev/null | head -1)
if [[ -z "$csv" ]] || ! grep -q '^source,tick_avg_ns,' "$csv" || (($(grep -vc '^#' "$csv") < 3)); then
	echo "FAIL: no CSV snapshot with rows was downloaded"; fails=1
else
	echo "ok   CSV snapshot: $(grep -vc '^#' "$csv") lines"
	if ! grep -q ',gpu_sum_by_queue_ns,work_frames,.*,cs_invocations_per_frame,type$' "$csv"; then
		echo "FAIL: the CSV snapshot has no gpu_sum_by_queue_ns and work columns before type"; fails=1
	elif [[ "$api" == vulkan ]] && ! grep -Eq '^fountain,.*,graphics:[0-9]+;compute:[0-9]+,,,,,,,,,particles$' "$csv"; then
		echo "FAIL: the CSV snapshot's fountain has no per-queue sums and empty work columns:"
		grep '^fountain,' "$csv"; fails=1
	else
		echo "ok   CSV snapshot: per-queue sums ($(grep '^fountain,' "$csv" | awk -F, '{print $(NF-9)}')), work off"
	fi
fi
if [[ -z "$json" ]] || ! jq -e '.schema == "srcprof-live/1" and (.sources | length) > 0' "$json" >/dev/null; then
	echo "FAIL: no JSON snapshot with sources was downloaded"; fails=1
else
	echo "ok   JSON snapshot: $(jq '.sources | length' "$json") sources"
fi
if [[ -z "$trace" ]] || ! "$trace_check" "$trace" --gpu; then
	echo "FAIL: no valid trace was downloaded"; fails=1
else
	echo "ok   trace: $(stat -c %s "$trace") bytes"
fi
size=$(stat -c %s "$out/page.png" 2>/dev/null || echo 0)
if ((size > 20000)); then echo "ok   the page renders ($size bytes of PNG)"; else
	echo "FAIL: no screenshot ($size bytes)"; fails=1; fi
[[ -n "${SRCPROF_LIVE_SHOT:-}" && -f "$out/page.png" ]] && cp "$out/page.png" "$SRCPROF_LIVE_SHOT"
stop_demo || fails=1
exit $fails
