#!/usr/bin/env bash
# srcprof-bench compare on bench files written here, whose outcomes are
# known exactly: a source made costlier (its change, interval and p-value
# to the digit), one made cheaper, changes held back by the threshold and
# the floor, too few samples, a busy machine, sources and points in one run
# only, --isolate rounds; the exit status of each; and bad input (exit 2,
# the problem named). No GPU: the files stand in for bench runs.
# usage: compare.sh <srcprof-bench> <report_check>
set -u
bench="$1" check="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
fails=0

# seq_ns FROM TO [STEP]: "FROM*1000,...,TO*1000" (us as ns).
seq_ns() { seq -s, "$1" "${3:-1}" "$2" | sed 's/,/000,/g; s/$/000/'; }

# source NAME GPU_NS TICK_NS RENDER_NS [ROUNDS_US [MARGINAL_ROUNDS_US]]: one
# sources_detail entry.
source() {
	local iso=""
	[[ -n "${5:-}" ]] && iso=", \"isolated_us\": 1, \"in_frame_over_alone\": 1, \"isolated_rounds_us\": [$5]"
	[[ -n "${6:-}" ]] && iso+=", \"marginal_us\": 1, \"in_frame_over_marginal\": 1, \"marginal_rounds_us\": [$6]"
	local n_gpu n_cpu
	n_gpu=$(tr ',' '\n' <<<"$2" | grep -c .)
	n_cpu=$(tr ',' '\n' <<<"$3" | grep -c .)
	printf '{"name": "%s", "type": "mesh", "gpu_avg_us": 1, "gpu_samples": %d, "cpu_samples": %d%s, "samples": {"tick_ns": [%s], "render_sum_ns": [%s], "gpu_sum_ns": [%s]}}' \
		"$1" "$n_gpu" "$n_cpu" "$iso" "$3" "$4" "$2"
}

# point API SOURCES BUSY FRAMES_MS SOURCE...: one point.
point() {
	local api="$1" n="$2" busy="$3" frames="$4"
	shift 4
	local list
	list="$(IFS=,; echo "$*")"
	printf '{"api": "%s", "sources": %d, "sources_held": %d, "pairs": 3, "device": "fake", "gpu_timing": "fake", "software": true, "machine_busy_pct": %s, "frames_off": {"frames": 1, "samples_ms": [%s]}, "sources_detail": [%s]}' \
		"$api" "$n" "$n" "$busy" "$frames" "$list"
}

# run FILE SCENE POINT...: a whole bench file.
run() {
	local file="$1" scene="$2"
	shift 2
	local list
	list="$(IFS=,; echo "$*")"
	printf '{"generator": "srcprof-bench", "machine": "test", "git": "test", "scene": "%s", "frames": 8, "warmup": 0, "repeat": 3, "gpu_budget": 0.01, "size": [640, 360], "isolate": false, "interrupted": false, "points_planned": 1, "points": [%s], "scaling": []}\n' \
		"$scene" "$list" >"$file"
}

# expect WANT_STATUS NAME ARGS...: runs compare, keeps its output in $out/NAME.
expect() {
	local want="$1" name="$2"
	shift 2
	"$bench" compare "$@" >"$out/$name.txt" 2>&1
	local st=$?
	if [[ $st != "$want" ]]; then
		echo "FAIL: $name: exit $st, want $want"; cat "$out/$name.txt"; fails=1
	else
		echo "ok   $name: exit $st"
	fi
}

# has NAME PATTERN: the output (or the JSON) holds the pattern.
has() {
	if grep -qE -- "$2" "$out/$1"; then echo "ok   $1 has '$2'"; else
		echo "FAIL: $1 lacks '$2'"; head -40 "$out/$1"; fails=1; fi
}

# lacks NAME PATTERN: the output does not hold the pattern.
lacks() {
	if grep -qE -- "$2" "$out/$1"; then echo "FAIL: $1 has '$2'"; head -40 "$out/$1"; fails=1
	else echo "ok   $1 lacks '$2'"; fi
}

flat8="$(seq_ns 1 8)"              # 1..8 us
same_frames="10,11,10,12,10,11,10,12"
# "a": GPU 1..8 us, then 11..18 us. Every frame is a sample (--blocks 0):
# the 64 differences are 10 + (j - i), 3 .. 17 us; the shift (their median)
# 10 us over BASE's median 4.5 is +222.22%; with 8 and 8, the exact 95%
# interval is [D(14), D(51)] = [7, 13] us (U <= 13 is the two-sided 5%
# critical value), +155.56% .. +288.89%; U = 64 of 64, p = 2 / C(16, 8).
# Beyond the threshold: BASE moved up by the margin (the floor, 1 us, over
# 5% of 4.5) is still all below NEW: p_beyond = 2 / C(16, 8) too, kept by
# the false-discovery cut over the 7 figures (p(1) <= 0.05 / 7).
run "$out/base.json" default "$(point vulkan 2 1.5 "$same_frames" \
	"$(source a "$flat8" "$flat8" "$flat8")" "$(source b "$flat8" "$flat8" "$flat8")")"
run "$out/costlier.json" default "$(point vulkan 2 2.0 "$same_frames" \
	"$(source a "$(seq_ns 11 18)" "$flat8" "$flat8")" "$(source b "$flat8" "$flat8" "$flat8")")"
