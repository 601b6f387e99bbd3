#!/usr/bin/env bash
# Installs the Debian packages in scripts/packages.txt (and in any further
# list files named as arguments) that are missing, as root or through sudo.
# Prints nothing when everything is there.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

missing=()
while read -r pkg; do
	[[ -z "$pkg" || "$pkg" == \#* ]] && continue
	status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
	[[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done < <(cat "$here/packages.txt" "$@")

((${#missing[@]} == 0)) && exit 0

if [[ $(id -u) -eq 0 ]]; then
	sudo=()
elif command -v sudo >/dev/null 2>&1; then
	sudo=(sudo)
else
	echo "setup: missing packages: ${missing[*]}" >&2
	echo "setup: run as root or install sudo, or install them yourself: apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
