#!/usr/bin/env bash
# The Vulkan demo in a window under Xvfb, resized again and again while it
# runs, under synchronization validation (queue submits and presents
# included) and best practices: any warning or error fails.
# usage: validate_window.sh <srcprof-demo> outside|own|threads   (run it under xvfb-run -a)
#   outside  the layer loaded from outside: VK_INSTANCE_LAYERS and a
#            vk_layer_settings.txt (VK_LAYER_SETTINGS_PATH) that logs
#            warnings and errors to a file; the demo asks for nothing
#   own      the demo's --validate, which counts what its messenger sees
#   threads  own, with the views recorded on 4 threads into secondaries,
#            the sources ticked on 2 and the particles simulated by compute
# Either way the layer's status message (info, to the log file) must show
# it active with the three checks on: a run it did not watch proves nothing.
set -u
demo="$1" mode="$2"
# Only what this script sets enables layers or checks.
unset VK_INSTANCE_LAYERS VK_LOADER_LAYERS_ENABLE VK_LAYER_ENABLES VK_LAYER_SETTINGS_PATH
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
want_checks="VK_VALIDATION_FEATURE_ENABLE_BEST_PRACTICES_EXT VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT"
{
	if [[ "$mode" == outside ]]; then
		echo "khronos_validation.enables = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT,VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT,VK_VALIDATION_FEATURE_ENABLE_BEST_PRACTICES_EXT"
	fi
	# own: the enables are the demo's; the file only sends the layer's
	# report (its status message included) to the log.
	echo "khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG"
	echo "khronos_validation.log_filename = $out/layer.log"
	echo "khronos_validation.report_flags = error,warn,perf,info"
	echo "khronos_validation.enable_message_limit = false"
} >"$out/vk_layer_settings.txt"
export VK_LAYER_SETTINGS_PATH="$out"
args=(--api vulkan --size 640x400 --frames 1000000 --seconds 300 --out-dir "$out")
case "$mode" in
outside) export VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation ;;
own) args+=(--validate) ;;
threads) args+=(--validate --record-threads 4 --tick-threads 2 --compute) ;;
*) echo "usage: $0 <srcprof-demo> outside|own|threads"; exit 2 ;;
esac
"$demo" "${args[@]}" >"$out/stdout" 2>"$out/stderr" &
pid=$!
win=""
for _ in $(seq 1 300); do
	win="$(xdotool search --name "srcprof demo" 2>/dev/null | head -1)"
	[[ -n "$win" ]] && break
	sleep 0.2
done
if [[ -z "$win" ]]; then
	echo "FAIL: no demo window appeared"; cat "$out/stderr"; kill "$pid"; exit 1
fi
sleep 2 # frames at the first size
# Larger, smaller, wider, taller, tiny: each rebuilds the swapchain (and
# makes presents of the old one out of date).
for size in 800x500 320x240 1024x300 400x700 96x64 900x560 640x400 720x450; do
	xdotool windowsize "$win" "${size%x*}" "${size#*x}"
	sleep 0.6
done
# The last size reached the swapchain: a screenshot (S) has it. A busy
# machine may take a while to get there: S again until it does (20 tries).
png_size() { od -An -tu1 -j16 -N8 "$1" |
	awk '{ printf "%dx%d", $1*16777216 + $2*65536 + $3*256 + $4, $5*16777216 + $6*65536 + $7*256 + $8 }'; }
dims=""
for _ in $(seq 1 20); do
	sleep 1
	shots=$(grep -c "^S: screenshot written to " "$out/stdout")
	xdotool key --window "$win" s
	for _ in $(seq 1 100); do
		(($(grep -c "^S: screenshot written to " "$out/stdout") > shots)) && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	kill -0 "$pid" 2>/dev/null || break
	png="$(grep "^S: screenshot written to " "$out/stdout" | tail -1 | sed 's/^S: screenshot written to //')"
	[[ -f "$png" ]] && dims="$(png_size "$png")"
	[[ "$dims" == 720x450 ]] && break
done
xdotool key --window "$win" Escape
fails=0
wait "$pid"
rc=$?
if ((rc != 0)); then
	echo "FAIL: the demo exited with status $rc"; fails=$((fails + 1))
fi
if [[ "$dims" == 720x450 ]]; then
	echo "ok   the window was resized (last screenshot 720x450)"
else
	echo "FAIL: the last screenshot is '${dims:-missing}', not 720x450"; fails=$((fails + 1))
fi
status="$(grep -A3 "createinstance-status-message" "$out/layer.log" 2>/dev/null)"
if grep -q "Khronos Validation Layer Active" <<<"$status"; then
	echo "ok   the validation layer was active"
	for check in $want_checks; do
		if grep -q "Current Enables:.*$check" <<<"$status"; then
			echo "ok   $check"
		else
			echo "FAIL: validation ran without $check"; fails=$((fails + 1))
		fi
	done
else
	echo "FAIL: the validation layer did not say it was active"; fails=$((fails + 1))
fi
# Every warning or error is a message (info reports, like the status or
# best practices noting a VK_NOT_READY query read, are not). With --validate
# the layer also notes the debugging extensions the demo enabled to listen
# to it, which the demo does not count either.
reports() {
	grep -E '^[^ ]+\((ERROR|WARN)[^)]*\): msgNum: ' "$out/layer.log" 2>/dev/null |
		if [[ "$mode" != outside ]]; then grep -v 'specialuse-extension-debugging'; else cat; fi
}
messages="$(reports | wc -l)"
echo "validation layer log: $messages messages"
if ((messages > 0)); then
	echo "FAIL: validation messages:"
	reports | cut -c1-300 | sort | uniq -c | sort -rn | head -20
	fails=$((fails + 1))
fi
if [[ "$mode" == threads ]]; then
	# The exit table says what ran on threads and queues.
	grep -q "^threads: sources ticked on 2, views recorded on 4" "$out/stdout" &&
		grep -q "^queues: graphics, compute" "$out/stdout" ||
		{ echo "FAIL: the table does not name the threads and queues"; fails=$((fails + 1)); }
fi
if [[ "$mode" != outside ]]; then
	if grep -q "^validation: 0 messages" "$out/stdout"; then
		echo "ok   validation: 0 messages (the demo's count)"
	else
		echo "FAIL: the demo counted messages: $(grep '^validation:' "$out/stdout")"
		fails=$((fails + 1))
	fi
fi
if ((fails)); then
	echo "--- stderr (without the validation messages counted above)"
	grep -v "vulkan validation: " "$out/stderr" | tail -20
	exit 1
fi
echo "PASS"