expect 1 costlier "$out/base.json" "$out/costlier.json" --blocks 0 --json "$out/costlier.out.json" \
	--html "$out/costlier.html"
has costlier.out.json '"source": "a", "figure": "gpu_in_frame", "unit": "us", "base_median": 4.5000, "new_median": 14.5000, "shift": 10.0000, "change_pct": 222.2222, "ci_low_pct": 155.5556, "ci_high_pct": 288.8889, "p_beyond": 0.0001554, "beyond_side": "up", "p": 0.0001554, "n_base": 8, "n_new": 8, "verdict": "costlier", "reliable": true'
has costlier.out.json '"source": "b", "figure": "gpu_in_frame", .*"change_pct": 0.0000, .*"p": 1, .*"verdict": "no significant change"'
has costlier.out.json '"costlier": 1, "cheaper": 0, "no_significant_change": 6,'
has costlier.out.json '"exit_status": 1'
has costlier.txt '\+222\.2% +\+155\.6 \.\. \+288\.9 +0\.0002 +0\.0002 +4\.50 +14\.50 us +COSTLIER +a: GPU in frame'
has costlier.txt 'summary: 1 costlier, 0 cheaper, 6 no significant change; 6 of the 7 figures not reliable'
has costlier.txt '\+0\.0% +-66\.7 \.\. \+66\.7 +1\.0000 +1\.0000 +4\.50 +4\.50 us +- \? +b: GPU in frame +reaches \+67%'
"$check" compare "$out/costlier.out.json" 1 || fails=1

# The other way round: cheaper, which is no regression.
expect 0 cheaper "$out/costlier.json" "$out/base.json" --blocks 0 --json "$out/cheaper.out.json"
has cheaper.out.json '"source": "a", "figure": "gpu_in_frame", .*"verdict": "cheaper"'
"$check" compare "$out/cheaper.out.json" 0 || fails=1

# Blocks (the default, 8): 16 frames make 8 blocks of two, whose medians
# (1.5, 3.5, .., 15.5 against 21.5, .., 35.5) are tested: apart, so again
# p = 2 / C(16, 8); the shift 20 us.
run "$out/base16.json" default "$(point vulkan 1 0 "$same_frames" \
	"$(source a "$(seq_ns 1 16)" "$flat8" "$flat8")")"
run "$out/new16.json" default "$(point vulkan 1 0 "$same_frames" \
	"$(source a "$(seq_ns 21 36)" "$flat8" "$flat8")")"
expect 1 blocks "$out/base16.json" "$out/new16.json" --json "$out/blocks.out.json"
has blocks.out.json '"source": "a", "figure": "gpu_in_frame", "unit": "us", "base_median": 8.5000, "new_median": 28.5000, "shift": 20.0000, .*"p": 0.0001554, "n_base": 8, "n_new": 8'
# As if every frame were independent: 16 and 16 samples.
expect 1 per-frame "$out/base16.json" "$out/new16.json" --blocks 0 --json "$out/frames.out.json"
has frames.out.json '"n_base": 16, "n_new": 16'

# A change that may be within the threshold: 100.0 .. 100.7 us, then
# 3 us more, every frame (+3.0%, p = 2 / C(16, 8)): significant, but its
# interval (2.7 .. 3.3 us) reaches below 5%: held back. Over a 2% threshold
# it counts: BASE up by 2.007 us stays below NEW, p_beyond = p.
run "$out/base100.json" default "$(point vulkan 1 0 "$same_frames" \
	"$(source a "$(seq -s, 100000 100 100700)" "$flat8" "$flat8")")"
run "$out/plus3.json" default "$(point vulkan 1 0 "$same_frames" \
	"$(source a "$(seq -s, 103000 100 103700)" "$flat8" "$flat8")")"
expect 0 within "$out/base100.json" "$out/plus3.json" --blocks 0 --threshold 5 --json "$out/within.out.json"
has within.txt 'p < 0\.05, may be within \+-5%'
expect 1 within2 "$out/base100.json" "$out/plus3.json" --blocks 0 --threshold 2

# Sub-microsecond ticks doubling (0.1 us more, the interval from 0.07 us):
# significant, under the 1 us floor; with no floor, costlier.
tiny="100,110,120,130,140,150,160,170"
twice="200,210,220,230,240,250,260,270"
run "$out/tiny1.json" default "$(point vulkan 1 0 "$same_frames" "$(source a "$flat8" "$tiny" "$flat8")")"
run "$out/tiny2.json" default "$(point vulkan 1 0 "$same_frames" "$(source a "$flat8" "$twice" "$flat8")")"
expect 0 floor "$out/tiny1.json" "$out/tiny2.json" --blocks 0
has floor.txt 'p < 0\.05, may be under 1 us'
expect 1 no-floor "$out/tiny1.json" "$out/tiny2.json" --blocks 0 --floor-us 0

# Two frames a side: no interval, not reliable, never costlier.
run "$out/two1.json" default "$(point vulkan 1 0 "10,11" "$(source a "1000,2000" "1000,2000" "1000,2000")")"
run "$out/two2.json" default "$(point vulkan 1 0 "20,21" "$(source a "9000,9500" "1000,2000" "1000,2000")")"
expect 0 few "$out/two1.json" "$out/two2.json" --json "$out/few.out.json"
has few.out.json '"ci_low_pct": null, "ci_high_pct": null, .*"verdict": "no significant change", "reliable": false, "not_reliable_because": "only 2 and 2 frames \(3 or more needed\)"'

