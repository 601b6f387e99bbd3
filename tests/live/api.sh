#!/usr/bin/env bash
# The live view's endpoints through curl against a running headless demo:
# the token (none, wrong, as ?token=, bearer, the cookie the page gets),
# Host and Origin, methods, every endpoint's answer (JSON, CSV, SSE,
# Prometheus text, a capture checked by trace_check), no CORS header
# anywhere, that the demo listens on loopback only, and (on Vulkan, with
# record and tick threads and compute) the threads and queues.
# usage: api.sh <srcprof-demo> <trace_check> <api>
set -u
demo="$1" trace_check="$2" api="$3"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/serve_lib.sh"
live_scratch
fails=0
fail() { echo "FAIL: $*"; fails=1; }
ok() { echo "ok   $*"; }

# On Vulkan the scene is ticked and recorded by worker threads and its
# particles simulate on the "compute" queue: threads and queues in every
# answer.
threads=()
[[ "$api" == vulkan ]] && threads=(--record-threads 4 --tick-threads 2 --compute)
serve_demo "$demo" "$out/demo.txt" --api "$api" --headless --scene default --seconds 600 \
	"${threads[@]}" || exit 1
auth=(-H "Authorization: Bearer $token")

# code ARGS...: the HTTP status curl got (headers kept in $out/h).
code() { curl -s -o "$out/body" -D "$out/h" -w '%{http_code}' --max-time 60 "$@"; }
expect() {
	local want="$1" what="$2"
	shift 2
	local got
	got=$(code "$@")
	if [[ "$got" == "$want" ]]; then ok "$what: $got"; else fail "$what: $got, not $want"; fi
	if grep -qi '^access-control-' "$out/h"; then fail "$what: a CORS header was sent"; fi
}

# Without the token, or with a wrong one: 403 everywhere.
for path in / /live.js /work.js /api/v1/snapshot /api/v1/stream /api/v1/history /metrics /nothing; do
	expect 403 "GET $path without a token" "$base$path"
done
expect 403 "POST /api/v1/capture without a token" -X POST "$base/api/v1/capture"
expect 403 "a wrong bearer token" -H "Authorization: Bearer ${token%?}x" "$base/api/v1/snapshot"
expect 403 "a wrong ?token=" "$base/api/v1/snapshot?token=${token%?}x"
expect 403 "a wrong cookie" -H "Cookie: srcprof_live_$port=${token%?}x" "$base/api/v1/snapshot"
# Host and origin.
expect 403 "a foreign Host (DNS rebinding)" -H "Host: attacker.example:$port" "${auth[@]}" "$base/api/v1/snapshot"
expect 403 "a foreign Origin" -H "Origin: http://attacker.example" "${auth[@]}" "$base/api/v1/snapshot"
expect 403 "Sec-Fetch-Site: cross-site" -H "Sec-Fetch-Site: cross-site" "${auth[@]}" "$base/api/v1/snapshot"
expect 403 "a CORS preflight" -X OPTIONS -H "Origin: http://attacker.example" \
	-H "Access-Control-Request-Method: GET" "$base/api/v1/snapshot"
expect 200 "its own Origin" -H "Origin: $base" "${auth[@]}" "$base/api/v1/snapshot"
# Methods, paths.
expect 405 "PUT" -X PUT "${auth[@]}" "$base/api/v1/snapshot"
expect 405 "DELETE" -X DELETE "${auth[@]}" "$base/"
expect 405 "GET of the capture" "${auth[@]}" "$base/api/v1/capture"
expect 404 "an unknown path" "${auth[@]}" "$base/nothing"
expect 404 "a path out of the tree" --path-as-is "${auth[@]}" "$base/../../etc/passwd"
expect 413 "a body on a GET" "${auth[@]}" --data-binary 0123456789 -X GET "$base/api/v1/snapshot"
expect 413 "a chunked body on a GET" "${auth[@]}" -H "Transfer-Encoding: chunked" --data-binary 0123456789 \
	-X GET "$base/api/v1/snapshot"
expect 413 "a chunked GET with no body yet" "${auth[@]}" -H "Transfer-Encoding: chunked" "$base/api/v1/snapshot"

