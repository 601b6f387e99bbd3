#!/usr/bin/env bash
# Bad input to srcprof-demo, srcprof-bench and srcprof-soak: every case must
# exit with the given status and print a message naming the problem (never
# crash or hang). Missing displays and drivers are simulated through the
# loaders' environment variables. The README's bad-input table lists these.
# usage: bad_input.sh <srcprof-demo> <srcprof-bench> <srcprof-soak> <gl: ON|OFF>
set -u
demo="$1" bench="$2" soak="$3" have_gl="$4"
fails=0
cases=0
run() { # <want status> <pattern in output> <program> <args...>
	local want="$1" pattern="$2" prog="$3"
	shift 3
	local out status
	out="$(timeout 120 "$prog" "$@" 2>&1)"
	status=$?
	cases=$((cases + 1))
	if [[ "$status" != "$want" ]] || ! grep -qE -- "$pattern" <<<"$out"; then
		local args="$*"
		echo "FAIL: $(basename "$prog") ${args:0:120} -> status $status (want $want), output:"
		echo "$out" | head -5
		fails=$((fails + 1))
	else
		local args="$*"
		echo "ok   $(basename "$prog") ${args:0:120} -> $status"
	fi
}

# srcprof-demo
run 2 "--frames: 'abc' is not a whole number from 1 to" "$demo" --frames abc
run 2 "--frames: '-5' is not a whole number" "$demo" --frames -5
run 2 "--frames: '0' is not a whole number" "$demo" --frames 0
run 2 "--frames: '99999999999' is not a whole number" "$demo" --frames 99999999999
run 2 "--frames needs a value" "$demo" --frames
run 2 "--sources: '1e3' is not a whole number" "$demo" --sources 1e3
run 2 "--seconds: 'soon' is not a number" "$demo" --seconds soon
run 2 "--seconds: '-1' is not a number" "$demo" --seconds -1
run 2 "--size width: '10' is not a whole number from 64" "$demo" --size 10x10
run 2 "--size: 'big' is not WIDTHxHEIGHT" "$demo" --size big
run 2 "--scene: no scene 'nope'" "$demo" --scene nope
run 2 "--api: 'metal' is not vulkan, gl or auto" "$demo" --api metal
run 2 "--gpu-timing: 'fast' is not auto, plain or flushed" "$demo" --gpu-timing fast
run 2 "--gpu-budget: '0' is not a number from 0.01 to 100" "$demo" --gpu-budget 0
run 2 "--raster-threads: '65' is not a whole number from 0 to 64" "$demo" --raster-threads 65
run 2 "--raster-threads: '-1' is not a whole number from 0 to 64" "$demo" --raster-threads -1
run 2 "--raster-threads needs a value" "$demo" --raster-threads
run 2 "unknown option '--bogus'" "$demo" --bogus
# --serve: a bad [ADDR:]PORT, a port in use, an address not this machine's.
run 2 "--serve: 'nope' is not \[ADDR:\]PORT" "$demo" --serve nope
run 2 "--serve: '70000' is not \[ADDR:\]PORT" "$demo" --serve 70000
run 2 "--serve: '1.2.3:80' is not \[ADDR:\]PORT" "$demo" --serve 1.2.3:80
run 2 "--serve: 'example.com:80' is not \[ADDR:\]PORT" "$demo" --serve example.com:80
run 2 "--serve needs a value" "$demo" --serve
run 2 "--serve-linger needs --serve" "$demo" --serve-linger 5
run 2 "--serve: no live view: cannot listen on 192.0.2.1:8080: Cannot assign" "$demo" \
	--headless --frames 2 --serve 192.0.2.1:8080
# A port taken by another process (a first demo serving): one line, exit
# 2, no frame drawn; through SRCPROF_SERVE only a warning, the run goes on.
holder_log="$(mktemp)"
"$demo" --headless --seconds 120 --serve 0 >"$holder_log" 2>&1 &
holder=$!
busy_port=
for _ in $(seq 600); do
	busy_port=$(grep -oE 'http://127\.0\.0\.1:[0-9]+' "$holder_log" | head -1 | sed 's/.*://')
	[[ -n "$busy_port" ]] && break
	kill -0 "$holder" 2>/dev/null || break
	sleep 0.1
