# Shared by the live view's tests (sourced): a headless demo serving its
# live view, and its address.
#   serve_demo DEMO LOG ARGS...  starts DEMO --serve 0 ARGS... in the
#       background; sets pid, url, token, port, base (http://127.0.0.1:PORT)
#       once it printed its URL (at most 120 s); false if it did not.
#   stop_demo  sends SIGINT and waits; false unless it ended as Ctrl-C
#       ends a run (130) or by itself (0).
#   live_scratch  makes the test's scratch folder (out) and, at exit,
#       stops a demo still running (pid) and removes it.
#   need_browser  sets browser to chromium's path, or exits 77 (skipped).

live_scratch() {
	out="$(mktemp -d)"
	pid=
	trap 'live_cleanup' EXIT
}

live_cleanup() {
	[[ -n "$pid" ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$out"
}

need_browser() {
	browser="$(command -v chromium || command -v chromium-browser || true)"
	if [[ -z "$browser" ]]; then
		echo "skipped: no chromium (scripts/setup.sh scripts/packages-browser.txt installs it)"
		exit 77
	fi
}

serve_demo() {
	local demo="$1" log="$2"
	shift 2
	"$demo" --serve "${SERVE_ADDR:-0}" "$@" >"$log" 2>&1 &
	pid=$!
	url=
	for _ in $(seq 1200); do
		url=$(grep -o 'http://[^ ]*token=[0-9a-zA-Z._~-]*' "$log" | head -1)
		[[ -n "$url" ]] && break
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "FAIL: the demo ended before it served:"; cat "$log"; pid=; return 1
		fi
		sleep 0.1
	done
	if [[ -z "$url" ]]; then
		echo "FAIL: the demo printed no URL in 120 s:"; cat "$log"; return 1
	fi
	token="${url##*token=}"
	port="$(echo "$url" | sed -E 's#^http://[^/]*:([0-9]+)/.*#\1#')"
	base="http://127.0.0.1:$port"
	echo "serving: $url"
}

stop_demo() {
	[[ -z "$pid" ]] && return 0
	kill -INT "$pid" 2>/dev/null
	wait "$pid"
	local st=$?
	pid=
	if [[ $st != 130 && $st != 0 ]]; then
		echo "FAIL: the demo exited $st"; return 1
	fi
	return 0
}