# The page: the token for a cookie, then the page with it.
expect 303 "the printed URL" "$url"
if grep -qi '^set-cookie: srcprof_live_'"$port"'=.*HttpOnly; SameSite=Strict' "$out/h" &&
	grep -qi '^location: /' "$out/h"; then ok "the token becomes an HttpOnly SameSite=Strict cookie"
else fail "no HttpOnly SameSite=Strict cookie:"; cat "$out/h"; fi
cookie=(-H "Cookie: srcprof_live_$port=$token")
expect 200 "the page with the cookie" "${cookie[@]}" "$base/"
grep -qi "^content-security-policy: default-src 'none'" "$out/h" || fail "the page has no CSP"
grep -qi '^referrer-policy: no-referrer' "$out/h" || fail "the page has no Referrer-Policy"
grep -q '<script src="/live.js">' "$out/body" || fail "the page does not load its script"
grep -q '<script src="/work.js">' "$out/body" || fail "the page does not load its work view"
for js in live.js work.js; do
	expect 200 "its script $js" "${cookie[@]}" "$base/$js"
	grep -qi '^content-type: text/javascript' "$out/h" || fail "$js is not served as JavaScript"
done

# Snapshot, CSV, history. The first frames are collected a while after the
# URL is printed on a slow machine (a sanitizer build, two cores shared):
# wait for the sources' figures first.
for _ in $(seq 240); do
	curl -s --max-time 60 "${auth[@]}" "$base/api/v1/snapshot" | jq -e '.sources[0].have' >/dev/null 2>&1 && break
	sleep 0.5
done
expect 200 "the snapshot" "${auth[@]}" "$base/api/v1/snapshot"
if jq -e '.schema == "srcprof-live/1" and (.sources | length) >= 12 and
	(.sources[0] | has("render_gpu_sum_ns") and has("type") and has("passes"))' "$out/body" >/dev/null
then ok "the snapshot: $(jq '.sources | length' "$out/body") sources, typed, with passes"
else fail "the snapshot's JSON:"; head -c 600 "$out/body"; echo; fi
# Threads and queues: the profiler's queues, its threads and their
# counters; on Vulkan both queues named, and the fountain's sum on each,
# which add up to its GPU sum within rounding (an integer division each).
if jq -e '.profiler | (.queues | type == "array") and (.threads | type == "number") and
	(.thread_bytes | type == "number") and ([.threads_refused, .records_late, .records_dropped,
	.gpu_timers_unavailable, .gpu_timers_misplaced, .gpu_timers_denied] | all(type == "number"))' \
	"$out/body" >/dev/null
then ok "the snapshot's profiler: queues $(jq -c '[.profiler.queues[].name]' "$out/body"), $(jq .profiler.threads "$out/body") threads"
else fail "the snapshot's profiler has no threads and queues:"; jq -c .profiler "$out/body"; fi
if [[ "$api" == vulkan ]]; then
	cp "$out/body" "$out/snap.json"
	# A source's GPU sum reaches both queues once the compute queue's
	# first timed frame is collected: wait for it.
	for _ in $(seq 60); do
		jq -e '.sources[] | select(.source == "fountain") | .gpu_samples > 0 and (.queues | length) == 2' \
			"$out/snap.json" >/dev/null 2>&1 && break
		sleep 1
		curl -s --max-time 60 "${auth[@]}" "$base/api/v1/snapshot" >"$out/snap.json"
	done
	if jq -e '[.profiler.queues[].name] == ["graphics", "compute"] and .profiler.gpu_queues == 2 and
		.profiler.threads >= 6' "$out/snap.json" >/dev/null
	then ok "the snapshot names both queues and counts $(jq .profiler.threads "$out/snap.json") recording threads"
	else fail "queues and threads:"; jq -c '.profiler | {gpu_queues, queues, threads}' "$out/snap.json"; fi
	if jq -e '.sources[] | select(.source == "fountain") |
		([.queues[].name] == ["graphics", "compute"]) and
		(([.queues[].render_gpu_sum_ns] | add) - .render_gpu_sum_ns | fabs <= 2) and
		(.queues | all(.render_gpu_sum_ns > 0 and .gpu_samples == $f.gpu_samples))' \
		--argjson f "$(jq '.sources[] | select(.source == "fountain")' "$out/snap.json")" \
		"$out/snap.json" >/dev/null
	then ok "fountain: $(jq -c '.sources[] | select(.source == "fountain") | [(.queues[] | "\(.name) \(.render_gpu_sum_ns)"), "sum \(.render_gpu_sum_ns)"]' "$out/snap.json")"
	else fail "fountain's queues:"; jq -c '.sources[] | select(.source == "fountain") | {render_gpu_sum_ns, queues}' "$out/snap.json"; fi
	if jq -e '[.sources[] | select(.source == "fountain") | .passes[] | select(.name == "simulate") | .queue_name] == ["compute"]' \
		"$out/snap.json" >/dev/null
	then ok "fountain's simulate pass is on the compute queue"
	else fail "fountain's passes:"; jq -c '.sources[] | select(.source == "fountain") | .passes' "$out/snap.json"; fi
