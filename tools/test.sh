#!/usr/bin/env bash
# Install test dependencies (Python extras + Mesa's lavapipe Vulkan driver for
# the wgpu tests) and run the whole test suite. Used by README and .ci/run.
#
#   bash tools/test.sh [pytest args...]
#
# Environment: MATFUSE_TEST_PROVIDERS (default inprocess,wgpu: the provider
# oracle tests run on both; wgpu runs on lavapipe when there is no GPU);
# MATFUSE_REQUIRE_WGPU=1 (set by .ci/run) fails instead of warning when no
# wgpu adapter can be opened, so CI never silently skips the wgpu tests.
set -euo pipefail
cd "$(dirname "$0")/.."

# Mesa warns on every device start without a runtime dir.
if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
  export XDG_RUNTIME_DIR="${TMPDIR:-/tmp}/matfuse-runtime-$(id -u)"
  mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
fi
export MATFUSE_TEST_PROVIDERS="${MATFUSE_TEST_PROVIDERS:-inprocess,wgpu}"

if ! ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mesa-vulkan-drivers libvulkan1 >/dev/null
  else
    echo "warning: lavapipe (mesa-vulkan-drivers) missing and cannot be installed here" >&2
  fi
fi
python3 -m pip install -q -e '.[test]'

# Which adapter the wgpu tests will use (lavapipe in CI).
if adapter=$(python3 -c 'from matfuse.accelerate.providers.wgpu.device import open_device; print(open_device().summary)' 2>/dev/null); then
  echo "wgpu adapter: $adapter"
elif [ "${MATFUSE_REQUIRE_WGPU:-0}" = 1 ]; then
  echo "error: no wgpu adapter (is mesa-vulkan-drivers installed?); the wgpu tests would be skipped" >&2
  exit 1
else
  echo "warning: no wgpu adapter here; the wgpu tests will be skipped" >&2
fi

exec python3 -m pytest "$@"
