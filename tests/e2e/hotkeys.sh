#!/usr/bin/env bash
# The demo in a window under Xvfb, driven by real key events (xdotool):
# C, S, T, L, M, Tab, Down, Page Down, Enter, Z, F1, O, G, P each do what
# they say; the files appear and parse.
# usage: xvfb.sh hotkeys.sh <srcprof-demo> <trace_check> <api>
set -u
demo="$1" check="$2" api="$3"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$demo" --api "$api" --frames 100000 --seconds 120 --out-dir "$out" --validate \
	>"$out/stdout" 2>"$out/stderr" &
pid=$!
win=""
for _ in $(seq 1 100); do
	win="$(xdotool search --name "srcprof demo" 2>/dev/null | head -1)"
	[[ -n "$win" ]] && break
	sleep 0.2
done
if [[ -z "$win" ]]; then
	echo "FAIL: no demo window appeared"; cat "$out/stderr"; kill "$pid"; exit 1
fi
press() { xdotool key --window "$win" "$1"; sleep "${2:-1.5}"; }
sleep 3            # a few frames first
press c
press s 2
press t 7          # a 5-second capture, written when it ends
press l
press Tab
press Down
press Next
press Return
press Return
press z
press m
press l
press F1
press o
press o
press g
press p
press Escape 3
if ! wait "$pid"; then
	echo "FAIL: the demo exited with an error"; cat "$out/stderr"; exit 1
fi
fails=0
expect() { # <pattern in stdout>
	if grep -qE -- "$1" "$out/stdout"; then echo "ok   $1"; else echo "FAIL: no line '$1'"; fails=$((fails + 1)); fi
}
expect "^C: CSV snapshot of [0-9]+ sources written to "
expect "^S: screenshot written to "
expect "^T: trace of [0-9]+ frames .* written to "
expect "^L: logging every source once a second to .*/srcprof-log-"
expect "^Tab: sorted by GPU sum$"
expect "^Down: [a-z0-9-]+ selected \(1 of 13\)$"
expect "^PgDn: [a-z0-9()-]+ selected \([0-9]+ of 13\)$"
expect "^Enter: detail of "
expect "^Enter: detail closed$"
expect "^Z: overlay scale 1$"
expect "^M: measuring now: every frame GPU-timed until each source holds 30 GPU samples \(at most 3 s from the first\)$"
expect "^L: log stopped: [0-9]+ rows in "
expect "^F1: help shown"
expect "^O: overlay off"
expect "^O: overlay on"
expect "^G: GPU timing off"
expect "^P: profiler off"
expect "^Esc: quitting"
expect "^validation: 0 messages"
csv="$(ls "$out"/srcprof-snapshot-*.csv 2>/dev/null | head -1)"
if [[ -n "$csv" ]] && grep -v '^#' "$csv" | head -1 | grep -q '^source,tick_avg_ns,' && (( $(wc -l <"$csv") > 5 )); then
	echo "ok   CSV header and rows"
else
	echo "FAIL: CSV missing or empty"; fails=$((fails + 1))
fi
png="$(ls "$out"/srcprof-screenshot-*.png 2>/dev/null | head -1)"
if [[ -n "$png" ]] && [[ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" == "89504e470d0a1a0a" ]]; then
	echo "ok   screenshot is a PNG"
else
	echo "FAIL: screenshot missing or not a PNG"; fails=$((fails + 1))
fi
log="$(ls "$out"/srcprof-log-*.csv 2>/dev/null | head -1)"
if [[ -n "$log" ]] && grep -v '^#' "$log" | head -1 | grep -q '^time_s,frame,source,' &&
	(( $(grep -vc '^#' "$log") > 13 )); then
	echo "ok   log header and rows"
else
	echo "FAIL: log missing or empty"; fails=$((fails + 1))
fi
json="$(ls "$out"/srcprof-trace-*.json 2>/dev/null | head -1)"
if [[ -n "$json" ]] && "$check" "$json" --gpu --blocks; then
	echo "ok   trace parses, nests, has a GPU track and blocks"
else
	echo "FAIL: trace missing or malformed"; fails=$((fails + 1))
fi
exit $((fails > 0))