done
if [[ -n "$busy_port" ]]; then
	run 2 "--serve: no live view: cannot listen on 127.0.0.1:$busy_port: Address already in use" \
		"$demo" --headless --frames 2 --serve "$busy_port"
	SRCPROF_SERVE=$busy_port run 0 "SRCPROF_SERVE: no live view: cannot listen on .*Address already in use; running without it" "$demo" \
		--headless --frames 2
else
	echo "FAIL: the demo holding a port printed no URL"; cat "$holder_log"; fails=$((fails + 1))
fi
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
rm -f "$holder_log"
run 2 "--csv: cannot write '/nonexistent/x.csv'" "$demo" --headless --frames 2 --csv /nonexistent/x.csv
run 2 "--trace: cannot write" "$demo" --headless --frames 2 --trace /nonexistent/t.json
run 1 "$(dirname "$(mktemp -u)")/[a-z_]+\.(vert|frag)\.vk\.spv: No such file" "$demo" --api vulkan --headless --frames 2 --shader-dir "$(dirname "$(mktemp -u)")"
run 1 "no device matches --device 99" "$demo" --api vulkan --headless --frames 2 --device 99
VK_DRIVER_FILES=/nonexistent/icd.json run 1 "no physical device|no Vulkan" "$demo" --api vulkan --headless --frames 2
# A run that cannot start leaves an older --csv, --pass-csv and --trace as
# they were, and makes no new empty ones.
keep="$(mktemp -d)"
for f in c.csv p.csv t.json perf.log; do echo "older" >"$keep/$f"; done
VK_DRIVER_FILES=/nonexistent/icd.json run 1 "no physical device|no Vulkan" "$demo" --api vulkan \
	--headless --frames 2 --csv "$keep/c.csv" --pass-csv "$keep/p.csv" --trace "$keep/t.json" \
	--perf-log "$keep/perf.log"
VK_DRIVER_FILES=/nonexistent/icd.json run 1 "no physical device|no Vulkan" "$demo" --api vulkan \
	--headless --frames 2 --csv "$keep/new.csv" --trace "$keep/new.json" --perf-log "$keep/new.log"
# A bad --trace after a good --perf-log: exit 2, the perf log untouched.
run 2 "--trace: cannot write" "$demo" --headless --frames 2 --perf-log "$keep/perf.log" \
	--trace /nonexistent/t.json
cases=$((cases + 1))
if [[ "$(cat "$keep/c.csv" "$keep/p.csv" "$keep/t.json" "$keep/perf.log")" == \
	"$(printf 'older\nolder\nolder\nolder')" && ! -e "$keep/new.csv" && ! -e "$keep/new.json" &&
	! -e "$keep/new.log" ]]; then
	echo "ok   a failed run kept the older files and made no new ones"
else
	echo "FAIL: a failed run changed the files:"; ls -l "$keep"; fails=$((fails + 1))
