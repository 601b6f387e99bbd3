#!/usr/bin/env bash
# Work counters (--work) end to end on the demo, headless.
# Vulkan: two runs of the default scene, every frame GPU-timed, give every
# scene source the same counts column for column (the overlay's text moves
# with the clock and is left out), counted columns are numbers, and the
# pass CSV's rows of a source add up to its row; with record and tick
# threads and compute under validation: no message, the fountain's compute
# invocations are counted on its simulate pass. OpenGL: one line says the
# counters are n/a, and the columns read n/a.
# usage: work.sh <srcprof-demo> <api>
set -u
demo="$1" api="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# The work columns (work_frames and the seven per-frame averages) of each
# source but the overlay, sorted.
work_cols() {
	grep -v '^#' "$1" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "work_frames") w = i; next }
		$1 != "overlay" { line = $1; for (i = w; i <= w + 7; i++) line = line "," $i; print line }' | sort
}

if [[ "$api" == gl ]]; then
	"$demo" --api gl --headless --frames 60 --work --csv "$out/g.csv" >"$out/stdout" 2>"$out/stderr" ||
		{ echo "FAIL: the demo exited with an error"; cat "$out/stderr"; exit 1; }
	grep -q "work counters are n/a: the OpenGL timer" "$out/stderr" || fail "no line saying work is n/a"
	[[ "$(grep -c 'work counters' "$out/stderr")" == 1 ]] || fail "said more than once"
	bad="$(work_cols "$out/g.csv" | grep -vc ',0,n/a,n/a,n/a,n/a,n/a,n/a,n/a$')"
	[[ "$bad" == 0 ]] || fail "$bad rows without n/a work columns"
	(( fails == 0 )) && echo "ok   OpenGL: work counters n/a, said once"
	exit $((fails > 0))
fi

for run in 1 2; do
	"$demo" --api vulkan --headless --frames 300 --work --gpu-budget 100 --csv "$out/$run.csv" \
		--pass-csv "$out/p$run.csv" >"$out/stdout$run" 2>"$out/stderr$run" ||
		{ echo "FAIL: run $run exited with an error"; cat "$out/stderr$run"; exit 1; }
done
work_cols "$out/1.csv" >"$out/w1"
work_cols "$out/2.csv" >"$out/w2"
[[ "$(wc -l <"$out/w1")" -ge 10 ]] || fail "fewer than 10 sources: $(cat "$out/w1")"
if ! diff "$out/w1" "$out/w2" >"$out/diff"; then
	fail "the two runs' work differs:"; cat "$out/diff"
fi
# Every source that draws has vertices and fragments; none reads n/a but
# the one that renders nothing (game-logic: no frame counted).
grep -v '^game-logic,' "$out/w1" | grep -q 'n/a' && fail "n/a on Vulkan: $(grep n/a "$out/w1" | head -3)"
grep -q '^game-logic,0,n/a,' "$out/w1" || fail "game-logic: $(grep '^game-logic,' "$out/w1")"
awk -F, '$1 ~ /^mesh-/ && !($3 > 0 && $8 > 0) { bad = 1 } END { exit bad }' "$out/w1" ||
	fail "a mesh without vertices or fragments: $(grep '^mesh-' "$out/w1")"
# A source's passes add up to it (fragments: column 7 of the seven).
sum_passes() {
	grep -v '^#' "$1" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "fs_invocations_per_frame") w = i; next }
		{ s[$1] += $w } END { for (k in s) print k "," s[k] }' | sort
}
fs_rows() {
	grep -v '^#' "$1" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "fs_invocations_per_frame") w = i; next }
		{ print $1 "," $w }' | sort
}
# Averages are floored per pass: the passes' sum is within a count per pass.
join -t, <(sum_passes "$out/p1.csv") <(fs_rows "$out/1.csv") |
	awk -F, '{ d = $2 - $3; if (d < 0) d = -d; if (d > 4) { print; bad = 1 } } END { exit bad }' ||
	fail "a source's passes do not add up to its fragments"
(( fails == 0 )) && echo "ok   two runs: every source's work identical ($(wc -l <"$out/w1") sources)"

"$demo" --api vulkan --headless --frames 120 --work --validate --tick-threads 2 --record-threads 4 \
	--compute --gpu-budget 100 --csv "$out/t.csv" --pass-csv "$out/tp.csv" >"$out/stdout" \
	2>"$out/stderr" || { fail "the threads run exited with an error"; cat "$out/stderr"; }
grep -q "^validation: 0 messages" "$out/stdout" || fail "validation: $(grep '^validation:' "$out/stdout")"
grep -E "warning|error" "$out/stderr" && fail "a warning or error line"
cs="$(grep -v '^#' "$out/tp.csv" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "cs_invocations_per_frame") w = i; next }
	$1 == "fountain" && $2 == "simulate" { print $w }')"
[[ "$cs" =~ ^[1-9][0-9]*$ ]] || fail "the fountain's simulate pass counts no compute invocations: '$cs'"
(( fails == 0 )) && echo "ok   4 record threads, 2 tick threads, compute, validation: 0 messages; fountain simulates with $cs invocations a frame"
exit $((fails > 0))
