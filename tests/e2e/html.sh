#!/usr/bin/env bash
# The --html pages in a real browser: a short bench run and a compare of it
# with itself, each page loaded in headless Chromium (scripts/packages-
# browser.txt), its DOM after the page's script ran checked against the
# JSON (one table row per source, or per change, sorted by the script),
# and each page and the SVG rendered to PNG. Skipped (77) without chromium.
# usage: html.sh <srcprof-bench> <bench_check> <report_check> <api>
set -u
bench="$1" bench_check="$2" check="$3" api="$4"
browser="$(command -v chromium || command -v chromium-browser || true)"
if [[ -z "$browser" ]]; then
	echo "skipped: no chromium (scripts/setup.sh scripts/packages-browser.txt installs it)"
	exit 77
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
fails=0

# chrome ARGS...: headless, offline, in a profile of its own. Without the
# background-networking flags it keeps trying to reach the network.
chrome() {
	local profile
	profile="$(mktemp -d "$out/profile.XXXXXX")"
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--hide-scrollbars --user-data-dir="$profile" "$@" 2>>"$out/chrome.log"
}

# page NAME FILE REPORT.json: the DOM and a picture of FILE.
page() {
	local name="$1" file="$2" report="$3"
	if ! chrome --dump-dom "file://$file" >"$out/$name.dom.html"; then
		echo "FAIL: $name: chromium could not load it"; tail -5 "$out/chrome.log"; fails=1; return
	fi
	"$check" dom "$out/$name.dom.html" "$report" || fails=1
	shot "$name" "$file" 1100,1400
}

# shot NAME FILE WxH: a screenshot, which must hold a rendered page.
shot() {
	chrome --window-size="$3" --screenshot="$out/$1.png" "file://$2" >/dev/null
	local size
	size=$(stat -c %s "$out/$1.png" 2>/dev/null || echo 0)
	if ((size > 20000)); then echo "ok   $1 renders ($size bytes of PNG)"; else
		echo "FAIL: $1: no screenshot ($size bytes)"; tail -5 "$out/chrome.log"; fails=1; fi
}

if ! "$bench" --api "$api" --scene default --sources 4,8 --frames 10 --warmup 3 --repeat 2 \
	--isolate --json "$out/b.json" --csv "$out/b.csv" --svg "$out/b.svg" --html "$out/b.html" \
	>"$out/bench.txt" 2>&1; then
	echo "FAIL: bench exited with an error"; cat "$out/bench.txt"; exit 1
fi
"$bench_check" "$out/b.json" "$out/b.csv" "$out/b.svg" --isolated || fails=1
page bench "$out/b.html" "$out/b.json"
shot svg "$out/b.svg" 1000,1400
"$bench" compare "$out/b.json" "$out/b.json" --json "$out/c.json" --html "$out/c.html" \
	>"$out/compare.txt" 2>&1
st=$?
if [[ $st != 0 ]]; then echo "FAIL: a run compared with itself exits $st"; cat "$out/compare.txt"; fails=1; fi
"$check" compare "$out/c.json" 0 || fails=1
page compare "$out/c.html" "$out/c.json"
exit $fails