fi
rm -rf "$keep"
run 0 "--list-scenes" "$demo" --help
run 0 "srcprof-demo [0-9]" "$demo" --version
run 0 "calibrated" "$demo" --list-scenes
run 2 "--sources: '0' is not a whole number from 1 to 100000" "$demo" --sources 0
run 2 "--sources: '100001' is not a whole number" "$demo" --sources 100001
run 2 "--sources: '-3' is not a whole number" "$demo" --sources -3
run 2 "--frames: '4294967296' is not a whole number" "$demo" --frames 4294967296
run 2 "--frames: '1.5' is not a whole number" "$demo" --frames 1.5
run 2 "--frames: ' 7' is not a whole number" "$demo" --frames " 7"
run 2 "--seconds: 'inf' is not a number" "$demo" --seconds inf
run 2 "--seconds: 'nan' is not a number" "$demo" --seconds nan
run 2 "--seconds: '1e400' is not a number" "$demo" --seconds 1e400
run 2 "--seconds needs a value" "$demo" --seconds ""
run 2 "--size width: '8193' is not a whole number from 64 to 8192" "$demo" --size 8193x100
run 2 "--size height: '' is not a whole number" "$demo" --size 640x
run 2 "--size: 'x480' is not WIDTHxHEIGHT|--size width: '' is not" "$demo" --size x480
run 2 "--gpu-budget: 'lots' is not a number" "$demo" --gpu-budget lots
run 2 "--gpu-budget: '101' is not a number from 0.01 to 100" "$demo" --gpu-budget 101
run 2 "--gpu-budget: '-1' is not a number" "$demo" --gpu-budget -1
run 2 "--script: '0' is not a whole number from 1" "$demo" --script 0:P
run 2 "--script: unknown key 'Q' \(P G M O Z F1 TAB" "$demo" --script 10:Q
run 2 "--script: '10' is not FRAME:KEY" "$demo" --script 10
run 2 "--script: the list is longer than" "$demo" --script "$(printf '1:P,%.0s' {1..1100})"
run 2 "--script: item 2 of '10:P,,20:G' is empty" "$demo" --script 10:P,,20:G
run 2 "--script: item 2 of '10:P,' is empty" "$demo" --script 10:P,
run 2 "--script: item 1 of ',' is empty" "$demo" --script ,
run 2 "--script: frame 90 is after the last frame \(--frames 60\)" "$demo" --headless --frames 60 --script 30:P,90:C
run 2 "--script: '1:P' is not FRAME:KEY \\(at most 256 events\\)|at most 256" "$demo" --script "$(printf '1:P,%.0s' {1..300})"
run 2 "--scene needs a value" "$demo" --scene
run 2 "--out-dir: cannot write into '/nonexistent'" "$demo" --headless --frames 2 --out-dir /nonexistent
run 2 "--out-dir: longer than 900" "$demo" --out-dir "/tmp/$(printf 'd%.0s' {1..950})"
run 2 "--screenshot: cannot write '/nonexistent/x.png'" "$demo" --headless --frames 2 --screenshot /nonexistent/x.png
run 2 "--pass-csv: cannot write" "$demo" --headless --frames 2 --pass-csv /nonexistent/p.csv
run 2 "--perf-log: cannot write" "$demo" --headless --frames 2 --perf-log /proc/nonexistent
run 2 "--csv: cannot write '/': Is a directory" "$demo" --headless --frames 2 --csv /
run 2 "--shader-dir: '/nonexistent' is not a folder \(No such file or directory\)" "$demo" --headless --frames 2 --shader-dir /nonexistent
run 2 "--shader-dir: '/etc/passwd' is not a folder \(a file\)" "$bench" --shader-dir /etc/passwd
run 2 "--device picks a Vulkan device; it does not apply with --api gl" "$demo" --headless --frames 2 --api gl --device 0
run 2 "--csv 'same.csv' and --log 'same.csv' are the same file" "$demo" --headless --frames 2 --csv same.csv --log same.csv
run 2 "--trace '/tmp/x.json' and --perf-log '/tmp/./x.json' are the same file" "$demo" --headless --frames 2 --trace /tmp/x.json --perf-log /tmp/./x.json
run 2 "--json 'b.json' and --html 'b.json' are the same file" "$bench" --json b.json --html b.json
# A file that cannot be written at the end (a full device): said, and status 1.
run 1 "L: writing the log /dev/full failed" "$demo" --api vulkan --headless --frames 5 --log /dev/full
run 1 "--csv: writing '/dev/full' failed" "$demo" --api vulkan --headless --frames 5 --csv /dev/full
run 1 "--csv: writing '/dev/full' failed \(No space left on device\)" "$demo" --api vulkan --headless --frames 5 --csv /dev/full
run 1 "--trace: writing '/dev/full' failed \(No space left on device\)" "$demo" --api vulkan --headless --frames 5 --trace /dev/full
run 1 "cannot write /dev/full: No space left on device" "$demo" --api vulkan --headless --frames 5 --screenshot /dev/full
run 1 "--screenshot: writing it failed" "$demo" --api vulkan --headless --frames 5 --screenshot /dev/full
# The failures are said on stderr (stdout holds the table and the status lines).
cases=$((cases + 1))
if timeout 120 "$demo" --api vulkan --headless --frames 5 --log /dev/full 2>&1 >/dev/null |
	grep -q "L: writing the log /dev/full failed"; then
	echo "ok   --log /dev/full: said on stderr"
else
	echo "FAIL: --log /dev/full: the failure is not on stderr"; fails=$((fails + 1))
fi
# An existing file is replaced whole, its permissions kept, nothing left beside it.
files="$(mktemp -d)"
echo old >"$files/keep.csv"
chmod 640 "$files/keep.csv"
run 0 "csv: $files/keep.csv" "$demo" --api vulkan --headless --frames 5 --csv "$files/keep.csv" \
	--trace "$files/t.json"
cases=$((cases + 1))
if [[ "$(head -c 9 "$files/keep.csv")" == "# srcprof" && "$(stat -c %a "$files/keep.csv")" == 640 &&
	-z "$(ls "$files" | grep -v '^keep.csv$\|^t.json$')" ]]; then
	echo "ok   an existing --csv file was replaced whole, mode 640 kept, no file beside it"
