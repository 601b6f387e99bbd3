#!/usr/bin/env bash
# Runs a command under an X server of its own (Xvfb, 1920x1080), on a
# display the server picks itself (-displayfd): two tests started together,
# here or by another build on the same machine, never share one (xvfb-run
# -a checks for a free display, then starts its server: in between another
# can take it, and the command then meets a server it has no access to).
# The command gets DISPLAY, and XVFB_PID to stop the server itself; the
# server is stopped when the command ends.
# usage: xvfb.sh COMMAND [ARGS...]
set -u
dir="$(mktemp -d)"
Xvfb -displayfd 3 -screen 0 1920x1080x24 -nolisten tcp 3>"$dir/display" 2>"$dir/log" &
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
