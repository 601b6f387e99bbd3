#!/usr/bin/env bash
# Checks srcprof on a machine with a real GPU, in one command: installs the
# missing Debian packages (as scripts/setup.sh does), builds, finds which
# Vulkan device and which OpenGL (EGL) device the programs get, refuses a
# software device unless told, then runs the headless demo on both APIs,
# srcprof-bench with --isolate on the default (two runs) and calibrated
# scenes and for the overhead at 1,000 sources, the examples and the tests
# that drive a GPU, and prints one summary. Exit status 0 when every check
# passed, 1 when one failed, 2 for a bad option.
#
#   scripts/gpu-check.sh                   on a GPU (headless is fine: Vulkan
#                                          through the vendor's ICD, OpenGL
#                                          through EGL's device platform)
#   scripts/gpu-check.sh --allow-software  on lavapipe / llvmpipe: checks the
#                                          script; the real-GPU targets are
#                                          printed, not applied
#   --no-setup      do not install packages (a machine without a package
#                   archive; what the build needs must be there)
#   --api API       vulkan, gl or both (default both)
#   --out DIR       logs, CSV and JSON (default build/gpu-check)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

allow_software=0 setup=1 api=both out="build/gpu-check"
while (($#)); do
	case "$1" in
	--allow-software) allow_software=1 ;;
	--no-setup) setup=0 ;;
	--api)
		shift
		case "${1:-}" in vulkan | gl | both) api="$1" ;; *)
			echo "gpu-check: --api takes vulkan, gl or both (got '${1:-}')" >&2; exit 2 ;;
		esac ;;
	--out)
		shift
		[[ -n "${1:-}" ]] || { echo "gpu-check: --out needs a directory" >&2; exit 2; }
		out="$1" ;;
	-h | --help) sed -n '2,21p' "$0"; exit 0 ;;
	*) echo "gpu-check: unknown option '$1' (try --help)" >&2; exit 2 ;;
	esac
	shift
done
apis=(vulkan gl)
[[ "$api" != both ]] && apis=("$api")

mkdir -p "$out" || { echo "gpu-check: cannot make $out" >&2; exit 2; }
out="$(cd "$out" && pwd)"
log="$out/gpu-check.log"
: >"$log"
start=$(date +%s)
say() { printf '%s\n' "$*" | tee -a "$log"; }
failed=()
fail() { failed+=("$1"); say "FAIL: $1"; }

# --- set up and build --------------------------------------------------------
if ((setup)); then
	say "== setup (missing Debian packages)"
	if ! scripts/setup.sh >>"$log" 2>&1; then
		say "gpu-check: installing packages failed (see $log); with what the build needs"
		say "already there, run again with --no-setup"
		exit 1
	fi
fi
say "== build (build/default)"
if ! { cmake --preset default && cmake --build --preset default; } >>"$log" 2>&1; then
	say "gpu-check: the build failed (see $log)"
	exit 1
fi
bin="$root/build/default"
demo="$bin/demos/srcprof-demo" bench="$bin/demos/srcprof-bench"
export SRCPROF_SHADER_DIR="$bin/shaders"

# --- which devices ------------------------------------------------------------
# The table's first line: "srcprof: API on DEVICE (DRIVER); GPU timing: MODE
# (software device, ...)".
software=0
declare -A device
for a in "${apis[@]}"; do
	"$demo" --api "$a" --headless --frames 20 >"$out/probe-$a.out" 2>"$out/probe-$a.err"
	st=$?
	line="$(grep -m1 "^srcprof: $a on " "$out/probe-$a.out")"
	if ((st != 0)) || [[ -z "$line" ]]; then
		fail "$a: the demo does not start (exit $st): $(tail -1 "$out/probe-$a.err")"
		continue
	fi
	device[$a]="${line#srcprof: }"
	say "$a: ${device[$a]}"
	if [[ "$line" == *"(software device"* ]]; then
		software=1
		if ((!allow_software)); then
			say "gpu-check: $a runs on a software device; this script checks a real GPU"
			say "(Vulkan: is the vendor's ICD installed? OpenGL: does EGL list the GPU's"
			say "device?). --allow-software runs it here anyway, to check the script."
			exit 1
		fi
	fi
