#!/usr/bin/env bash
# Sum over sources = whole-frame query (--work-check), every scene, under
# validation: the demo pauses the scene, adds up every source's work
# counts of one GPU-timed frame, counts the same frame drawn again with one
# query around all of it and the views' passes with nothing drawn, and
# exits 1 unless sources + passes = whole frame for every counter. The
# stress scene at 1,000 sources; Vulkan also with record and tick threads
# and compute (compute invocations counted on both sides).
# usage: work_check.sh <srcprof-demo> <api>
set -u
demo="$1" api="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
fails=0
check() { # <name> <demo options...>
	local name="$1"
	shift
	if ! "$demo" --api "$api" --headless --frames 20 --validate --work-check "$@" \
		>"$out/$name" 2>&1; then
		echo "FAIL: $name: exit status not 0"; cat "$out/$name"; fails=1; return
	fi
	if ! grep -qE "^work check: [0-9]+ sources' counts of one frame, summed, plus its passes with nothing drawn, against one query around the whole frame: equal \(7 of 7 counters\)$" "$out/$name"; then
		echo "FAIL: $name: no equal work check"; cat "$out/$name"; fails=1; return
	fi
	grep -q "^validation: 0 messages" "$out/$name" ||
		{ echo "FAIL: $name: $(grep '^validation:' "$out/$name")"; fails=1; }
	# Every counter as a number on each side: none n/a on these drivers.
	local rows
	rows=$(grep -cE "^  [a-zA-Z ]+ +[0-9]+ \+ +[0-9]+ = +[0-9]+$" "$out/$name")
	[[ $rows == 7 ]] || { echo "FAIL: $name: $rows counter rows of 7"; cat "$out/$name"; fails=1; }
	echo "$name: $(grep -m1 '^work check' "$out/$name" | cut -c13-40) ok"
}
for scene in default grid multiview media effects calibrated tiles work; do
	check "$scene" --scene "$scene"
done
check stress --scene stress --sources 1000
if [[ "$api" == vulkan ]]; then
	check threads --record-threads 2 --tick-threads 2 --compute
	grep -qE "^  CS invocations +[1-9][0-9]* \+ +0 = +[1-9][0-9]*$" "$out/threads" ||
		{ echo "FAIL: no compute invocations counted"; cat "$out/threads"; fails=1; }
fi
((fails)) || echo "PASS"
exit $fails
