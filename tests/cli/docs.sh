#!/usr/bin/env bash
# The README documents what the programs offer: every srcprof-demo option
# its --help lists, every key --script knows and every scene; the testing
# notes every srcprof-soak option. A new option or key without a line fails.
# usage: docs.sh <srcprof-demo> <srcprof-soak> <source dir>
set -u
demo="$1" soak="$2" src="$3"
fails=0
check() { # <file> <literal> <what>
	if grep -qF -- "$2" "$1"; then echo "ok   $3"; else echo "FAIL: $(basename "$1") lacks $3"; fails=$((fails + 1)); fi
}
for opt in $("$demo" --help | grep -oE '^  --[a-z-]+'); do
	check "$src/README.md" "$opt" "option $opt"
done
# Key names for --script, from the --help lines that list them (1-9 is
# one range), each in backticks; then each key's row in the table.
for key in $("$demo" --help | sed -n '/^hotkeys/,/^):/p' | sed '1d;$d'); do
	check "$src/README.md" "\`${key/1-9/1\`-\`9}\`" "key name $key"
done
while IFS= read -r label; do
	check "$src/README.md" "| \`$label\` |" "key row $label"
done < <("$demo" --help | sed -n '/^):/,$p' | sed '1d' | grep -E '^  [^ ]' | cut -c3-26 | sed 's/ *$//')
for scene in $("$demo" --list-scenes | cut -d' ' -f1); do
	check "$src/README.md" "| \`$scene\` |" "scene $scene"
done
for opt in $("$soak" --help | grep -oE '^  --[a-z-]+'); do
	check "$src/docs/testing.md" "\`$opt\`" "soak option $opt"
done
exit $((fails > 0))
