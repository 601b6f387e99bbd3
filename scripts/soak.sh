#!/usr/bin/env bash
# The soak test (not part of the default ctest run: it takes minutes): sets
# up, builds, and runs srcprof-soak headless for 100,000 frames with sources
# replaced every frame, on Vulkan and, when it starts, OpenGL. Each run
# prints progress lines and a verdict (resident memory flat after warm-up,
# GPU timer pools and live objects not growing, no messages).
#
#   scripts/soak.sh                 both APIs, 100,000 frames each
#   scripts/soak.sh --api vulkan    one API; any other srcprof-soak option
#                                   (--frames, --sources, --churn, --kinds,
#                                   --validate is on unless --no-validate)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

apis=(vulkan gl)
args=()
while (($#)); do
	case "$1" in
	--api)
		case "${2:-}" in
		vulkan | gl) apis=("$2") ;;
		*)
			echo "soak.sh: --api takes vulkan or gl (got '${2:-}')" >&2
			exit 2
			;;
		esac
		shift
		;;
	-h | --help) sed -n '2,12p' "$0"; exit 0 ;;
	*) args+=("$1") ;;
	esac
	shift
done

scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default --target srcprof-soak
status=0
for api in "${apis[@]}"; do
	echo "== soak: $api"
	build/default/demos/srcprof-soak --api "$api" "${args[@]}" || status=1
done
exit "$status"
