#!/usr/bin/env bash
# Work counters (--work) end to end on the demo, headless, on either API:
# two runs of the default scene, every frame GPU-timed, give every scene
# source the same counts column for column (the overlay's text moves with
# the clock and is left out), counted columns are numbers, and the pass
# CSV's rows of a source add up to its row. Vulkan also: with record and
# tick threads and compute under validation, no message, and the
# fountain's compute invocations counted on its simulate pass.
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

for run in 1 2; do
	validate=()
	(( run == 1 )) && validate=(--validate)
	"$demo" --api "$api" --headless --frames 300 --work --gpu-budget 100 --csv "$out/$run.csv" \
		--pass-csv "$out/p$run.csv" "${validate[@]}" >"$out/stdout$run" 2>"$out/stderr$run" ||
		{ echo "FAIL: run $run exited with an error"; cat "$out/stdout$run" "$out/stderr$run"; exit 1; }
done
grep -q "^validation: 0 messages" "$out/stdout1" || fail "validation: $(grep '^validation:' "$out/stdout1")"
grep -E "warning|error" "$out/stderr1" "$out/stderr2" && fail "a warning or error line"
work_cols "$out/1.csv" >"$out/w1"
work_cols "$out/2.csv" >"$out/w2"
[[ "$(wc -l <"$out/w1")" -ge 10 ]] || fail "fewer than 10 sources: $(cat "$out/w1")"
if ! diff "$out/w1" "$out/w2" >"$out/diff"; then
	fail "the two runs' work differs:"; cat "$out/diff"
fi
# Every source that draws has vertices and fragments; none reads n/a but
# the one that renders nothing (game-logic: no frame counted).
grep -v '^game-logic,' "$out/w1" | grep -q 'n/a' && fail "n/a on $api: $(grep n/a "$out/w1" | head -3)"
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
(( fails == 0 )) && echo "ok   $api, two runs: every source's work identical ($(wc -l <"$out/w1") sources)"
# The work scene: the rectangle with 8x the shading per pixel shades the
# plain one's fragments, the one drawn 8 times over itself 8 times them
# (and 8x its vertices). Then + grows its sphere.
"$demo" --api "$api" --headless --frames 60 --work --gpu-budget 100 --scene work --csv "$out/w.csv" \
	--script 20:T --trace "$out/t.json" >"$out/stdoutw" 2>"$out/stderrw" ||
	{ fail "the work scene exited with an error"; cat "$out/stderrw"; }
col() { # <csv> <source> <column>
	grep -v '^#' "$1" | awk -F, -v s="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) w = i; next }
		$1 == s { print $w }'
}
fs=fs_invocations_per_frame
plain="$(col "$out/w.csv" plain-k1 $fs)" costly="$(col "$out/w.csv" costly-k8 $fs)"
over="$(col "$out/w.csv" overdraw-x8 $fs)" verts="$(col "$out/w.csv" overdraw-x8 input_vertices_per_frame)"
if [[ "$plain" =~ ^[1-9][0-9]*$ && "$costly" == "$plain" && "$over" == "$((8 * plain))" && "$verts" == 48 ]]; then
	echo "ok   $api work scene: fragments plain $plain, 8x costlier per pixel $costly, drawn 8x over $over ($verts vertices)"
else
	fail "work scene: plain '$plain', costly '$costly', overdraw '$over' fragments, '$verts' vertices"
fi
# + in the work scene doubles the sphere's triangles twice: its vertices
# 4x (every counted frame but the first at the new level) over the same
# area; its fragments grow too, less (lavapipe and llvmpipe count each
# triangle's 4x4 blocks whole: 1.6x here, docs/gpu-timing.md).
"$demo" --api "$api" --headless --frames 60 --work --gpu-budget 100 --scene work --csv "$out/d.csv" \
	--script 1:+,2:+ >"$out/stdoutd" 2>"$out/stderrd" ||
	{ fail "the work scene with + exited with an error"; cat "$out/stderrd"; }
grep -q "^+: detail-sphere: 2116 -> 4096 triangles (level 7 of 13" "$out/stdoutd" ||
	fail "+ did not say the sphere's new triangles: $(grep -m1 'detail-sphere' "$out/stdoutd")"
v0="$(col "$out/w.csv" detail-sphere input_vertices_per_frame)" v2="$(col "$out/d.csv" detail-sphere input_vertices_per_frame)"
f0="$(col "$out/w.csv" detail-sphere $fs)" f2="$(col "$out/d.csv" detail-sphere $fs)"
if [[ "$v0" =~ ^[1-9][0-9]*$ && "$v2" =~ ^[1-9][0-9]*$ && "$f0" =~ ^[1-9][0-9]*$ && "$f2" =~ ^[1-9][0-9]*$ ]] &&
	awk -v a="$v0" -v b="$v2" -v f="$f0" -v g="$f2" 'BEGIN { exit !(b >= 3.5 * a && b <= 4 * a && g > f && g < 2 * f) }'; then
	echo "ok   $api +: the sphere's vertices $v0 -> $v2 a frame, fragments $f0 -> $f2"
else
	fail "+ in the work scene: the sphere's vertices '$v0' -> '$v2', fragments '$f0' -> '$f2'"
fi
# The trace's GPU events carry their render's counts.
n="$(grep -c "\"name\":\"overdraw-x8\",\"cat\":\"gpu\".*\"input_vertices\":48,.*\"fs_invocations\":$over," "$out/t.json")"
if [[ "$n" -ge 10 ]]; then
	echo "ok   $api trace: $n GPU events of overdraw-x8 with its counts as args"
else
	fail "the trace's GPU events of overdraw-x8 lack its counts ($n): $(grep -m1 '"name":"overdraw-x8","cat":"gpu"' "$out/t.json")"
fi
# OpenGL records on one thread and has no compute: the rest is Vulkan's.
[[ "$api" == vulkan ]] || exit $((fails > 0))

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
