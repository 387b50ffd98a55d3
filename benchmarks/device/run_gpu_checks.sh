#!/usr/bin/env bash
# One batched GPU-machine session (see docs/benchmarks/): correctness of the
# wgpu provider and the fusion engine on the real GPU, provider micro-benchmarks,
# and the RunMat workloads against PyTorch/CuPy. Every step has its own time
# limit and log under $OUT, so one failure does not lose the others.
#   usage: bash benchmarks/device/run_gpu_checks.sh STEP...
#   steps: env tests fusiontests golden golden_nofusion wgpu cuda workloads fullsuite
#   (workloads reads WORKLOADS, IMPLS, WORKLOAD_LIMIT and MATFUSE_PROVIDER)
#   fullsuite: the whole GPU suite in one call (~8 min on an H100): every
#   workload, every implementation, parity-checked; $OUT/gpu/results.json is
#   rewritten after every result (a cut keeps the data), $OUT/fullsuite.log
#   has every row, $OUT/gpu/*.png the plots. FULLSUITE_ARGS adds options
#   (e.g. "--workloads pca --append" to redo a part).
set -u
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD/src:$PWD PYTHONUNBUFFERED=1 XDG_RUNTIME_DIR=/tmp
# The machine's pytest plugins (pytest-timeout) do not load under our pytest.
export PYTEST_DISABLE_PLUGIN_AUTOLOAD=1

step() {  # step NAME SECONDS COMMAND...
  local name=$1 limit=$2
  shift 2
  echo "=== $name (limit ${limit}s)"
  local start=$(date +%s)
  timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  echo "rc=$rc seconds=$(( $(date +%s) - start ))"
  tail -n 25 "$OUT/$name.log"
}

for s in "$@"; do
  case $s in
    env) step env 60 bash -c 'nvidia-smi -L; python3 -c "import sys, numpy, torch, cupy, wgpu; print(sys.version); print(numpy.__version__, torch.__version__, cupy.__version__, wgpu.__version__); a = wgpu.gpu.request_adapter_sync(power_preference=\"high-performance\"); print(a.summary, sorted(a.features)[:8])"' ;;
    fusiontests) step fusiontests 90 python3 -m pytest -q -p no:cacheprovider tests/accelerate/fusion/test_dispatch_counts.py ;;
    tests) step tests 150 env MATFUSE_TEST_PROVIDERS=wgpu python3 -m pytest -q -p no:cacheprovider \
             tests/accelerate/fusion/test_dispatch_counts.py tests/accelerate/providers/test_wgpu_provider.py \
             tests/accelerate/providers/test_wgpu_f64math.py ;;
    golden) step golden 240 env MATFUSE_PROVIDER=wgpu python3 -m pytest -q -p no:cacheprovider tests/golden ;;
    golden_nofusion) step golden_nofusion 240 env MATFUSE_PROVIDER=wgpu MATFUSE_FUSION=0 \
                       python3 -m pytest -q -p no:cacheprovider tests/golden ;;
    wgpu) step wgpu_bench 200 python3 benchmarks/wgpu/bench_provider.py --out "$OUT/wgpu_bench.json" ;;
    cuda) step cuda_check 280 python3 benchmarks/cuda/device_check.py ;;
    workloads) step workloads "${WORKLOAD_LIMIT:-380}" env MATFUSE_PROVIDER="${MATFUSE_PROVIDER:-wgpu}" \
                 python3 -m benchmarks.run --suite gpu --workloads "${WORKLOADS:-elementwise,montecarlo,imagenorm}" \
                 --impls "${IMPLS:-matfuse-gpu,torch,torch-compile}" --iters 5 --warmup 2 --timeout 200 --out "$OUT/gpu" --append ;;
    fullsuite) step fullsuite "${FULLSUITE_LIMIT:-520}" env -u MATFUSE_PROVIDER \
                 python3 -m benchmarks.run --suite gpu --out "$OUT/gpu" ${FULLSUITE_ARGS:-}
              grep -E "^[a-z]+ .*: parity|^wrote|interrupted" "$OUT/fullsuite.log" | cut -c1-220 ;;
    *) echo "unknown step $s" ;;
  esac
done