else
	echo "FAIL: --csv over an existing file:"; ls -l "$files"; head -2 "$files/keep.csv"
	fails=$((fails + 1))
fi
rm -rf "$files"
# No display: headless, saying so; a display that cannot be opened: the same
# words, the same status, and no error line.
run 0 "no display \(DISPLAY is not set\): running headless" env -u DISPLAY -u WAYLAND_DISPLAY "$demo" --frames 2 --api vulkan
run 0 "no display \(cannot open ':97'\): running headless" env DISPLAY=:97 "$demo" --frames 2 --api vulkan
run 0 "no display \(cannot open ':57'\): running headless" env DISPLAY=:57 "$demo" --frames 2 --api gl
for d in unset :97; do
	if [[ "$d" == unset ]]; then display=(-u DISPLAY); else display=(DISPLAY="$d"); fi
	cases=$((cases + 1))
	if timeout 120 env "${display[@]}" -u WAYLAND_DISPLAY "$demo" --frames 2 --api vulkan 2>&1 |
		grep -E "error|glfw|X11"; then
		echo "FAIL: DISPLAY='$d': an error or GLFW line beside the documented one"
		fails=$((fails + 1))
	else
		echo "ok   DISPLAY='$d': only the documented line"
	fi
done
# The table-driven parser: --opt=value, suggestions, what a scene can take.
run 2 "--frames: 'abc' is not a whole number from 1 to" "$demo" --frames=abc
run 2 "--frames needs a value" "$demo" --frames=
run 2 "unknown option '--frame'; did you mean '--frames'\?" "$demo" --frame 5
run 2 "unknown option 'frames'; did you mean '--frames'\?" "$demo" frames 5
run 2 "unknown option '--list'; did you mean '--list-scenes'\?" "$demo" --list
run 2 "--scene: no scene 'grdi'; did you mean 'grid'\? \(see --list-scenes\)" "$demo" --scene grdi
run 2 "--scene: no scene 'calibrate'; did you mean 'calibrated'\?" "$demo" --scene=calibrate
run 2 "--api: 'vulkn' is not vulkan, gl or auto; did you mean 'vulkan'\?" "$demo" --api=vulkn
run 2 "--gpu-timing: 'flushd' is not auto, plain or flushed; did you mean 'flushed'\?" "$demo" --gpu-timing flushd
run 2 "--headless takes no value \('--headless=yes'\)" "$demo" --headless=yes
run 2 "--csv needs a value \(the next argument, '--headless', is an option\)" "$demo" --csv --headless
run 2 "--sources: scene 'calibrated' takes 1 to 5 \(7 asked; it adds 1 of its own\)" "$demo" --scene calibrated --sources 7
run 2 "--sources: scene 'default' takes 7 to 100000 \(3 asked\)" "$demo" --sources 3 --scene default
run 2 "--sources: scene 'media' takes 4 to 100000 \(2 asked\)" "$demo" --sources=2 --scene=media
run 2 "--sources: scene 'tiles' takes 1 to 10812 \(20000 asked\)" "$demo" --scene tiles --sources 20000
run 2 "--script: unknown key 'ENTR'; did you mean 'ENTER'\?" "$demo" --script 10:ENTR
run 2 "--overlay-scale: '0.1' is not a number from 0.5 to 8" "$demo" --overlay-scale 0.1
run 2 "--target-fps: '0' is not a whole number from 1 to 1000" "$demo" --target-fps=0
run 2 "--log: cannot write '/nonexistent/l.csv'" "$demo" --headless --frames 2 --log /nonexistent/l.csv
# A corrupt shader file: refused before any driver sees it.
bad_shaders="$(mktemp -d)"
for f in "$SRCPROF_SHADER_DIR"/*.spv; do cp "$f" "$bad_shaders/"; done
head -c 100 "$SRCPROF_SHADER_DIR/mesh.vert.vk.spv" >"$bad_shaders/mesh.vert.vk.spv"
run 1 "mesh.vert.vk.spv: not a valid SPIR-V module: instruction at word [0-9]+ .*runs past the end|mesh.vert.vk.spv: not a valid SPIR-V" "$demo" --api vulkan --headless --frames 2 --shader-dir "$bad_shaders"
rm -rf "$bad_shaders"
if [[ "$have_gl" == ON ]]; then
	__EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent/egl.json run 1 "EGL lacks EGL_EXT_platform_base|no headless EGL platform" "$demo" --api gl --headless --frames 2
	VK_DRIVER_FILES=/nonexistent/icd.json run 0 "vulkan unavailable \\(no driver\\), trying OpenGL" "$demo" --headless --frames 2
else
	VK_DRIVER_FILES=/nonexistent/icd.json run 1 "this build has no OpenGL backend" "$demo" --headless --frames 2
fi

# srcprof-bench
run 2 "--frames: '4' is not a whole number from 5" "$bench" --frames 4
run 2 "--frames: 'x' is not a whole number" "$bench" --frames x
run 2 "--warmup: '-1' is not a whole number" "$bench" --warmup -1
run 2 "--repeat: '0' is not a whole number from 1 to 32" "$bench" --repeat 0
run 2 "--repeat: '33' is not a whole number from 1 to 32" "$bench" --repeat 33
run 2 "--sources: '0' is not a whole number" "$bench" --sources 0
run 2 "--sources: 'x' is not a whole number" "$bench" --sources 10,x
run 2 "--sources: item 2 of '10,,100' is empty" "$bench" --sources 10,,100
run 2 "--sources: item 1 of ',,' is empty" "$bench" --sources ,,
run 2 "--sources: at most 16 counts" "$bench" --sources 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17
run 2 "--sources: '100001' is not a whole number" "$bench" --sources 100001
run 2 "--sources needs a value" "$bench" --sources
run 2 "--api: 'dx12' is not vulkan, gl or both" "$bench" --api dx12
run 2 "--scene: no scene 'nope'" "$bench" --scene nope
run 2 "--size width: '32' is not a whole number from 64" "$bench" --size 32x32
run 2 "--gpu-budget: '0' is not a number" "$bench" --gpu-budget 0
run 2 "--raster-threads: 'two' is not a whole number from 0 to 64" "$bench" --raster-threads two
run 2 "--json: cannot write '/nonexistent/b.json'" "$bench" --json /nonexistent/b.json
run 2 "--csv: cannot write" "$bench" --csv /nonexistent/b.csv
run 2 "--svg: cannot write" "$bench" --svg /nonexistent/b.svg
run 2 "unknown option '--fast'" "$bench" --fast
run 0 "usage: srcprof-bench" "$bench" --help
VK_DRIVER_FILES=/nonexistent/icd.json run 1 "no physical device|no Vulkan" "$bench" --api vulkan --frames 5 --warmup 0 --repeat 1

# srcprof-soak
run 2 "--frames: '0' is not a whole number from 1" "$soak" --frames 0
run 2 "--warmup: 100 leaves no frames of the 100" "$soak" --frames 100 --warmup 100
run 2 "--churn: 30 is more than --sources 10" "$soak" --sources 10 --churn 30
run 2 "--sources: '5000' is not a whole number from 1 to 4096" "$soak" --sources 5000
run 2 "--kinds: 'tree' is not mesh, particles, effect, video, logic or heavy" "$soak" --kinds mesh,tree
run 2 "--kinds: item 1 of ',' is empty" "$soak" --kinds ,
run 2 "--max-growth: '-1' is not a whole number" "$soak" --max-growth -1
run 2 "--report-every: '0' is not a whole number" "$soak" --report-every 0
run 2 "--api: 'both' is not vulkan or gl" "$soak" --api both
run 2 "unknown option '--forever'" "$soak" --forever
run 0 "usage: srcprof-soak" "$soak" --help
# The table-driven parser: --opt=value, suggestions, flags without values.
run 2 "--warmup: 30 leaves no frames of the 20" "$soak" --frames=20 --warmup=30
run 2 "unknown option '--frame'; did you mean '--frames'\?" "$soak" --frame=10
run 2 "--kinds: 'partcles' is not mesh, particles, effect, video, logic or heavy; did you mean 'particles'\?" "$soak" --kinds mesh,partcles
run 2 "--api: 'vulkn' is not vulkan or gl; did you mean 'vulkan'\?" "$soak" --api=vulkn
run 2 "--no-validate takes no value" "$soak" --no-validate=1
run 2 "--frames needs a value \(the next argument, '--churn', is an option\)" "$soak" --frames --churn 1
VK_DRIVER_FILES=/nonexistent/icd.json run 1 "no physical device|no Vulkan" "$soak" --frames 10 --warmup 1

echo "$cases cases, $fails failed"
exit $((fails > 0))
