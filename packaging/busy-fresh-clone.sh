#!/usr/bin/env bash
# Prove that `make test` is green on a fresh clone while the computer is busy (issue 31).
#
#   packaging/busy-fresh-clone.sh [--hog|--no-hog] [--llama-wheel DIR] [--command CMD] [--keep] [--workdir DIR]
#
# It clones this repository (HEAD as committed: commit first) into a new temporary folder, with ../shared
# beside it as in the real layout (a link to this checkout's ../shared: the real-data tests read
# ../shared/bench), and runs `CI=true bash .ci/run` there (`make test`: setup, lint, the whole suite, the
# frozen app's build and smoke test) with nothing cached:
#
#   * an empty pip cache (PIP_CACHE_DIR is a new empty folder) and an empty Lantern build cache
#     (LANTERN_BUILD_CACHE), except that --llama-wheel DIR copies a folder holding
#     llama_cpp_python-0.3.36-*.whl into it, so llama-cpp-python is not compiled again (~13 min);
#   * new, empty XDG cache and data folders (no assembled chat models, no measured speeds, no model or
#     matplotlib caches).  pip's configuration (its package indexes, find-links) is this machine's own.
#
# --hog (the default) keeps every core busy for the whole run: one `yes > /dev/null` per core (nproc),
# ended on exit.  --no-hog runs the same without it.  The load average is sampled every 5 s into
# load.log in the work folder.  At the end it prints the result, the time taken and the min / median /
# max 1-minute load average, and exits with the run's status.  --command CMD runs CMD in the clone
# instead of `CI=true bash .ci/run` (a cheap check of the script itself); --keep keeps the work folder.
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
hog=1
llama_wheel=""
command="CI=true bash .ci/run"
keep=0
work=""
while [ $# -gt 0 ]; do
    case "$1" in
        --hog) hog=1 ;;
        --no-hog) hog=0 ;;
        --llama-wheel) llama_wheel="$(cd "$2" && pwd)"; shift ;;
        --command) command="$2"; shift ;;
        --keep) keep=1 ;;
        --workdir) work="$2"; shift ;;
        -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
        *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

say() { printf '\033[1m[busy-fresh-clone]\033[0m %s\n' "$*" >&2; }

work="${work:-$(mktemp -d /tmp/lantern-fresh-XXXXXX)}"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
hog_pids=()
sampler_pid=""
cleanup() {
    local pid
    for pid in "${hog_pids[@]}" $sampler_pid; do
        kill "$pid" 2>/dev/null || true
    done
    wait 2>/dev/null || true
    if [ "$keep" = 0 ]; then
        chmod -R u+w "$work" 2>/dev/null || true
        rm -rf "$work"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say "work folder: $work"
git clone -q "$here" "$work/lantern"
if [ -e "$here/../shared" ]; then
    ln -s "$(cd "$here/../shared" && pwd)" "$work/shared"
else
    say "no ../shared beside $here: the real-data tests will fail under CI=true"
fi
mkdir -p "$work/pip-cache" "$work/build-cache" "$work/xdg-cache" "$work/xdg-data"
if [ -n "$llama_wheel" ]; then
    ls "$llama_wheel"/llama_cpp_python-*.whl >/dev/null 2>&1 \
        || { say "--llama-wheel $llama_wheel holds no llama_cpp_python-*.whl"; exit 2; }
    cp -r "$llama_wheel" "$work/build-cache/$(basename "$llama_wheel")"
    say "llama-cpp-python wheel from $llama_wheel (nothing else is cached)"
fi

if [ "$hog" = 1 ]; then
    for _ in $(seq "$(nproc)"); do
        yes > /dev/null &
        hog_pids+=("$!")
    done
    say "CPU hog: ${#hog_pids[@]} × yes > /dev/null (pids ${hog_pids[*]})"
fi
( while true; do
      printf '%s %s\n' "$(date +%s)" "$(cut -d' ' -f1 /proc/loadavg)"
      sleep 5
  done ) > "$work/load.log" &
sampler_pid=$!

say "running: $command  (in $work/lantern; log: $work/run.log)"
start=$(date +%s)
set +e
( cd "$work/lantern" && env PIP_CACHE_DIR="$work/pip-cache" LANTERN_BUILD_CACHE="$work/build-cache" \
      XDG_CACHE_HOME="$work/xdg-cache" XDG_DATA_HOME="$work/xdg-data" bash -c "$command" ) 2>&1 \
    | tee "$work/run.log"
status=${PIPESTATUS[0]}
set -e
elapsed=$(( $(date +%s) - start ))

for pid in "${hog_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
hog_pids=()
kill "$sampler_pid" 2>/dev/null || true
sampler_pid=""
summary="$(python3 - "$work/load.log" <<'EOF'
import statistics, sys
loads = [float(line.split()[1]) for line in open(sys.argv[1]) if len(line.split()) == 2]
if loads:
    print(f"load average (1 min, {len(loads)} samples every 5 s): min {min(loads):.2f}, "
          f"median {statistics.median(loads):.2f}, max {max(loads):.2f}")
else:
    print("load average: no samples")
EOF
)"
tests="$(grep -E '^[0-9]+ (passed|failed)|[0-9]+ passed' "$work/run.log" | tail -1 || true)"
echo
echo "== busy-fresh-clone: $( [ "$status" = 0 ] && echo GREEN || echo "FAILED (exit $status)" ) =="
echo "commit:  $(git -C "$work/lantern" log -1 --format='%h %s' | cut -c1-100)"
echo "command: $command"
echo "hog:     $( [ "$hog" = 1 ] && echo "$(nproc) × yes > /dev/null" || echo none ) on $(nproc) cores"
echo "time:    $((elapsed / 60)) min $((elapsed % 60)) s"
echo "pytest:  ${tests:-(no pytest summary line)}"
echo "$summary"
[ "$keep" = 1 ] && echo "kept:    $work (run.log, load.log)"
exit "$status"
