#!/usr/bin/env bash
# Scripted key presses, headless: C, S, T, +, -, a scene switch, P and G go
# through the hotkey handler; the files appear and parse; the final
# screenshot shows the scene with the overlay.
# usage: script.sh <srcprof-demo> <trace_check> <api>
set -u
demo="$1" check="$2" api="$3"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
if ! "$demo" --api "$api" --headless --frames 160 --validate --out-dir "$out" \
	--script "5:C,10:T,20:+,30:-,40:S,60:3,100:G,120:P" --screenshot "$out/final.png" \
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
expect "^\+: added 10 sources"
expect "^-: removed 10 sources"
expect "^S: screenshot written to "
expect "^3: scene multiview"
expect "^G: GPU timing off"
expect "^P: profiler off"
expect "^validation: 0 messages"
"$check" "$(ls "$out"/srcprof-trace-*.json | head -1)" --gpu --blocks || fails=$((fails + 1))
[[ -s "$out/final.png" ]] || { echo "FAIL: no final screenshot"; fails=$((fails + 1)); }
exit $((fails > 0))