# Rasterizer threads that differ between the files are said; a file
# older than raster_threads (none) still loads.
sed 's/"machine_busy_pct"/"raster_threads": 2, "machine_busy_pct"/' "$out/base.json" >"$out/rt2.json"
sed 's/"machine_busy_pct"/"raster_threads": 1, "machine_busy_pct"/' "$out/base.json" >"$out/rt1.json"
expect 0 raster "$out/rt2.json" "$out/rt1.json"
has raster.txt 'rasterizer threads differ: 2 -> 1'
expect 0 raster-old "$out/base.json" "$out/rt1.json"
lacks raster-old.txt 'rasterizer threads differ'
sed 's/"machine_busy_pct"/"raster_threads": null, "machine_busy_pct"/' "$out/base.json" >"$out/rtnull.json"
expect 0 raster-null "$out/rtnull.json" "$out/rt1.json"
lacks raster-null.txt 'rasterizer threads differ'
sed 's/"machine_busy_pct"/"raster_threads": "two", "machine_busy_pct"/' "$out/base.json" >"$out/rtbad.json"
sed 's/"machine_busy_pct"/"raster_threads": 2.5, "machine_busy_pct"/' "$out/base.json" >"$out/rthalf.json"
sed 's/"machine_busy_pct"/"raster_threads": 1e10, "machine_busy_pct"/' "$out/base.json" >"$out/rthuge.json"
sed 's/"machine_busy_pct"/"raster_threads": 2000, "machine_busy_pct"/' "$out/base.json" >"$out/rtmany.json"

# A busy machine: said per point, every figure not reliable.
run "$out/busy.json" default "$(point vulkan 2 40 "$same_frames" \
	"$(source a "$flat8" "$flat8" "$flat8")" "$(source b "$flat8" "$flat8" "$flat8")")"
expect 0 busy "$out/base.json" "$out/busy.json"
has busy.txt 'machine busy: other processes used 2% \(BASE\) and 40% \(NEW\) of the CPU'
has busy.txt '7 of the 7 figures not reliable'

# --isolate rounds where both runs have them (GPU alone); in frame where
# one lacks them. 9 rounds: 1..9 against 21..29, U = 81, p = 2 / C(18, 9);
# the exact interval [D(18), D(64)] = [17, 23] us: +340% .. +460%; and
# BASE up by 1 us is still all below NEW: p_beyond = p.
rounds1="$(seq -s, 1 9)" rounds2="$(seq -s, 21 29)"
run "$out/iso1.json" default "$(point vulkan 1 0 "$same_frames" "$(source a "$flat8" "$flat8" "$flat8" "$rounds1")")"
run "$out/iso2.json" default "$(point vulkan 1 0 "$same_frames" "$(source a "$flat8" "$flat8" "$flat8" "$rounds2")")"
expect 1 alone "$out/iso1.json" "$out/iso2.json" --json "$out/alone.out.json"
has alone.out.json '"figure": "gpu_alone", "unit": "us", "base_median": 5.0000, "new_median": 25.0000, "shift": 20.0000, "change_pct": 400.0000, "ci_low_pct": 340.0000, "ci_high_pct": 460.0000, "p_beyond": 4.11353e-05, "beyond_side": "up", "p": 4.11353e-05, "n_base": 9, "n_new": 9, "verdict": "costlier"'
run "$out/noiso.json" default "$(point vulkan 1 0 "$same_frames" "$(source a "$flat8" "$flat8" "$flat8")")"
expect 0 one-alone "$out/iso1.json" "$out/noiso.json" --json "$out/onealone.out.json"
has onealone.out.json '"figure": "gpu_in_frame"'
# The marginal reference's rounds where both have them: the GPU figure is
# then the marginal one (the same 1..9 against 21..29, so the same exact
# figures), even though alone did not move at all; with marginal rounds
# on one side only, alone.
flat9="5,5,5,5,5,5,5,5,5"
run "$out/marg1.json" default "$(point vulkan 1 0 "$same_frames" "$(source a "$flat8" "$flat8" "$flat8" "$flat9" "$rounds1")")"
run "$out/marg2.json" default "$(point vulkan 1 0 "$same_frames" "$(source a "$flat8" "$flat8" "$flat8" "$flat9" "$rounds2")")"
expect 1 marginal "$out/marg1.json" "$out/marg2.json" --json "$out/marginal.out.json"
has marginal.out.json '"figure": "gpu_marginal", "unit": "us", "base_median": 5.0000, "new_median": 25.0000, "shift": 20.0000, "change_pct": 400.0000, "ci_low_pct": 340.0000, "ci_high_pct": 460.0000, "p_beyond": 4.11353e-05, "beyond_side": "up", "p": 4.11353e-05, "n_base": 9, "n_new": 9, "verdict": "costlier"'
has marginal.txt 'GPU marginal'
if grep -q '"gpu_alone"' "$out/marginal.out.json"; then echo "FAIL: marginal: alone compared too"; fails=1; fi
run "$out/marg-alone.json" default "$(point vulkan 1 0 "$same_frames" "$(source a "$flat8" "$flat8" "$flat8" "$flat9")")"
expect 0 one-marginal "$out/marg1.json" "$out/marg-alone.json" --json "$out/onemarg.out.json"
has onemarg.out.json '"figure": "gpu_alone", .*"change_pct": 0.0000'

