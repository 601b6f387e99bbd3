#!/usr/bin/env bash
# Short srcprof-soak runs (Vulkan, headless), each must PASS and exit 0:
#   short            --frames 2000 with the default warm-up (10% of the frames)
#   instance-layers  the validation layer already enabled from outside with
#   loader-enable    VK_INSTANCE_LAYERS / VK_LOADER_LAYERS_ENABLE and a
#                    vk_layer_settings.txt (sync validation with queue-submit
#                    checks, best practices; warnings and errors to a log
#                    file): the soak says so, does not enable it again, and
#                    the layer's log holds no warning or error
#   plain-vulkan     --frames 600 in plain GPU timing (the mode of every
#   plain-gl         real GPU), under validation: no frame dropped, no
#                    warning line
#   threads          --frames 1500 of sources coming and going while they
#                    are ticked on 2 threads, recorded on 3 and particles
#                    simulated by compute, under validation: no frame
#                    dropped, no warning line
# usage: soak.sh <srcprof-soak> <case> [more srcprof-soak options]
set -u
soak="$1" case="$2"
shift 2
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
unset VK_INSTANCE_LAYERS VK_LOADER_LAYERS_ENABLE VK_LAYER_ENABLES VK_LAYER_SETTINGS_PATH
args=(--api vulkan --sources 4 --churn 2)
case "$case" in
short) args+=(--frames 2000 --report-every 500) ;;
threads)
	args+=(--frames 1500 --report-every 500 --tick-threads 2 --record-threads 3 --compute) ;;
plain-vulkan | plain-gl)
	args=(--api "${case#plain-}" --sources 4 --churn 2 --gpu-timing plain --frames 600
		--report-every 300) ;;
instance-layers | loader-enable)
	args+=(--frames 300 --warmup 100 --report-every 100)
	cat >"$out/vk_layer_settings.txt" <<EOF
khronos_validation.enables = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT,VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT,VK_VALIDATION_FEATURE_ENABLE_BEST_PRACTICES_EXT
khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG
khronos_validation.log_filename = $out/layer.log
khronos_validation.report_flags = error,warn,perf,info
khronos_validation.enable_message_limit = false
EOF
	export VK_LAYER_SETTINGS_PATH="$out"
	if [[ "$case" == instance-layers ]]; then
		export VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation
	else
		export VK_LOADER_LAYERS_ENABLE='*validation'
	fi
	;;
*) echo "usage: $0 <srcprof-soak> short|instance-layers|loader-enable|plain-vulkan|plain-gl|threads"; exit 2 ;;
esac
"$soak" "${args[@]}" "$@" >"$out/stdout" 2>"$out/stderr"
rc=$?
fails=0
expect() { # <file> <pattern>
	if grep -qE -- "$2" "$out/$1"; then echo "ok   $2"; else echo "FAIL: no line '$2'"; fails=$((fails + 1)); fi
}
if ((rc == 0)); then echo "ok   exit status 0"; else echo "FAIL: exit status $rc"; fails=$((fails + 1)); fi
expect stdout "^soak: PASS"
if [[ "$case" == short ]]; then
	expect stdout "2000 frames, .* warm-up 200 frames"
elif [[ "$case" == threads ]]; then
	expect stdout "1500 frames"
	expect stdout "messages: 0 validation, 0 errors, 0 warnings logged; 0 failures; 0 GPU frames dropped"
	if grep -iE "warning|error" "$out/stderr"; then echo "FAIL: a warning or error line"; fails=$((fails + 1)); fi
elif [[ "$case" == plain-* ]]; then
	expect stdout "\([a-z]+-timestamp\), 600 frames"
	expect stdout "messages: 0 validation, 0 errors, 0 warnings logged; 0 failures; 0 GPU frames dropped"
	if grep -iE "warning|error" "$out/stderr"; then echo "FAIL: a warning or error line"; fails=$((fails + 1)); fi
else
	expect stderr "VK_LAYER_KHRONOS_validation is already enabled from outside"
	expect stdout "messages: 0 validation, 0 errors, 0 warnings"
	status="$(grep -A3 "createinstance-status-message" "$out/layer.log" 2>/dev/null)"
	for check in BEST_PRACTICES SYNCHRONIZATION_VALIDATION VALIDATION_QUEUE_SUBMIT; do
		if grep -q "Current Enables:.*$check" <<<"$status"; then
			echo "ok   the layer ran with $check"
		else
			echo "FAIL: the layer did not run with $check"; fails=$((fails + 1))
		fi
	done
	pattern='^[^ ]+\((ERROR|WARN)[^)]*\): msgNum: '
	messages="$(grep -cE "$pattern" "$out/layer.log" 2>/dev/null)"
	echo "validation layer log: ${messages:-0} messages"
	if ((${messages:-0} > 0)); then
		echo "FAIL: the layer reported:"
		grep -E "$pattern" "$out/layer.log" | cut -c1-300 | sort | uniq -c | head
		fails=$((fails + 1))
	fi
fi
if ((fails)); then
	echo "--- stdout"; tail -12 "$out/stdout"
	echo "--- stderr"; tail -12 "$out/stderr"
	exit 1
fi
echo "PASS"
