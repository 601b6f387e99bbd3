#!/usr/bin/env bash
# The bench's web files (demos/bench/web/) and the pages made of them,
# through real linters: the script through node's parser (node --check), a
# compare --html page (bench files of the fuzz corpus, no GPU) through HTML
# Tidy. Tidy 5.6 does not know SVG's presentation attributes (font-family,
# font-size on <svg>), so that one message is muted; any other it prints
# fails. Skipped (77) when neither node nor tidy is installed
# (scripts/packages-browser.txt lists both).
# usage: lint_web.sh <srcprof-bench> <source dir>
set -u
bench="$1" src="$2"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
fails=0 ran=0

if command -v node >/dev/null; then
	ran=1
	if node --check "$src/demos/bench/web/bench.js" 2>"$out/node.txt"; then
		echo "ok   bench.js parses (node --check)"
	else
		echo "FAIL: bench.js:"; cat "$out/node.txt"; fails=1
	fi
else
	echo "skipped: bench.js: no node (apt-get install nodejs)"
fi

if command -v tidy >/dev/null; then
	ran=1
	corpus="$src/tests/fuzz/corpus/bench_load"
	"$bench" compare "$corpus/one_run" "$corpus/work_isolate" --html "$out/c.html" \
		>"$out/compare.txt" 2>&1
	if [[ ! -s "$out/c.html" ]]; then
		echo "FAIL: compare wrote no page"; cat "$out/compare.txt"; fails=1
	else
		tidy -q -e --mute PROPRIETARY_ATTRIBUTE "$out/c.html" >"$out/tidy.txt" 2>&1
		st=$?
		if ((st == 2)) || [[ -s "$out/tidy.txt" ]]; then
			echo "FAIL: compare's page (tidy exit $st):"; cat "$out/tidy.txt"; fails=1
		else
			echo "ok   compare's page is clean HTML (tidy)"
		fi
	fi
else
	echo "skipped: the page: no tidy (apt-get install tidy)"
fi

((ran)) || exit 77
exit "$fails"