# Sources and points in one run only are named, not compared.
run "$out/other.json" default "$(point vulkan 2 0 "$same_frames" \
	"$(source a "$flat8" "$flat8" "$flat8")" "$(source c "$flat8" "$flat8" "$flat8")")" \
	"$(point gl 2 0 "$same_frames" "$(source a "$flat8" "$flat8" "$flat8")")"
expect 0 unmatched "$out/base.json" "$out/other.json"
has unmatched.txt "sources in one run only \(1 in BASE, 1 in NEW\): BASE 'b', NEW 'c'"
has unmatched.txt 'points in one run only \(not compared\): 0 in BASE, 1 in NEW'

# Bad input: exit 2, the problem named.
bad() { # NAME PATTERN ARGS...
	local name="$1" pattern="$2"
	shift 2
	expect 2 "$name" "$@"
	has "$name.txt" "$pattern"
}
run "$out/grid.json" grid "$(point vulkan 2 0 "$same_frames" "$(source a "$flat8" "$flat8" "$flat8")")"
# Two runs a side (BASE1 BASE2 vs NEW1 NEW2): each run's median is one
# sample and Welch's t weighs the change against the runs' own spread.
# GPU medians 10 and 10.2 us against 20 and 20.2: the mean 10.1, the
# change 10 us = +99.0099%; se = sqrt(0.02/2 + 0.02/2) = 0.141421, df 2,
# t = 70.71, p = 1 - t / sqrt(2 + t^2) = 0.00019994; the 95% interval
# 10 +- 4.302653 x 0.141421 = +92.9853% .. +105.0345%; BASE moved up by
# the margin (the 1 us floor over 5% of 10.1): t = 63.64, p_beyond =
# 0.000246822, kept over the 4 figures (<= 0.05 / 4). The other figures
# do not move at all (p 1).
rep() { local v="$1" n="$2" out=""; for ((i = 0; i < n; i++)); do out+="${out:+,}$v"; done; echo "$out"; }
for spec in "r-b1 10000" "r-b2 10200" "r-n1 20000" "r-n2 20200" "w-b1 10000" "w-b2 12000" \
	"w-n1 20000" "w-n2 22000"; do
	set -- $spec
	run "$out/$1.json" default "$(point vulkan 1 0 "$same_frames" \
		"$(source a "$(rep "$2" 8)" "$flat8" "$flat8")")"
done
expect 1 runs "$out/r-b1.json" "$out/r-b2.json" vs "$out/r-n1.json" "$out/r-n2.json" \
	--json "$out/runs.out.json" --html "$out/runs.html"
has runs.out.json '"source": "a", "figure": "gpu_in_frame", "unit": "us", "base_median": 10.1000, "new_median": 20.1000, "shift": 10.0000, "change_pct": 99.0099, "ci_low_pct": 92.9853, "ci_high_pct": 105.0345, "p_beyond": 0.000246822, "beyond_side": "up", "p": 0.00019994, "n_base": 2, "n_new": 2, "verdict": "costlier", "reliable": false, "not_reliable_because": "only 2 and 2 runs \(3 or more needed\)"'
has runs.out.json '"source": "a", "figure": "cpu_tick", .*"change_pct": 0.0000, .*"p": 1, .*"verdict": "no significant change"'
has runs.out.json '"test": "welch-t over runs. medians"'
has runs.out.json '"new_runs": \[".*r-n1.json", ".*r-n2.json"\]'
has runs.txt "Welch's t test \(p\) over the 2 and 2 runs"
has runs.txt 'BASE .*r-b2.json'
has runs.html 'r-b1.json, .*r-b2.json'
"$check" compare "$out/runs.out.json" 1 || fails=1
# Medians 10 and 12 against 20 and 22: the same +10 us, but the runs
# spread by 2 us: se = sqrt(2), t = 7.07, p = 0.0194193, p_beyond
# 0.0238129, not under 0.05 / 4: no verdict from two runs this far apart.
expect 0 runs-wide "$out/w-b1.json" "$out/w-b2.json" vs "$out/w-n1.json" "$out/w-n2.json" \
	--json "$out/runs-wide.out.json"