fi
# Work counting is off in this run (no --work): no work anywhere, and
# the fields say so.
if jq -e '.work_enabled == false and has("frame_work") and .frame_work == null and
	all(.sources[] | select(.have); has("work") and .work == null and all(.passes[]; has("work") and .work == null))' \
	"$out/body" >/dev/null
then ok "the snapshot without --work: work_enabled false, every work null"
else fail "the snapshot's work without --work:"; jq -c '{work_enabled, frame_work, w: [.sources[] | .work]}' "$out/body"; fi
expect 200 "the snapshot, 2 rows" "${auth[@]}" "$base/api/v1/snapshot?limit=2"
[[ $(jq '.sources | length' "$out/body") == 2 ]] || fail "?limit=2 gave $(jq '.sources | length' "$out/body") rows"
expect 400 "format=xml" "${auth[@]}" "$base/api/v1/snapshot?format=xml"
expect 200 "the CSV snapshot" "${auth[@]}" "$base/api/v1/snapshot?format=csv&token=$token"
grep -q '^source,tick_avg_ns,tick_max_ns,.*,render_gpu_sum_ci95_ns,gpu_sum_by_queue_ns,work_frames,input_vertices_per_frame,input_primitives_per_frame,vs_invocations_per_frame,clipping_invocations_per_frame,clipping_primitives_per_frame,fs_invocations_per_frame,cs_invocations_per_frame,type$' "$out/body" ||
	fail "the CSV has no header with gpu_sum_by_queue_ns and the work columns before type"
# Work counting is off in this run: the work columns are empty.
if [[ "$api" == vulkan ]] && ! grep -Eq '^fountain,.*,graphics:[0-9]+;compute:[0-9]+,,,,,,,,,particles$' "$out/body"; then
	fail "the CSV's fountain has no per-queue sums and empty work columns:"; grep '^fountain,' "$out/body"
fi
if grep -v '^#' "$out/body" | tail -n +2 | grep -Evq ',,,,,,,,,[^,]*$'; then
	fail "work counting is off, yet a CSV row has work figures:"; grep -v '^#' "$out/body" | head -3
else ok "the CSV: the work columns are empty (work counting off)"; fi
grep -qi '^content-type: text/csv' "$out/h" || fail "the CSV is not text/csv"
expect 200 "the history" "${auth[@]}" "$base/api/v1/history"
jq -e '(.time_ms | length) >= 1 and (.sources | length) >= 12' "$out/body" >/dev/null ||
	fail "the history's JSON"

# The stream: a history event, then updates.
curl -s -N --max-time 4 "${auth[@]}" "$base/api/v1/stream" >"$out/stream" 2>/dev/null
updates=$(grep -c '^event: update' "$out/stream")
if head -3 "$out/stream" | grep -q '^event: history' && ((updates >= 2)); then
	ok "the stream: a history event, then $updates updates in 4 s"
else fail "the stream:"; head -c 300 "$out/stream"; echo; fi

