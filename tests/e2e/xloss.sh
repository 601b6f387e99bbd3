#!/usr/bin/env bash
# The window system goes away under a windowed run (its X server killed):
# the demo prints the table, completes every file, says what happened and
# exits with status 1 (Xlib's default would exit 1 with nothing saved).
# usage: xvfb.sh xloss.sh <srcprof-demo> <trace_check> <api>
set -u
demo="$1" check="$2" api="$3"
out="$(mktemp -d)"
xpid="" pid=""
trap '[[ -n "$pid" ]] && kill -KILL "$pid" 2>/dev/null; rm -rf "$out"' EXIT
fails=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }

if [[ -z "${XVFB_PID:-}" || -z "${DISPLAY:-}" ]]; then
	echo "FAIL: run me under xvfb.sh (it gives DISPLAY and XVFB_PID)"; exit 1
fi
xpid="$XVFB_PID"

DISPLAY="$DISPLAY" "$demo" --api "$api" --seconds 120 --csv "$out/a.csv" --pass-csv "$out/p.csv" \
	--trace "$out/t.json" --perf-log "$out/perf.log" --log "$out/l.csv" --screenshot "$out/s.png" \
	>"$out/stdout" 2>"$out/stderr" &
pid=$!
for _ in $(seq 1 600); do
	[[ -f "$out/l.csv" ]] && (( $(grep -vc '^#' "$out/l.csv") > 1 )) && break
	sleep 0.1
done
if ! grep -q "scene default: 12 sources$" "$out/stderr"; then
	fail "the run did not open a window"; cat "$out/stderr"
fi
kill "$xpid"
wait "$pid"
status=$?
pid=""
[[ "$status" == 1 ]] && ok "exit status 1" || fail "exit status $status, want 1"
grep -q "the connection to the X display '$DISPLAY' broke" "$out/stderr" && ok "said so" ||
	{ fail "no message"; tail -5 "$out/stderr"; }
grep -qE "^scene default: 12 sources, sorted by" "$out/stdout" && ok "table printed" ||
	fail "no table"
for f in a.csv p.csv l.csv; do
	if [[ -s "$out/$f" ]] && (( $(grep -vc '^#' "$out/$f") > 5 )) &&
		[[ "$(tail -c 1 "$out/$f" | od -An -c | tr -d ' ')" == '\n' ]]; then
		ok "$f complete"
	else
		fail "$f incomplete"
	fi
done
"$check" "$out/t.json" >/dev/null && ok "trace parses" || fail "trace does not parse"
grep -q -- "--screenshot: not written: the display was lost" "$out/stderr" &&
	[[ ! -e "$out/s.png" ]] && ok "--screenshot: said it was not written" ||
	fail "--screenshot: nothing said, or a file left"
if [[ -s "$out/perf.log" ]] && awk -F, '!/^Frame : / && NF != 5 { bad = 1 } END { exit bad }' \
	"$out/perf.log"; then
	ok "perf log has whole lines"
else
	fail "perf log cut"
fi
exit $((fails > 0))
