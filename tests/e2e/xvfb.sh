#!/usr/bin/env bash
# Runs a command under an X server of its own (Xvfb, 1920x1080), on a
# display the server picks itself (-displayfd), atomically: xvfb-run -a
# looks for a free display and then starts its server, and a test started
# in between (here or in another build on the machine) can take the same.
# Like xvfb-run's, the server resets whenever its last client leaves, and
# refuses connections meanwhile: a program that opens and closes the display
# before its window connects meets that reset here, as under xvfb-run.
# --noreset turns that off, for tests whose own tools (xdotool polling for
# the window) connect and leave while the program starts.
# The command gets DISPLAY, and XVFB_PID to stop the server itself; the
# server is stopped when the command ends.
# usage: xvfb.sh [--noreset] COMMAND [ARGS...]
set -u
args=(-displayfd 3 -screen 0 1920x1080x24 -nolisten tcp)
if [[ "${1:-}" == --noreset ]]; then
	args+=(-noreset)
	shift
fi
dir="$(mktemp -d)"
Xvfb "${args[@]}" 3>"$dir/display" 2>"$dir/log" &
xpid=$!
trap 'kill "$xpid" 2>/dev/null; wait "$xpid" 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 1 300); do
	[[ -s "$dir/display" ]] && break
	kill -0 "$xpid" 2>/dev/null || break
	sleep 0.1
done
if ! [[ -s "$dir/display" ]]; then
	echo "xvfb.sh: Xvfb did not start:" >&2
	cat "$dir/log" >&2
	exit 1
fi
DISPLAY=":$(head -1 "$dir/display")" XVFB_PID="$xpid" "$@"
