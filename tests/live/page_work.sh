#!/usr/bin/env bash
# The live page's work table in real headless Chromium against a headless
# demo run with --work (tests/live/page_work_test.js, driven by cdp_drive):
# the switch and W, every cell the snapshot's count, sorting, a source's
# work per pass, and the CSV download's work columns. Skipped (77) without
# chromium. SRCPROF_LIVE_WORK_SHOT=FILE keeps the screenshot of the work table.
# usage: page_work.sh <srcprof-demo> <cdp_drive> <api>
set -u
demo="$1" drive="$2" api="$3"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/serve_lib.sh"
need_browser
live_scratch

serve_demo "$demo" "$out/demo.txt" --api "$api" --headless --scene default --seconds 600 --work || exit 1
mkdir -p "$out/dl"
"$drive" "$browser" "$url" "$here/page_work_test.js" "$out/dl" --size 1500x1000 \
	--screenshot "$out/page.png" >"$out/drive.txt" 2>&1
st=$?
cat "$out/drive.txt"
fails=0
if [[ $st != 0 ]]; then echo "FAIL: the page's checks (exit $st)"; fails=1; fi

# The CSV download: the profiler's work columns, a source with counted
# frames and counts, one never drawn with 0 frames and n/a.
csv=$(ls "$out"/dl/srcprof-snapshot-*.csv 2>/dev/null | head -1)
if [[ -z "$csv" ]] || ! grep -q ',gpu_sum_by_queue_ns,work_frames,input_vertices_per_frame,.*,cs_invocations_per_frame,type$' "$csv"; then
	echo "FAIL: no CSV snapshot with work columns was downloaded"; fails=1
elif ! grep -Eq '^fountain,.*,[1-9][0-9]*,[1-9][0-9]*,[1-9][0-9]*,[1-9][0-9]*,[0-9]+,[0-9]+,[1-9][0-9]*,([0-9]+|n/a),particles$' "$csv"; then
	echo "FAIL: the CSV snapshot's fountain has no work counts:"; grep '^fountain,' "$csv"; fails=1
elif ! grep -q '^game-logic,.*,0,n/a,n/a,n/a,n/a,n/a,n/a,n/a,logic$' "$csv"; then
	echo "FAIL: the CSV snapshot's game-logic (never drawn) is not 0 frames and n/a:"
	grep '^game-logic,' "$csv"; fails=1
else
	echo "ok   CSV snapshot: work columns ($(grep '^fountain,' "$csv" | awk -F, '{print "fountain: " $(NF-8) " frames, FS " $(NF-2)}'))"
fi
size=$(stat -c %s "$out/page.png" 2>/dev/null || echo 0)
if ((size > 20000)); then echo "ok   the page renders ($size bytes of PNG)"; else
	echo "FAIL: no screenshot ($size bytes)"; fails=1; fi
[[ -n "${SRCPROF_LIVE_WORK_SHOT:-}" && -f "$out/page.png" ]] && cp "$out/page.png" "$SRCPROF_LIVE_WORK_SHOT"
stop_demo || fails=1
exit $fails