done
((${#failed[@]})) && { say "gpu-check: no device to check"; exit 1; }

# Sizes: a GPU runs these in seconds; a software device needs them small
# to stay within minutes.
if ((software)); then
	frames=40 warmup=10 repeat=3 rounds=3 oh_frames=12 oh_repeat=3 seconds=6
else
	frames=300 warmup=60 repeat=7 rounds=9 oh_frames=300 oh_repeat=9 seconds=20
fi
bench_api="$api"

# Lines that say something went wrong in a program's stderr.
warnings=0
count_warnings() { # <file> <what>
	local n
	n=$(grep -ciE "warning|error" "$1")
	if ((n)); then
		warnings=$((warnings + n))
		say "  $2: $n warning or error lines:"
		grep -iE "warning|error" "$1" | sort | uniq -c | head -5 | tee -a "$log"
	fi
}

# --- the demo ----------------------------------------------------------------
say "== the demo, headless, ${seconds} s a run, under validation"
validation=0
for a in "${apis[@]}"; do
	"$demo" --api "$a" --headless --seconds "$seconds" --validate --csv "$out/demo-$a.csv" \
		>"$out/demo-$a.out" 2>"$out/demo-$a.err"
	st=$?
	((st == 0)) || fail "$a: demo exit status $st"
	m=$(sed -nE 's/^validation: ([0-9]+) messages.*/\1/p' "$out/demo-$a.out" "$out/demo-$a.err" | head -1)
	validation=$((validation + ${m:-1}))
	[[ "${m:-}" == 0 ]] || fail "$a: demo validation messages: ${m:-none reported}"
	w="$(grep -m1 -E "^window: " "$out/demo-$a.out")"
	say "  $a: $w"
	[[ "$w" =~ ,\ 0\ dropped ]] || fail "$a: the demo dropped GPU frames"
	count_warnings "$out/demo-$a.err" "$a demo"
done

# --- the bench ---------------------------------------------------------------
common=(--api "$bench_api" --frames "$frames" --warmup "$warmup" --repeat "$repeat")
run_bench() { # <name> <args...>
	local name="$1"
	shift
	say "== srcprof-bench $*"
	"$bench" "${common[@]}" "$@" --json "$out/$name.json" >"$out/$name.out" 2>"$out/$name.err"
	local st=$?
	((st == 0)) || fail "bench $name: exit status $st (see $out/$name.out)"
	count_warnings "$out/$name.err" "bench $name"
	m=$(grep -cE "validation messages during the run" "$out/$name.out")
	((m == 0)) || fail "bench $name: validation messages during the run"
}
run_bench default --scene default --isolate --isolate-rounds "$rounds" --runs 2
run_bench calibrated --scene calibrated --isolate --isolate-rounds "$rounds"
common=(--api "$bench_api" --frames "$oh_frames" --warmup 5 --repeat "$oh_repeat")
run_bench overhead --scene grid --sources 1000

# --- examples and tests --------------------------------------------------------
# The GPU timer modules' tests, the engine's on both APIs (calibrated truth,
# faults), the examples built against the installed package, every scene
# under validation, and the plain-timing end-to-end cases.
say "== tests that drive the GPU (ctest)"
tests_re='^(timers\.|engine\.test_engine_|engine\.test_faults_|install\.|examples\.|e2e\.scene\.[a-z]+\.(default|grid|multiview|media|effects|calibrated)$|e2e\.plain\.scenes)'
ctest --preset default -R "$tests_re" -j2 --output-on-failure >"$out/ctest.out" 2>&1
st=$?
tests_line="$(grep -E "tests passed|tests failed" "$out/ctest.out" | tail -1)"
say "  ${tests_line:-no ctest summary (see $out/ctest.out)}"
((st == 0)) || fail "ctest: $(grep -cE "\*\*\*Failed|Failed " "$out/ctest.out") failed (see $out/ctest.out)"
skipped="$(grep -cE "\(Skipped\)|Not Run" "$out/ctest.out")"
((skipped)) && say "  $skipped skipped (a busy machine skips the truth checks; they say why)"

# --- summary -----------------------------------------------------------------
say ""
say "== gpu-check summary ($(($(date +%s) - start)) s)"
for a in "${apis[@]}"; do say "device: ${device[$a]}"; done
summary=("$bin/tests/gpu_check_summary")
((software)) || summary+=(--real-gpu)
"${summary[@]}" "$out/default.json" "$out/calibrated.json" "$out/overhead.json" | tee -a "$log"
sst=${PIPESTATUS[0]}
((sst == 0)) || fail "the real-GPU targets (above)"
say "warning or error lines: $warnings; validation messages: $validation"
((warnings == 0)) || fail "$warnings warning or error lines (above)"
say "tests: ${tests_line:-?}"
if ((software)); then
	say "note: a software device; the targets of a real GPU are not applied (see"
	say "docs/known-limits.md for what this device measures)"
fi
say "files: $out"
if ((${#failed[@]})); then
	say "gpu-check: FAILED (${#failed[@]}):"
	for f in "${failed[@]}"; do say "  - $f"; done
	exit 1
fi
say "gpu-check: PASSED"