has runs-wide.out.json '"source": "a", "figure": "gpu_in_frame", .*"change_pct": 90.9091, "ci_low_pct": 35.5921, "ci_high_pct": 146.2261, "p_beyond": 0.0238129, .*"p": 0.0194193, "n_base": 2, "n_new": 2, "verdict": "no significant change"'
# A file of --runs N holds its later runs in other_runs: one file a side
# is then N runs a side, the same test as N files. r-b1 + r-b2 in one
# file against r-n1 + r-n2 in another gives the figures above exactly.
multi() { # FILE SCENE POINT_OF_RUN1 POINT_OF_RUN2...
	local file="$1" scene="$2" first="$3" others="" k=2
	shift 3
	for p in "$@"; do others+="${others:+,}{\"run\": $k, \"points\": [$p]}"; k=$((k + 1)); done
	printf '{"generator": "srcprof-bench", "machine": "test", "git": "test", "scene": "%s", "frames": 8, "warmup": 0, "repeat": 3, "gpu_budget": 0.01, "size": [640, 360], "isolate": false, "interrupted": false, "points_planned": 1, "points": [%s], "runs": %d, "runs_asked": %d, "other_runs": [%s], "scaling": []}\n' \
		"$scene" "$first" "$k" "$k" "$others" >"$file"
}
gpu_point() { point vulkan 1 0 "$same_frames" "$(source a "$(rep "$1" 8)" "$flat8" "$flat8")"; }
multi "$out/m-b.json" default "$(gpu_point 10000)" "$(gpu_point 10200)"
multi "$out/m-n.json" default "$(gpu_point 20000)" "$(gpu_point 20200)"
expect 1 runs-file "$out/m-b.json" "$out/m-n.json" --json "$out/runs-file.out.json"
has runs-file.out.json '"source": "a", "figure": "gpu_in_frame", "unit": "us", "base_median": 10.1000, "new_median": 20.1000, "shift": 10.0000, "change_pct": 99.0099, "ci_low_pct": 92.9853, "ci_high_pct": 105.0345, "p_beyond": 0.000246822, "beyond_side": "up", "p": 0.00019994, "n_base": 2, "n_new": 2, "verdict": "costlier", "reliable": false'
has runs-file.out.json '"base_runs": \[".*m-b.json", ".*m-b.json#2"\]'
has runs-file.txt "BASE .*m-b.json#2: git test"
# A file of runs and single-run files on one side, with vs: 2 and 2 again.
expect 1 runs-mixed "$out/m-b.json" vs "$out/r-n1.json" "$out/r-n2.json" --json "$out/runs-mixed.out.json"
has runs-mixed.out.json '"figure": "gpu_in_frame", .*"change_pct": 99.0099, .*"p": 0.00019994, "n_base": 2, "n_new": 2'
# Runs on one side only (BASE.json NEW.json): their first runs, one a
# side, and it says so.
expect 1 runs-one-side "$out/m-b.json" "$out/r-n1.json"
has runs-one-side.txt "BASE '$out/m-b.json' holds 2 runs, NEW '$out/r-n1.json' 1: comparing their first runs, one a side"
sed 's/"other_runs": \[/"other_runs": 3, "x": [/' "$out/m-b.json" >"$out/m-bad.json"
bad runs-not-array "BASE '$out/m-bad.json': 'other_runs' is not an array" "$out/m-bad.json" "$out/m-n.json"
sed 's/"run": 2, "points": \[{"api": "vulkan", "sources": 1,/"run": 2, "points": [{"api": "vulkan",/' "$out/m-b.json" >"$out/m-nosrc.json"
bad runs-point-bad "BASE '$out/m-nosrc.json': other_runs\[0\] \(run 2\): points\[0\] \(\?, 0 sources\): no 'sources'" "$out/m-nosrc.json" "$out/m-n.json"
# One run a side says what it cannot see.
has costlier.txt 'One run a side: the test sees the spread within each run, not between runs'
run "$out/r-other.json" default "$(point vulkan 1 0 "$same_frames" "$(source b "$flat8" "$flat8" "$flat8")")"
bad runs-one "BASE... vs NEW... needs two or more runs a side \(2 and 1 given\)" \
	"$out/r-b1.json" "$out/r-b2.json" vs "$out/r-n1.json"
bad runs-source "NEW '$out/r-other.json' \(vulkan, 1 sources\) has no source 'a', which the first runs have" \
	"$out/r-b1.json" "$out/r-b2.json" vs "$out/r-n1.json" "$out/r-other.json"
run "$out/r-gl.json" default "$(point gl 1 0 "$same_frames" "$(source a "$flat8" "$flat8" "$flat8")")"
bad runs-point "BASE '$out/r-gl.json' has no point vulkan, 1 sources" \
	"$out/r-b1.json" "$out/r-gl.json" vs "$out/r-n1.json" "$out/r-n2.json"
bad vs-twice "'vs' given twice" "$out/r-b1.json" vs "$out/r-b2.json" vs "$out/r-n1.json"

