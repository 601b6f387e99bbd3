#!/usr/bin/env bash
# The demo headless with its sources ticked on 2 threads, each view
# recorded on 4 and the particles simulated by compute, under validation
# (Vulkan: synchronization with queue submits, best practices; OpenGL:
# debug output): no message, no warning, and every output says what ran
# where - the table's threads and queues lines and the particles' GPU sum
# by queue, the CSV's gpu_sum_by_queue_ns, the pass CSV's queue column, a
# trace with a GPU track per queue. OpenGL records on one thread and has
# no compute: it says so once each and runs on.
# usage: threads.sh <srcprof-demo> <trace_check> <api>
set -u
demo="$1" check="$2" api="$3"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

if ! "$demo" --api "$api" --headless --frames 150 --validate --tick-threads 2 \
	--record-threads 4 --compute --gpu-budget 100 --csv "$out/s.csv" --pass-csv "$out/p.csv" \
	--trace "$out/t.json" --script 20:T >"$out/stdout" 2>"$out/stderr"; then
	echo "FAIL: the demo exited with an error"; cat "$out/stdout" "$out/stderr"; exit 1
fi
grep -q "^validation: 0 messages" "$out/stdout" || fail "validation: $(grep '^validation:' "$out/stdout")"
if grep -E "warning|error" "$out/stderr"; then fail "a warning or error line"; fi
if [[ "$api" == vulkan ]]; then
	grep -q "^threads: sources ticked on 2, views recorded on 4" "$out/stdout" ||
		fail "no threads line in the table"
	grep -q "^queues: graphics, compute" "$out/stdout" || fail "no queues line in the table"
	grep -qE "GPU sum by queue: graphics [0-9.]+ \([0-9]+ samples\), compute [0-9.]+" \
		"$out/stdout" || fail "no particles' GPU sum by queue"
	grep -qE "^fountain,.*,graphics:[0-9]+;compute:[0-9]+(,|$)" "$out/s.csv" ||
		fail "the CSV's fountain row has no GPU sum by queue"
	grep -qE "^fountain,simulate,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,compute(,|$)" "$out/p.csv" ||
		fail "the pass CSV has no simulate pass on compute"
	"$check" "$out/t.json" --gpu-tracks 2 >"$out/check" 2>&1 || { fail "trace"; cat "$out/check"; }
else
	grep -q "OpenGL records a frame on one thread (one context): 4 record threads asked for, 1 used" \
		"$out/stderr" || fail "OpenGL does not say it records on one thread"
	grep -q "the OpenGL backend has no compute here: particle sources simulate on the CPU" \
		"$out/stderr" || fail "OpenGL does not say it has no compute"
	grep -q "^threads: sources ticked on 2, views recorded on 1" "$out/stdout" ||
		fail "no threads line in the table"
	if grep -q "^queues:" "$out/stdout"; then fail "a queues line with one queue"; fi
	"$check" "$out/t.json" --gpu-tracks 1 >"$out/check" 2>&1 || { fail "trace"; cat "$out/check"; }
fi
((fails)) || echo "PASS"
exit $((fails > 0))
