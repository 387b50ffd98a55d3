#!/usr/bin/env bash
# Install test dependencies (Python extras + Mesa's lavapipe Vulkan driver for
# the wgpu tests) and run the whole test suite. Used by README and .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mesa-vulkan-drivers libvulkan1 >/dev/null
  else
    echo "warning: lavapipe (mesa-vulkan-drivers) missing and cannot be installed here" >&2
  fi
fi
python3 -m pip install -q -e '.[test]'
exec python3 -m pytest "$@"