printf '{"generator": "srcprof-bench", "scene": ' >"$out/broken.json"
sed 's/"samples": {[^}]*}/"nothing": 1/' "$out/base.json" >"$out/nosamples.json"
sed 's/"machine_busy_pct": [0-9.]*, //' "$out/base.json" >"$out/nobusy.json"
sed 's/"tick_ns": \[1000,/"tick_ns": [-1,/' "$out/base.json" >"$out/negative.json"
sed 's/"generator": "srcprof-bench"/"generator": "other"/' "$out/base.json" >"$out/other-gen.json"
run "$out/gl-only.json" default "$(point gl 2 0 "$same_frames" "$(source a "$flat8" "$flat8" "$flat8")")"
bad missing "NEW '$out/nope.json': cannot read it \(No such file or directory\)" "$out/base.json" "$out/nope.json"
bad directory "BASE '$out': cannot read it \(Is a directory\)" "$out" "$out/base.json"
bad not-json "NEW '$out/broken.json': not JSON \(the parse stopped at byte [0-9]+\)" "$out/base.json" "$out/broken.json"
bad scenes "BASE '$out/base.json' ran scene 'default', NEW '$out/grid.json' scene 'grid': different scenes cannot be compared" "$out/base.json" "$out/grid.json"
bad no-samples "NEW '$out/nosamples.json': points\[0\] \(vulkan, 2 sources\): sources_detail\[0\] \('a'\): no 'samples'" "$out/base.json" "$out/nosamples.json"
bad no-busy "points\[0\] \(vulkan, 2 sources\): no 'machine_busy_pct'" "$out/nobusy.json" "$out/base.json"
bad raster-bad "points\[0\] \(vulkan, 2 sources\): 'raster_threads' is not a number from 0" "$out/base.json" "$out/rtbad.json"
bad raster-half "points\[0\] \(vulkan, 2 sources\): 'raster_threads' is not a whole number" "$out/base.json" "$out/rthalf.json"
bad raster-huge "points\[0\] \(vulkan, 2 sources\): 'raster_threads' is not a whole number" "$out/base.json" "$out/rthuge.json"
bad raster-many "points\[0\] \(vulkan, 2 sources\): 'raster_threads' is 2000, over 1024" "$out/base.json" "$out/rtmany.json"
bad negative "sources_detail\[0\] \('a'\): 'tick_ns'\[0\] is not a number from 0" "$out/base.json" "$out/negative.json"
bad generator "written by 'other', not srcprof-bench" "$out/base.json" "$out/other-gen.json"
bad no-common "have no point in common \(API, source count, record threads\)" "$out/base.json" "$out/gl-only.json"
bad one-file "needs BASE.json and NEW.json" "$out/base.json"
bad three-files "one BASE and one NEW file, or BASE... vs NEW..." "$out/base.json" "$out/base.json" "$out/base.json"
bad option "unknown option '--fast'" "$out/base.json" "$out/base.json" --fast
bad threshold "--threshold: 'x' is not a number from 0 to 1000" "$out/base.json" "$out/base.json" --threshold x
bad alpha "--alpha: '0.9' is not a number from 1e-06 to 0.5" "$out/base.json" "$out/base.json" --alpha 0.9
bad blocks "--blocks: 2 blocks cannot be tested \(0, or 3 or more\)" "$out/base.json" "$out/base.json" --blocks 2
bad json-out "--json: cannot write '/nonexistent/c.json'" "$out/base.json" "$out/base.json" --json /nonexistent/c.json
bad html-out "--html: cannot write '/nonexistent/c.html'" "$out/base.json" "$out/base.json" --html /nonexistent/c.html
# Runs a side at most 16: files past that are refused, naming the file.
runs_of() { # N: a file's worth of N runs of gpu_point 10000
	local first="$(gpu_point 10000)" rest=() k
	for ((k = 2; k <= $1; k++)); do rest+=("$(gpu_point $((10000 + k)))"); done
	multi "$out/r$1.json" default "$first" "${rest[@]}"
}
runs_of 8
runs_of 9
bad too-many-files "NEW '$out/r8.json': the files before it already hold 16 runs, the most a side takes" \
	"$out/r8.json" "$out/r8.json" vs "$out/r8.json" "$out/r8.json" "$out/r8.json"
bad too-many-runs "BASE '$out/r9.json': holds 9 runs; only 8 more fit on this side" \
	"$out/r8.json" "$out/r9.json" vs "$out/r8.json" "$out/r8.json"
expect 0 sixteen "$out/r8.json" "$out/r8.json" vs "$out/r8.json" "$out/r8.json"
has sixteen.txt "over the 16 and 16 runs"
# Two points of one API and source count: compare pairs points by both.
run "$out/dup-point.json" default "$(gpu_point 10000)" "$(gpu_point 20000)"
bad dup-point "points\[1\] \(vulkan, 1 sources\): points\[0\] has the same API, source count and record threads" \
	"$out/base.json" "$out/dup-point.json"
if "$bench" --sources 1,1 >"$out/sources-twice.txt" 2>&1; then
	echo "FAIL: --sources 1,1 accepted"; fails=1
else has sources-twice.txt "--sources: 1 is given twice"; fi
# Samples too large to compare without overflow; nothing to compare.
sed 's/"gpu_sum_ns": \[1000,/"gpu_sum_ns": [1.7e308,/' "$out/base.json" >"$out/huge.json"
bad huge "sources_detail\[0\] \('a'\): 'gpu_sum_ns'\[0\] is not a number from 0 to 1e\+15" "$out/base.json" "$out/huge.json"
run "$out/empty.json" default "$(point vulkan 1 0 "" "$(source a "" "" "")")"
bad empty "have points in common but no figure to compare" "$out/empty.json" "$out/empty.json"
# Malformed files: trailing text, a key twice, an interruption without
# its signal, a name too long, a bad size.
{ cat "$out/base.json"; echo ' {}'; } >"$out/trailing.json"
bad trailing "NEW '$out/trailing.json': not JSON" "$out/base.json" "$out/trailing.json"
sed 's/"scene": "default"/"scene": "default", "scene": "grid"/' "$out/base.json" >"$out/twice.json"
bad key-twice "the key 'scene' appears twice in one object" "$out/base.json" "$out/twice.json"
# An object of many keys (sorted, not pairwise: 300,000 keys took minutes
# pairwise): its key twice is found, and one without is read at once.
awk 'BEGIN { printf "{\"points\": [], \"extra\": {"; for (i = 0; i < 300000; i++)
	printf "\"k%d\": %d, ", i, i; printf "\"k7\": 0}}" }' >"$out/many-twice.json"
