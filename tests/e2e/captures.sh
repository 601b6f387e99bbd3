#!/usr/bin/env bash
# Captures never collide and say what they measured: two runs in one
# --out-dir, each taking two snapshots in one frame, a screenshot, a trace
# and a log (L), keep all ten files under names with date, time and a
# sequence number; each file records the scene, API, device, driver, GPU
# timing, start time and frame; the log has one row per source per second.
# --log FILE logs from the start.
# usage: captures.sh <srcprof-demo> <trace_check> <api>
set -u
demo="$1" check="$2" api="$3"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
fails=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL: $1"; fails=$((fails + 1)); }

mkdir -p "$out/dir"
for run in 1 2; do
	# Frames, not seconds: a run under ASan on a busy machine reached frame
	# 10 of its keys after more than 5 s.
	if ! "$demo" --api "$api" --headless --frames 30 --out-dir "$out/dir" \
		--script "10:C,10:C,11:S,12:T,13:L" >"$out/stdout-$run" 2>"$out/stderr-$run"; then
		fail "run $run exited with an error"; cat "$out/stderr-$run"
	fi
done
# --log FILE: the same log from the first frame (and L would stop it).
if ! "$demo" --api "$api" --headless --seconds 3 --log "$out/from-start.csv" \
	>"$out/stdout-3" 2>"$out/stderr-3"; then
	fail "the --log run exited with an error"; cat "$out/stderr-3"
fi

name='[0-9]{8}-[0-9]{6}-[0-9]{3}'
count() { ls "$out/dir" | grep -cE "^srcprof-$1-$name\\.$2\$"; }
[[ "$(count snapshot csv)" == 4 ]] && ok "4 snapshots" || fail "$(count snapshot csv) snapshots, want 4"
[[ "$(count screenshot png)" == 2 ]] && ok "2 screenshots" || fail "$(count screenshot png) screenshots"
[[ "$(count trace json)" == 2 ]] && ok "2 traces" || fail "$(count trace json) traces, want 2"
[[ "$(count log csv)" == 2 ]] && ok "2 logs" || fail "$(count log csv) logs, want 2"
others="$(ls "$out/dir" | grep -vcE "^srcprof-(snapshot|screenshot|trace|log)-$name\\.(csv|png|json)\$")"
[[ "$others" == 0 ]] && ok "no other files" || { fail "other files:"; ls "$out/dir"; }
# Two snapshots in one frame: the sequence number tells them apart.
grep -hE "^C: CSV snapshot of 12 sources written to .*-00[12]\\.csv" "$out"/stdout-1 | wc -l |
	grep -q '^2$' && ok "two snapshots in one frame: -001 and -002" || fail "snapshot names"

# The record's lines ("key: value"; in JSON "key":"value"), all there.
record() { # <file>
	local f="$1" kv key value
	for kv in "scene|default, 12 sources" "api|$api" "device|." "driver|." "gpu timing|." \
		"run started|[0-9]{4}-[0-9]{2}-[0-9]{2}T" "written|[0-9]{4}-" "frame|[0-9]+" \
		"program|srcprof-demo [0-9.]+ \\(git "; do
		key="${kv%%|*}" value="${kv#*|}"
		grep -aqE -- "(^|# |\")$key(: |\":\")$value" "$f" ||
			{ echo "  $f lacks '$key: $value'"; return 1; }
	done
}
for f in "$out"/dir/srcprof-snapshot-*.csv; do
	if record "$f" && head -1 "$f" | grep -q '^# srcprof-demo snapshot' &&
		grep -q '^# units: ' "$f" && grep -v '^#' "$f" | head -1 | grep -q '^source,tick_avg_ns,'; then
		ok "$(basename "$f"): record, units, header"
	else
		fail "$(basename "$f") lacks its record or header"
	fi
done
# The intervals: every row as wide as the header, and a source with GPU
# samples that vary (fountain's particles move) has a GPU sum interval
# (not bounded by the sum: at frame 10 it stands on ~5 samples, and one
# preempted frame among them can make it wider than the average).
intervals() { # <file>
	grep -v '^#' "$1" | awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; nf = NF; next }
		NF != nf { bad = 1 }
		$1 == "fountain" && $col["gpu_samples"] > 1 && $col["render_gpu_sum_ci95_ns"] > 0 { seen = 1 }
		END { exit !(col["render_gpu_sum_ci95_ns"] && col["render_sum_ci95_ns"] && seen && !bad) }'
}
for f in "$out"/dir/srcprof-snapshot-*.csv; do
	intervals "$f" && ok "$(basename "$f"): fountain's GPU sum has a 95% interval" ||
		fail "$(basename "$f"): no interval columns, ragged rows, or fountain's interval is 0"
done
for f in "$out"/dir/srcprof-screenshot-*.png; do
	if [[ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" == "89504e470d0a1a0a" ]] &&
		grep -aq "tEXtComment" "$f" && record "$f"; then
		ok "$(basename "$f"): a PNG with the record"
	else
		fail "$(basename "$f"): not a PNG with the record"
	fi
done
for f in "$out"/dir/srcprof-trace-*.json; do
	if "$check" "$f" >/dev/null && grep -q '^{"metadata":{"program":"srcprof-demo' "$f" && record "$f"; then
		ok "$(basename "$f"): parses, with the record"
	else
		fail "$(basename "$f"): bad trace or no record"
	fi
done
# A log: the record, then at each second (and when it stops) one row for
# each of the 12 sources and the overlay; times rise, frames never fall.
# How many seconds a run holds depends on the machine's speed: not checked.
check_log() { # <file>
	local f="$1"
	record "$f" || return 1
	grep -v '^#' "$f" | head -1 | grep -q '^time_s,frame,source,type,tick_avg_ns,' || return 1
	grep -v '^#' "$f" | tail -n +2 | awk -F, '
		$1 + 0 < last_t || $2 + 0 < last_f { bad = 1 }
		{ n[$1]++; last_t = $1 + 0; last_f = $2 + 0; if ($3 == "overlay") overlay++ }
		END { if (bad || length(n) < 1 || overlay != length(n)) exit 1
		      for (t in n) if (n[t] != 13) exit 1 }'
}
for f in "$out"/dir/srcprof-log-*.csv "$out"/from-start.csv; do
	check_log "$f" && ok "$(basename "$f"): 13 rows a second" || fail "$(basename "$f"): bad log"
done
exit $((fails > 0))
