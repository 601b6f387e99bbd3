#!/usr/bin/env bash
# Bad input to srcprof-demo: every case must exit with the given status and
# print a message naming the problem (never crash or hang).
# usage: demo_cli.sh <path to srcprof-demo>
set -u
demo="$1"
fails=0
run() { # <want status> <pattern in output> <args...>
	local want="$1" pattern="$2"
	shift 2
	local out status
	out="$(timeout 120 "$demo" "$@" 2>&1)"
	status=$?
	if [[ "$status" != "$want" ]] || ! grep -qE -- "$pattern" <<<"$out"; then
		echo "FAIL: $demo $* -> status $status (want $want), output:"
		echo "$out" | head -5
		fails=$((fails + 1))
	else
		echo "ok   $* -> $status"
	fi
}

run 2 "--frames: 'abc' is not a whole number from 1 to" --frames abc
run 2 "--frames: '-5' is not a whole number" --frames -5
run 2 "--frames: '0' is not a whole number" --frames 0
run 2 "--frames: '99999999999' is not a whole number" --frames 99999999999
run 2 "--frames needs a value" --frames
run 2 "--sources: '1e3' is not a whole number" --sources 1e3
run 2 "--seconds: 'soon' is not a number" --seconds soon
run 2 "--seconds: '-1' is not a number" --seconds -1
run 2 "--size: '10' is not a whole number from 64" --size 10x10
run 2 "--size: 'big' is not WIDTHxHEIGHT" --size big
run 2 "--scene: no scene 'nope'" --scene nope
run 2 "--api: 'metal' is not vulkan, gl or auto" --api metal
run 2 "--gpu-timing: 'fast' is not auto, plain or flushed" --gpu-timing fast
run 2 "--gpu-budget: '0' is not a number from 0.01 to 100" --gpu-budget 0
run 2 "unknown option '--bogus'" --bogus
run 2 "--csv: cannot write '/nonexistent/x.csv'" --headless --frames 2 --csv /nonexistent/x.csv
run 2 "--trace: cannot write" --headless --frames 2 --trace /nonexistent/t.json
run 1 "/nonexistent/shaders/[a-z_]+\.(vert|frag)\.vk\.spv: No such file" --api vulkan --headless --frames 2 --shader-dir /nonexistent/shaders
run 1 "no device matches --device 99" --api vulkan --headless --frames 2 --device 99
VK_DRIVER_FILES=/nonexistent/icd.json run 1 "no physical device|no Vulkan" --api vulkan --headless --frames 2
run 0 "--list-scenes" --help
run 0 "srcprof-demo [0-9]" --version
run 0 "calibrated" --list-scenes
echo "$fails failed"
exit $((fails > 0))