bad many-keys-twice "the key 'k7' appears twice in one object" "$out/base.json" "$out/many-twice.json"
sed 's/"k7": 0}}$/"last": 0}}/' "$out/many-twice.json" >"$out/many.json"
started=$SECONDS
bad many-keys "no 'generator'" "$out/base.json" "$out/many.json"
(( SECONDS - started < 60 )) || { echo "FAIL: 300,000 keys took $((SECONDS - started)) s"; fails=1; }
sed 's/"interrupted": false/"interrupted": true/' "$out/base.json" >"$out/int-no-by.json"
bad interrupted-by "no 'interrupted_by'" "$out/base.json" "$out/int-no-by.json"
long="$(printf 'n%.0s' $(seq 70))"
run "$out/long.json" default "$(point vulkan 2 0 "$same_frames" "$(source "$long" "$flat8" "$flat8" "$flat8")")"
bad long-name "'name' is longer than 63 characters" "$out/base.json" "$out/long.json"
for sz in '[-1, 360]' '[1e300, 360]' '{"w": 1}' '[640.5, 360]'; do
	sed "s/\"size\": \[640, 360\]/\"size\": $sz/" "$out/base.json" >"$out/size.json"
	bad "size-$(tr -dc '0-9a-z' <<<"$sz")" "'size' is not \[width, height\]" "$out/base.json" "$out/size.json"
done
# A machine that could not be read is "unknown", null in the JSON.
run "$out/busy-null.json" default "$(point vulkan 2 null "$same_frames" \
	"$(source a "$flat8" "$flat8" "$flat8")" "$(source b "$flat8" "$flat8" "$flat8")")"
expect 0 busy-null "$out/busy-null.json" "$out/busy.json" --json "$out/busy-null.out.json"
has busy-null.txt 'other processes used unknown \(BASE\) and 40% \(NEW\) of the CPU'
has busy-null.out.json '"base_busy_pct": null, "new_busy_pct": 40.00'
# Runs that agree exactly on each side: no spread, said.
expect 1 no-spread "$out/r-b1.json" "$out/r-b1.json" vs "$out/r-n1.json" "$out/r-n1.json" \
	--json "$out/no-spread.out.json"
has no-spread.out.json '"figure": "gpu_in_frame", .*"not_reliable_because": "only 2 and 2 runs \(3 or more needed\); the runs of each side agree exactly'
# A wide interval of a cheaper figure ends at -100% (no cost falls by
# more than all of it): medians 10 and 30 against 1 and 2 us, Welch's
# interval -18.5 +- ~130 us.
for spec in "c-b1 10000" "c-b2 30000" "c-n1 1000" "c-n2 2000"; do
	set -- $spec
	run "$out/$1.json" default "$(point vulkan 1 0 "$same_frames" \
		"$(source a "$(rep "$2" 8)" "$flat8" "$flat8")")"
done
expect 0 floor-100 "$out/c-b1.json" "$out/c-b2.json" vs "$out/c-n1.json" "$out/c-n2.json" \
	--json "$out/floor-100.out.json"
has floor-100.out.json '"figure": "gpu_in_frame", .*"change_pct": -92.5000, "ci_low_pct": -100.0000, "ci_high_pct": [0-9]'
"$check" compare "$out/floor-100.out.json" 0 || fails=1
# --work: counts compared exactly beside each source's time verdict. "a"
# gets costlier (GPU 1..8 -> 11..18 us) with its work equal: time changed,
# work did not; "b"'s time stays and its fragments go 1000 -> 1500 (+50%),
# its CS invocations n/a on both sides: work changed, time not. A file
# from before --work (no "work" anywhere) compares as before and says so.
# work SOURCE_JSON FS: the source with a "work" object (FS invocations FS).
work() {
	sed "s/\"type\": \"mesh\", /\"type\": \"mesh\", \"work\": {\"frames\": 8, \"vertices\": 600, \"primitives\": 200, \"vs_invocations\": 600, \"clip_in\": 200, \"clip_out\": 200, \"fs_invocations\": $2, \"cs_invocations\": null}, /" <<<"$1"
}
# wrun FILE POINT: a bench file written with --work.
wrun() { run "$1" default "$2"; sed -i 's/"isolate": false, /"isolate": false, "work": true, /' "$1"; }
wrun "$out/w-base.json" "$(point vulkan 2 1.5 "$same_frames" \
	"$(work "$(source a "$flat8" "$flat8" "$flat8")" 1000)" "$(work "$(source b "$flat8" "$flat8" "$flat8")" 1000)")"
wrun "$out/w-new.json" "$(point vulkan 2 2.0 "$same_frames" \
	"$(work "$(source a "$(seq_ns 11 18)" "$flat8" "$flat8")" 1000)" "$(work "$(source b "$flat8" "$flat8" "$flat8")" 1500)")"
