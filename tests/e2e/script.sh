#!/usr/bin/env bash
# Scripted key presses, headless: C, S, T, +, -, a scene switch, the
# overlay's keys (sort, select, scroll, detail, scale), M, L, V, P and G go
# through the hotkey handler; the files appear and parse; the final
# screenshot shows the scene with the overlay and a source's detail.
# With "plain", in plain GPU timing (the mode of every real GPU): M says
# every frame is timed already, no warning line appears, and the trace's
# GPU events lie inside their GPU frames.
# usage: script.sh <srcprof-demo> <trace_check> <api> [plain]
set -u
demo="$1" check="$2" api="$3" mode="${4:-auto}"
timing=()
[[ "$mode" == plain ]] && timing=(--gpu-timing plain)
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
if ! "$demo" --api "$api" --headless --frames 160 --validate --out-dir "$out" "${timing[@]}" \
	--script "5:C,10:T,12:TAB,13:DOWN,14:DOWN,15:ENTER,16:ENTER,17:Z,18:M,19:L,20:+,30:-,40:S,60:3,70:END,71:HOME,72:PAGEDOWN,73:PAGEUP,100:G,101:TAB,102:TAB,103:TAB,104:TAB,105:TAB,106:TAB,140:L,145:V,150:DOWN,151:ENTER,155:P" \
	--screenshot "$out/final.png" \
	>"$out/stdout" 2>"$out/stderr"; then
	echo "FAIL: demo exited with an error"; cat "$out/stderr"; exit 1
fi
fails=0
expect() {
	if grep -qE -- "$1" "$out/stdout"; then echo "ok   $1"; else echo "FAIL: no line '$1'"; fails=$((fails + 1)); fi
}
expect "^C: CSV snapshot of [0-9]+ sources written to "
expect "^T: capturing a 5-second trace"
expect "^T: trace of [0-9]+ frames"
expect "^Tab: sorted by GPU sum$"
expect "^Down: [a-z0-9-]+ selected \(1 of 13\)$"
# The selection follows its source when the sort moves it (rend sum
# changes every frame): the second Down is one below wherever it is now.
expect "^Down: [a-z0-9()-]+ selected \([0-9]+ of 13\)$"
expect "^Enter: detail of [a-z0-9()-]+ \(Enter again: the table\)$"
expect "^Enter: detail closed$"
expect "^Z: overlay scale 1$"
expect "^V: headless: no window to synchronise \(vsync does not apply\)$"
if [[ "$mode" == plain ]]; then
	expect "^M: every frame is GPU-timed already \(this mode's timers are cheap: no burst needed\)$"
	if grep -iE "warning|error" "$out/stderr"; then echo "FAIL: a warning or error line"; fails=$((fails + 1)); fi
else
	expect "^M: measuring now: every frame GPU-timed until each source holds 30 GPU samples \(at most 3 s from the first\)$"
fi
expect "^L: logging every source once a second to .*/srcprof-log-[0-9]{8}-[0-9]{6}-001\.csv$"
expect "^L: log stopped: [0-9]+ rows in .*/srcprof-log-"
expect "^End: [a-z0-9()-]+ selected \(13 of 13\)$"
expect "^Home: [a-z0-9-]+ selected \(1 of 13\)$"
expect "^PgDn: [a-z0-9()-]+ selected \([0-9]+ of 13\)$"
expect "^PgUp: [a-z0-9-]+ selected \(1 of 13\)$"
expect "^Tab: sorted by tick$"
expect "^Tab: sorted by GPU p50 \(GPU timing is off: by rend p50 until G\)$"
expect "^Tab: sorted by GPU sum \(GPU timing is off: by rend sum until G\)$"
expect "^\+: added 10 sources"
expect "^-: removed 10 sources"
expect "^S: screenshot written to "
expect "^3: scene multiview"
expect "^G: GPU timing off"
expect "^P: profiler off"
expect "^validation: 0 messages"
"$check" "$(ls "$out"/srcprof-trace-*.json | head -1)" --gpu --blocks --gpu-in-frames || fails=$((fails + 1))
[[ -s "$out/final.png" ]] || { echo "FAIL: no final screenshot"; fails=$((fails + 1)); }
exit $((fails > 0))
