#!/usr/bin/env bash
# An example renderer built against the installed library, in plain GPU
# timing (the mode of every real GPU), under validation: exit 0, every
# frame GPU-timed and kept, each object's GPU samples all but the warm-up's
# first 3 frames, no warning or error line, no validation message.
# usage: example_plain.sh <example> [ROWS [ARGS...]]
#   ROWS: an extended regex of the table's object names (default: the three
#   objects); ARGS: more options for the example (--threads 4).
set -u
ex="$1"
rows="${2:-small|medium|large}"
shift $(($# < 2 ? $# : 2))
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$ex" --frames 120 --validate --timing plain "$@" >"$out/stdout" 2>"$out/stderr"
rc=$?
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
((rc == 0)) || fail "exit status $rc"
if grep -iE "warning|error" "$out/stderr"; then fail "a warning or error line"; fi
line="$(grep -E "GPU timing [a-z]+-timestamp: [0-9]+ frames" "$out/stdout")"
if [[ "$line" =~ :\ ([0-9]+)\ frames,\ ([0-9]+)\ GPU-timed\ and\ kept ]]; then
	frames="${BASH_REMATCH[1]}" kept="${BASH_REMATCH[2]}"
	[[ "$frames" == "$kept" ]] || fail "$frames frames, $kept GPU-timed and kept"
	# object, GPU avg, GPU p50, GPU samples, CPU render, tick
	table="$(awk -v rows="^($rows) " '$0 ~ rows && NF == 6' "$out/stdout")"
	[[ -n "$table" ]] || fail "no table row matches '$rows'"
	bad="$(awk -v want=$((kept - 3)) '$4 != want' <<<"$table")"
	[[ -z "$bad" ]] || fail "GPU samples not $((kept - 3)): $bad"
else
	fail "no 'GPU timing <plain mode>: N frames, N GPU-timed and kept' line"
fi
grep -qE "^(validation|GL debug): 0 messages" "$out/stdout" || fail "validation messages"
if ((fails)); then cat "$out/stdout" "$out/stderr"; exit 1; fi
echo "PASS: $line"
