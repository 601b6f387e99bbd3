#!/usr/bin/env bash
# Plain GPU timing (bare stamps: the mode every real GPU gets) end to end,
# headless, every scene under validation: no warning or error line, every
# collected frame GPU-timed and kept (none dropped), and each source's GPU
# samples all its collected frames but the warm-up's first 3; the trace's
# GPU events inside their GPU frames.
# usage: plain.sh <srcprof-demo> <trace_check> <api>
set -u
demo="$1" check="$2" api="$3"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# gpu_samples of every source against its cpu_samples (a window of $2).
check_csv() { # <csv> <window>
	awk -F, -v window="$2" '
		/^#/ { next }
		!cols { for (i = 1; i <= NF; i++) col[$i] = i; cols = 1; next }
		{
			cpu = $col["cpu_samples"]; gpu = $col["gpu_samples"]; rows++
			want = cpu - 3; if (want < 0) want = 0
			if (cpu >= window) want = window  # a full window: every frame kept
			if (gpu != want) { printf "%s: gpu_samples %s, want %s (cpu_samples %s)\n", $1, gpu, want, cpu; bad++ }
		}
		END { if (!rows) { print "no rows"; exit 1 } exit bad > 0 }' "$1"
}

for scene in default grid multiview media effects calibrated stress; do
	args=(--api "$api" --headless --scene "$scene" --frames 40 --validate --gpu-timing plain
		--csv "$out/$scene.csv")
	# stress at a size that runs in seconds under validation: the
	# plain path is the same for 1,000 sources as for 10,000.
	[[ "$scene" == stress ]] && args+=(--sources 1000 --frames 12)
	# Past the 64 timed frames after which a sampler would call timers
	# that measured no empty timer blind.
	[[ "$scene" == default ]] && args+=(--frames 120 --trace "$out/trace.json")
	if ! "$demo" "${args[@]}" >"$out/$scene.out" 2>"$out/$scene.err"; then
		fail "$scene: exit status $?"; tail -5 "$out/$scene.err"; continue
	fi
	grep -q "^validation: 0 messages" "$out/$scene.out" "$out/$scene.err" ||
		fail "$scene: not 'validation: 0 messages'"
	if grep -iE "warning|error" "$out/$scene.err"; then fail "$scene: a warning or error line"; fi
	grep -q "GPU timing: [a-z]*-timestamp " "$out/$scene.out" ||
		fail "$scene: the table does not name plain timing"
	line="$(grep -E "^window: [0-9]+ frames; collected" "$out/$scene.out")"
	window="$(sed -E 's/^window: ([0-9]+) frames.*/\1/' <<<"$line")"
	if [[ "$line" =~ collected\ ([0-9]+)\ frames,\ GPU\ ([0-9]+)\ kept,\ ([0-9]+)\ dropped ]]; then
		c="${BASH_REMATCH[1]}" k="${BASH_REMATCH[2]}" d="${BASH_REMATCH[3]}"
		[[ "$c" == "$k" && "$d" == 0 && "$c" -gt 3 ]] ||
			fail "$scene: collected $c frames, GPU $k kept, $d dropped"
	else
		fail "$scene: no window line"
	fi
	check_csv "$out/$scene.csv" "$window" || fail "$scene: GPU samples are not the frames collected"
	echo "ok   $scene: $line"
done
"$check" "$out/trace.json" --gpu --gpu-in-frames || fail "the trace"
exit $((fails > 0))