expect 1 work "$out/w-base.json" "$out/w-new.json" --blocks 0 --json "$out/work.out.json" --html "$out/work.html"
has work.txt '^work \(--work: counts a frame, compared exactly: equal, or changed by N%\):$'
has work.txt '^  a +costlier +equal \(6 counters\) +time changed, work did not$'
has work.txt '^  b +no significant change +changed \(1 of 6\) +work changed, time not significantly$'
has work.txt '^      FS invocations: 1000 -> 1500 a frame \(\+50\.0%\)$'
has work.txt '^work: 1 sources equal, 1 changed, 0 not compared \(exact counts; the exit status$'
lacks work.txt '^      (vertices|primitives|VS invocations|clip in|clip out|CS invocations):'
has work.out.json '"source": "a", "time_verdict": "costlier", "time_figure": "gpu_in_frame", "work": "equal", "reading": "time changed, work did not"'
has work.out.json '"source": "b", "time_verdict": "no significant change", "time_figure": "gpu_in_frame", "work": "changed", "reading": "work changed, time not significantly", "base_frames": 8, "new_frames": 8, "counters": \{"vertices": \{"base": 600, "new": 600, "change_pct": 0.0000\}, .*"fs_invocations": \{"base": 1000, "new": 1500, "change_pct": 50.0000\}, "cs_invocations": \{"base": null, "new": null, "change_pct": null\}\}'
has work.out.json '"work": \{"base": true, "new": true, "equal": 1, "changed": 1, "not_compared": 0\}'
has work.html 'FS invocations 1000 &rarr; 1500 \(\+50\.0%\)'
"$check" compare "$out/work.out.json" 1 || fails=1
# Work against a file without it: compared as before, the work not.
expect 1 work-old "$out/base.json" "$out/w-new.json" --blocks 0 --json "$out/work-old.out.json"
has work-old.txt '^  a +costlier +not counted in BASE +time changed; work not compared$'
has work-old.txt '^work \(not counted in BASE\): 0 sources equal, 0 changed, 2 not compared'
# Neither counted: the old files' report, one line more.
expect 1 work-none "$out/base.json" "$out/costlier.json" --blocks 0 --json "$out/work-none.out.json"
lacks work-none.txt '^work \(--work'
has work-none.txt '^work: not counted in BASE or NEW \(bench with --work to tell a change of time from a change$'
has work-none.out.json '"changes": \[.*\], "work": null\}|"work": null\}'
# Malformed work: named, exit 2.
bad_work() { # NAME SED PATTERN: w-base.json edited by SED, refused with PATTERN
	sed "$2" "$out/w-base.json" >"$out/$1.json"
	bad "$1" "$3" "$out/$1.json" "$out/w-new.json"
}
bad_work work-negative 's/"vertices": 600/"vertices": -1/' \
	"BASE '.*work-negative.json': points\[0\] \(vulkan, 2 sources\): sources_detail\[0\] \('a'\): 'work': 'vertices' is not a whole number from 0 to 4294967295, or null \(not counted\)"
bad_work work-fraction 's/"fs_invocations": 1000/"fs_invocations": 10.5/' \
	"'work': 'fs_invocations' is not a whole number from 0 to 4294967295"
bad_work work-string 's/"work": {[^}]*}/"work": "lots"/' \
	"sources_detail\[0\] \('a'\): 'work' is not an object of counts"
bad_work work-no-key 's/"clip_out": 200, //' "'work': no 'clip_out' \(a count a frame, or null where not counted\)"
bad_work work-no-frames 's/"frames": 8, "vertices"/"vertices"/' "'work': no 'frames'"
bad_work work-missing 's/"work": {[^}]*}, //' "sources_detail\[0\] \('a'\): no 'work', yet the file says \"work\": true \(--work\)"
bad_work work-flag 's/"work": true, /"work": 1, /' "'work' is not true or false"
# Outputs: never over an input; a failed write exits 2, names the error
# and leaves the other file as it was; no temporary file stays.
cp "$out/base.json" "$out/base-copy.json"
bad json-is-input "--json '$out/base-copy.json' is the input file '$out/base-copy.json'" \
	"$out/base-copy.json" "$out/costlier.json" --json "$out/base-copy.json"
bad html-is-input "--html '$out/./base-copy.json' is the input file" \
	"$out/base-copy.json" "$out/costlier.json" --html "$out/./base-copy.json"
cmp -s "$out/base.json" "$out/base-copy.json" || { echo "FAIL: an input was overwritten"; fails=1; }
bad same-outputs "--json '$out/o.json' and --html '$out/o.json' are the same file" "$out/base.json" "$out/costlier.json" \
	--json "$out/o.json" --html "$out/o.json"
if [[ -w /dev/full ]]; then
	echo old >"$out/keep.json"
	bad full "--html: writing '/dev/full' failed \(No space left on device\); --json '$out/keep.json' is left as it was" \
		"$out/base.json" "$out/costlier.json" --json "$out/keep.json" --html /dev/full
	has full.txt '1 points compared; exit 2'
	[[ "$(cat "$out/keep.json")" == old ]] || { echo "FAIL: full: keep.json was changed"; fails=1; }
	bad full-json "--json: writing '/dev/full' failed \(No space left on device\)" \
		"$out/base.json" "$out/costlier.json" --json /dev/full
fi
if ls "$out"/*.tmp-* >/dev/null 2>&1; then echo "FAIL: temporary files left: $(ls "$out"/*.tmp-*)"; fails=1; fi

expect 0 help --help
has help.txt 'Exit status: 0 nothing got significantly costlier, 1 something did, 2 bad'
exit $fails
