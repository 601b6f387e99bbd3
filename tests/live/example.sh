#!/usr/bin/env bash
# An example renderer (examples/, built against the installed package)
# with --serve: it prints its live view's URL, and the snapshot holds its
# objects with GPU figures; a bad --serve is refused with exit 2.
# usage: example.sh <example> [NAMES]
#   NAMES: a JSON array of every source's name, sorted (default: the three
#   objects, ["large", "medium", "small"]).
set -u
ex="$1"
names="${2:-[\"large\", \"medium\", \"small\"]}"
. "$(cd "$(dirname "$0")" && pwd)/serve_lib.sh"
live_scratch
"$ex" --serve nope >/dev/null 2>"$out/bad.txt"
st=$?
if [[ $st != 2 ]] || ! grep -q -- '--serve takes \[ADDR:\]PORT' "$out/bad.txt"; then
	echo "FAIL: --serve nope: exit $st"; cat "$out/bad.txt"; exit 1
fi
echo "ok   a bad --serve: exit 2, $(cat "$out/bad.txt")"
"$ex" --serve 0 >"$out/run.txt" 2>&1 &
pid=$!
url=
for _ in $(seq 1200); do
	url=$(grep -o 'http://[^ ]*token=[0-9a-f]*' "$out/run.txt" | head -1)
	[[ -n "$url" ]] && break
	kill -0 "$pid" 2>/dev/null || { echo "FAIL: it ended:"; cat "$out/run.txt"; exit 1; }
	sleep 0.1
done
[[ -n "$url" ]] || { echo "FAIL: no URL printed"; cat "$out/run.txt"; exit 1; }
token="${url##*token=}"
base="${url%%/?token=*}"
ok=0
for _ in $(seq 300); do
	curl -s --max-time 30 -H "Authorization: Bearer $token" "$base/api/v1/snapshot" >"$out/s.json"
	if jq -e --argjson names "$names" '[.sources[] | select(.have and .gpu_samples > 0) |
		.source] | sort == $names' "$out/s.json" >/dev/null 2>&1; then ok=1; break; fi
	sleep 0.2
done
if ((ok)); then echo "ok   $(basename "$ex") serves $(jq -c . <<<"$names") with GPU figures"
else echo "FAIL: the snapshot:"; head -c 800 "$out/s.json"; echo; exit 1; fi
# A capture from the page's endpoint: the example polls between frames.
code=$(curl -s -o "$out/t.json" -w '%{http_code}' --max-time 120 -X POST \
	-H "Authorization: Bearer $token" "$base/api/v1/capture")
if [[ $code == 200 ]] && jq -e '.traceEvents | length > 0' "$out/t.json" >/dev/null; then
	echo "ok   a capture: $(jq '.traceEvents | length' "$out/t.json") events"
else echo "FAIL: capture: $code"; exit 1; fi
kill -TERM "$pid" # (a background job ignores SIGINT)
wait "$pid"
pid=
exit 0
