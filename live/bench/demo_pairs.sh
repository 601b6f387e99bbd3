#!/usr/bin/env bash
# What the live view costs a real renderer: pairs of headless srcprof-demo
# runs in alternating order, one alone and one serving its live view with
# two viewers streaming (curl on /api/v1/stream), and per pair the frame
# time (from the run's --log: frames over seconds after the first row) and
# the sources' CPU and GPU cost (the sums over sources of tick + rend sum,
# and of GPU sum, from its --csv). Prints figures; judges nothing.
#   live/bench/demo_pairs.sh <srcprof-demo> [PAIRS] [SECONDS] [SCENE]
set -u
demo="$1" pairs="${2:-5}" seconds="${3:-20}" scene="${4:-default}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# run NAME [--serve]: one run; prints "frame_ms cpu_us gpu_us".
run() {
	local name="$1" serve="${2:-}" pid curls=()
	if [[ -n "$serve" ]]; then
		"$demo" --headless --scene "$scene" --seconds "$seconds" --log "$out/$name.log" \
			--csv "$out/$name.csv" --serve 0 >"$out/$name.txt" 2>&1 &
		pid=$!
		local url=
		for _ in $(seq 600); do
			url=$(grep -o 'http://[^ ]*token=[0-9a-f]*' "$out/$name.txt" | head -1)
			[[ -n "$url" ]] && break
			sleep 0.05
		done
		for k in 1 2; do
			curl -s -N -H "Authorization: Bearer ${url##*token=}" \
				"${url%%/?token=*}/api/v1/stream" >"$out/$name.stream$k" 2>/dev/null &
			curls+=($!)
		done
		wait "$pid"
		kill "${curls[@]}" 2>/dev/null
		wait "${curls[@]}" 2>/dev/null
	else
		"$demo" --headless --scene "$scene" --seconds "$seconds" --log "$out/$name.log" \
			--csv "$out/$name.csv" >"$out/$name.txt" 2>&1
	fi
	# Frames over time between the log's first and last rows.
	local frame_ms
	frame_ms=$(awk -F, '!/^#/ && $1 ~ /^[0-9.]+$/ { if (!n++) { t0 = $1; f0 = $2 } t1 = $1; f1 = $2 }
		END { if (f1 > f0) printf "%.3f", (t1 - t0) * 1000 / (f1 - f0); else print "nan" }' "$out/$name.log")
	local costs
	costs=$(awk -F, '!/^#/ && $1 != "source" && $1 != "overlay" { cpu += $2 + $6; gpu += $9 }
		END { printf "%.1f %.1f", cpu / 1000, gpu / 1000 }' "$out/$name.csv")
	local updates=""
	[[ -n "$serve" ]] && updates=" $(cat "$out/$name".stream* | grep -c '^event: update')"
	echo "$frame_ms $costs$updates"
}

echo "srcprof-demo --headless --scene $scene --seconds $seconds: $pairs pairs, alone / serving two viewers"
echo "pair  frame ms alone / served   ratio   sources' CPU us alone / served   GPU us alone / served   updates streamed"
ratios=() cpu_ratios=() gpu_ratios=()
for p in $(seq "$pairs"); do
	if ((p % 2)); then a=$(run a$p); b=$(run b$p serve); else b=$(run b$p serve); a=$(run a$p); fi
	read -r fa ca ga <<<"$a"
	read -r fb cb gb ub <<<"$b"
	r=$(awk -v x="$fb" -v y="$fa" 'BEGIN { printf "%.3f", x / y }')
	ratios+=("$r")
	cpu_ratios+=("$(awk -v x="$cb" -v y="$ca" 'BEGIN { printf "%.3f", x / y }')")
	gpu_ratios+=("$(awk -v x="$gb" -v y="$ga" 'BEGIN { printf "%.3f", x / y }')")
	printf "%4d  %9s / %-8s %8s   %12s / %-12s %10s / %-10s %s\n" "$p" "$fa" "$fb" "$r" "$ca" "$cb" "$ga" "$gb" "$ub"
done
med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] " (range " v[1] "-" v[NR] ")" }'; }
echo "median ratio served / alone: frame time $(med "${ratios[@]}"), sources' CPU $(med "${cpu_ratios[@]}"), GPU $(med "${gpu_ratios[@]}")"
