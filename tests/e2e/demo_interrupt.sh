#!/usr/bin/env bash
# Ctrl-C and SIGTERM end a headless run as Esc does: the table is printed,
# every file (--csv, --pass-csv, --trace, --perf-log, --log, --screenshot)
# is complete,
# and the exit status is 128 + the signal (130, 143). A second signal
# stops the run at once: no table, killed by that signal.
# usage: demo_interrupt.sh <srcprof-demo> <trace_check> <api>
set -u
demo="$1" check="$2" api="$3"
out="$(mktemp -d)"
pid=""
trap '[[ -n "$pid" ]] && kill -KILL "$pid" 2>/dev/null; rm -rf "$out"' EXIT
fails=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }

# Waits until the run's log has a row (the frame loop is running).
wait_for_rows() { # <log file>
	for _ in $(seq 1 600); do
		[[ -f "$1" ]] && grep -qv '^#' "$1" && (( $(grep -vc '^#' "$1") > 1 )) && return 0
		sleep 0.1
	done
	return 1
}

# A complete CSV: the '#' record, the header, at least `rows` data rows,
# and a last line that ends in a newline.
complete_csv() { # <file> <header start> <rows>
	[[ -s "$1" ]] && head -1 "$1" | grep -q '^# srcprof-demo' &&
		grep -v '^#' "$1" | head -1 | grep -q "^$2" &&
		(( $(grep -vc '^#' "$1") > $3 )) && [[ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" == '\n' ]]
}

for sig in INT TERM; do
	d="$out/$sig"
	mkdir -p "$d"
	"$demo" --api "$api" --headless --seconds 120 --csv "$d/a.csv" --pass-csv "$d/p.csv" \
		--trace "$d/t.json" --perf-log "$d/perf.log" --log "$d/l.csv" --screenshot "$d/s.png" \
		>"$d/stdout" 2>"$d/stderr" &
	pid=$!
	if ! wait_for_rows "$d/l.csv"; then
		fail "SIG$sig: the run logged nothing"; cat "$d/stderr"; continue
	fi
	kill -"$sig" "$pid"
	wait "$pid"
	status=$?
	pid=""
	want=$((128 + $(kill -l "$sig")))
	[[ "$status" == "$want" ]] && ok "SIG$sig: exit status $status" ||
		fail "SIG$sig: exit status $status, want $want"
	grep -q "SIG$sig: finishing as Esc does" "$d/stderr" && ok "SIG$sig: said so" ||
		fail "SIG$sig: no message on stderr"
	grep -qE "^scene default: 12 sources, sorted by" "$d/stdout" && ok "SIG$sig: table printed" ||
		fail "SIG$sig: no table"
	complete_csv "$d/a.csv" "source,tick_avg_ns," 5 && ok "SIG$sig: --csv complete" ||
		fail "SIG$sig: --csv incomplete"
	complete_csv "$d/p.csv" "source,pass," 5 && ok "SIG$sig: --pass-csv complete" ||
		fail "SIG$sig: --pass-csv incomplete"
	complete_csv "$d/l.csv" "time_s,frame,source," 5 && ok "SIG$sig: --log complete" ||
		fail "SIG$sig: --log incomplete"
	[[ "$(head -c 8 "$d/s.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" == 89504e470d0a1a0a ]] &&
		ok "SIG$sig: --screenshot written" || fail "SIG$sig: no --screenshot"
	"$check" "$d/t.json" >/dev/null && ok "SIG$sig: --trace parses" ||
		fail "SIG$sig: --trace does not parse"
	# The PERF_BLOCK log: whole frames, every line after a "Frame :" line
	# has depth,name,duration,begin,end.
	if [[ -s "$d/perf.log" ]] && [[ "$(tail -c 1 "$d/perf.log" | od -An -c | tr -d ' ')" == '\n' ]] &&
		awk -F, '!/^Frame : / && NF != 5 { bad = 1 } END { exit bad }' "$d/perf.log"; then
		ok "SIG$sig: --perf-log ends with a whole line"
	else
		fail "SIG$sig: --perf-log cut"
	fi
done

# Esc before the last frame: the --screenshot is of the frame after it,
# and the run ends as usual (status 0).
d="$out/esc"
mkdir -p "$d"
"$demo" --api "$api" --headless --seconds 120 --script 10:ESC --screenshot "$d/s.png" \
	>"$d/stdout" 2>"$d/stderr"
status=$?
[[ "$status" == 0 ]] && ok "Esc: status 0" || { fail "Esc: status $status"; cat "$d/stderr"; }
[[ -s "$d/s.png" ]] && grep -q "^screenshot: $d/s.png" "$d/stdout" && ok "Esc: --screenshot written" ||
	fail "Esc: no --screenshot"

# S on the last frame, or the one before (its read-back in flight), and
# --screenshot: the engine holds one request, so --screenshot waits for S's
# file and is of one more frame; both are written.
for at in 20 19; do
	d="$out/s$at"
	mkdir -p "$d"
	"$demo" --api "$api" --headless --frames 20 --script "$at:S" --out-dir "$d" \
		--screenshot "$d/s.png" >"$d/stdout" 2>"$d/stderr"
	status=$?
	shots="$(ls "$d" | grep -c '^srcprof-screenshot-.*\.png$')"
	if [[ "$status" == 0 && -s "$d/s.png" && "$shots" == 1 ]] &&
		grep -q "^screenshot: $d/s.png" "$d/stdout" &&
		grep -q "S: screenshot written to $d/srcprof-screenshot-" "$d/stdout"; then
		ok "S at frame $at and --screenshot: both written"
	else
		fail "S at frame $at and --screenshot: status $status, $shots S files"
		cat "$d/stdout" "$d/stderr" | tail -5
	fi
done

# One request delivered twice (GNU timeout signals the child, then its
# process group): the same signal from the same sender within a second is
# one, and the run finishes as after one.
d="$out/same"
mkdir -p "$d"
"$demo" --api "$api" --headless --seconds 120 --log "$d/l.csv" --csv "$d/a.csv" \
	>"$d/stdout" 2>"$d/stderr" &
pid=$!
if wait_for_rows "$d/l.csv"; then
	kill -INT "$pid"
	sleep 0.05
	kill -INT "$pid"
	wait "$pid"
	status=$?
	pid=""
	if [[ "$status" == 130 ]] && grep -q "sorted by" "$d/stdout" &&
		! grep -q "interrupted again" "$d/stderr" && complete_csv "$d/a.csv" "source,tick_avg_ns," 5; then
		ok "the same SIGINT twice from one sender: one request, the files written"
	else
		fail "the same SIGINT twice from one sender: status $status"; tail -3 "$d/stderr"
	fi
else
	fail "same: the run logged nothing"; cat "$d/stderr"
fi
d="$out/timeout"
mkdir -p "$d"
# GNU timeout passes a signal it gets to its child, then to its process
# group: the child gets it twice.
timeout --preserve-status -s INT 600 "$demo" --api "$api" --headless --seconds 120 \
	--csv "$d/a.csv" --log "$d/l.csv" >"$d/stdout" 2>"$d/stderr" &
pid=$!
if wait_for_rows "$d/l.csv"; then
	kill -INT "$pid"
	wait "$pid"
	status=$?
	pid=""
	if [[ "$status" == 130 ]] && grep -q "sorted by" "$d/stdout" &&
		! grep -q "interrupted again" "$d/stderr" && complete_csv "$d/a.csv" "source,tick_avg_ns," 5; then
		ok "SIGINT through timeout: status 130, the table and --csv written"
	else
		fail "SIGINT through timeout: status $status"; tail -3 "$d/stderr"
	fi
else
	fail "timeout: the run logged nothing"; cat "$d/stderr"
fi

# Twice: the run stops at once. Both signals are made pending while the
# run is stopped, and handled together when it continues, so the second
# always finds the first still finishing: no race with the frame's end.
d="$out/twice"
mkdir -p "$d"
"$demo" --api "$api" --headless --seconds 120 --log "$d/l.csv" --csv "$d/a.csv" \
	--pass-csv "$d/p.csv" --trace "$d/t.json" >"$d/stdout" 2>"$d/stderr" &
pid=$!
if wait_for_rows "$d/l.csv"; then
	kill -STOP "$pid"
	kill -INT "$pid"
	kill -TERM "$pid"
	kill -CONT "$pid"
	wait "$pid"
	status=$?
	pid=""
	[[ "$status" == 130 || "$status" == 143 ]] && ok "twice: status $status (killed by the second)" ||
		fail "twice: status $status, want 130 or 143"
	grep -q "interrupted again: stopping at once" "$d/stderr" && ok "twice: said so" ||
		fail "twice: no message"
	grep -q "sorted by" "$d/stdout" && fail "twice: the table was printed (not at once)" ||
		ok "twice: stopped before the table"
	# --csv, --pass-csv and --trace were not there: none is left behind,
	# empty or half written (the log, written from the start, stays).
	left="$(ls "$d" | grep -v '^l\.csv$\|^stdout$\|^stderr$' | tr '\n' ' ')"
	[[ -z "$left" ]] && ok "twice: no output file left behind" ||
		fail "twice: left behind: $left"
else
	fail "twice: the run logged nothing"; cat "$d/stderr"
fi
exit $((fails > 0))