# Prometheus: every sample line is a srcprof_ series with a number.
expect 200 "/metrics" "${auth[@]}" "$base/metrics"
grep -qi '^content-type: text/plain; version=0.0.4' "$out/h" || fail "/metrics' Content-Type"
bad=$(grep -v '^#' "$out/body" | grep -Evc '^srcprof_[a-z0-9_]+(\{([a-z_]+="([^"\\]|\\.)*",?)*\})? -?[0-9.e+-]+$')
if [[ $bad == 0 ]]; then ok "/metrics: $(grep -vc '^#' "$out/body") samples, every line well formed"
else fail "/metrics: $bad malformed lines"; fi
dups=$(grep -v '^#' "$out/body" | sed 's/ [^ ]*$//' | sort | uniq -d | head -3)
if [[ -z "$dups" ]]; then ok "/metrics: each series once"; else fail "/metrics: series twice: $dups"; fi
types=$(grep '^# TYPE ' "$out/body" | awk '{print $3}' | sort | uniq -d | head -3)
[[ -z "$types" ]] || fail "/metrics: TYPE twice: $types"
queue_series=('srcprof_source_queue_render_gpu_sum_seconds{source="fountain",type="particles",queue="graphics",stat="avg"}'
	'srcprof_gpu_queue_info{queue="graphics",number="0"} 1' 'srcprof_threads_recording '
	'srcprof_thread_buffer_bytes ' 'srcprof_threads_refused_total ' 'srcprof_records_late_total '
	'srcprof_records_dropped_total ' 'srcprof_gpu_timers_unavailable_total '
	'srcprof_gpu_timers_misplaced_total ' 'srcprof_gpu_timers_denied_total ')
[[ "$api" == vulkan ]] && queue_series+=(
	'srcprof_source_queue_render_gpu_sum_seconds{source="fountain",type="particles",queue="compute",stat="avg"}'
	'srcprof_gpu_queue_info{queue="compute",number="1"} 1' 'srcprof_gpu_queues 2'
	'srcprof_source_pass_render_gpu_seconds{source="fountain",type="particles",pass="simulate",queue="compute",stat="avg"}')
for want in "${queue_series[@]}"; do
	grep -qF "$want" "$out/body" || fail "/metrics lacks $want"
done
ok "/metrics: $(grep -c '^srcprof_source_queue_render_gpu_sum_seconds' "$out/body") queue-labelled source samples"
for want in 'srcprof_source_render_gpu_sum_seconds{source="fountain",type="particles",stat="avg"}' \
	'srcprof_source_samples{source="fountain",type="particles",kind="gpu"}' \
	'srcprof_source_pass_render_cpu_seconds{source="blur-effect",type="effect",pass="' \
	'srcprof_frames_collected_total ' 'srcprof_info{program="srcprof-demo'; do
	grep -qF "$want" "$out/body" || fail "/metrics lacks $want"
done

# Work counting off: said, and no work gauge.
grep -qx 'srcprof_work_enabled 0' "$out/body" || fail "/metrics lacks srcprof_work_enabled 0"
grep -q '^# TYPE srcprof_source_work_per_frame gauge$' "$out/body" || fail "/metrics lacks the work gauge's TYPE"
if grep -q '^srcprof_source_work_per_frame{' "$out/body"; then
	fail "/metrics has work gauges with work counting off"
else ok "/metrics: srcprof_work_enabled 0, no work gauge"; fi

# A capture: a valid trace, one at a time.
curl -s -o "$out/trace.json" -w '%{http_code}' --max-time 120 -X POST "${auth[@]}" \
	"$base/api/v1/capture" >"$out/capture_code" &
cap=$!
sleep 1
expect 409 "a second capture at once" -X POST "${auth[@]}" "$base/api/v1/capture"
wait $cap
if [[ $(cat "$out/capture_code") == 200 ]] && "$trace_check" "$out/trace.json" --gpu; then
	ok "the capture is a valid trace ($(stat -c %s "$out/trace.json") bytes)"
else fail "the capture: status $(cat "$out/capture_code")"; fi

# Where it listens: 127.0.0.1 only (/proc/net/tcp, in hex).
hexport=$(printf '%04X' "$port")
listen=$(awk -v p=":$hexport" '$2 ~ p"$" && $4 == "0A" {print $2}' /proc/net/tcp /proc/net/tcp6)
if [[ "$listen" == "0100007F:$hexport" ]]; then ok "it listens on 127.0.0.1:$port only"
else fail "it listens on: $listen"; fi

stop_demo || fails=1
exit $fails
