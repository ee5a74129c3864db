#!/usr/bin/env bash
# Builds every libFuzzer target with ASan and UBSan (bazel --config=fuzz, clang) and runs
# each for SECONDS (default 30) from its checked-in seed corpus (copied: new inputs stay in
# a scratch directory, see `--keep` below). Prints executions per second and corpus size per
# target; exits 1 if any target crashed, leaked or tripped a sanitizer (the reproducer is
# kept under out/fuzz/TARGET/ and named in the output).
#   bash tests/fuzz/run.sh [SECONDS] [--keep]   --keep: merge new inputs into the seed corpus
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds=30 keep=0
for arg in "$@"; do
  case "$arg" in
    --keep) keep=1 ;;
    *) seconds="$arg" ;;
  esac
done
targets=(fen_fuzzer uci_fuzzer match_config_fuzzer book_fuzzer log_fuzzer training_data_fuzzer bullet_board_fuzzer
  network_file_fuzzer network_samples_fuzzer
  fastchess_cli_fuzzer syzygy_fuzzer)
labels=()
for t in "${targets[@]}"; do labels+=("//tests/fuzz:$t"); done
bazel build --config=fuzz "${labels[@]}" || exit 2
bin=$(bazel info --config=fuzz bazel-bin 2>/dev/null)
# One target per core at a time: each still fuzzes for SECONDS, the stage takes
# SECONDS x targets / cores.
parallel=$(nproc)
fuzz_one() {  # TARGET: fuzzes it; its table line and exit code go to out/fuzz/TARGET/
  local t=$1 work="out/fuzz/$1" rc runs secs files result
  rm -rf "$work"; mkdir -p "$work/corpus"
  cp tests/fuzz/corpus/$t/* "$work/corpus/"
  # -rss_limit_mb: a parser that grows with a hostile count must fail here.
  ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$bin/tests/fuzz/$t" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 \
      -max_len=8192 -artifact_prefix="$work/" -print_final_stats=1 \
      "$work/corpus" >"$work/log.txt" 2>&1
  rc=$?
  runs=$(grep -oP 'stat::number_of_executed_units: *\K[0-9]+' "$work/log.txt" | tail -1)
  secs=$(grep -oP 'Done [0-9]+ runs in \K[0-9]+' "$work/log.txt" | tail -1)
  files=$(ls "$work/corpus" | wc -l)
  result=ok
  if ((rc != 0)); then
    result="FAILED (exit $rc): $(ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* 2>/dev/null | head -1)"
    grep -m3 -E "ERROR|runtime error|SUMMARY" "$work/log.txt" >"$work/errors.txt"
  fi
  if ((keep)) && ((rc == 0)); then
    "$bin/tests/fuzz/$t" -merge=1 "tests/fuzz/corpus/$t" "$work/corpus" >/dev/null 2>&1
  fi
  printf '%-22s %10s %12s %8s %s\n' "$t" "${runs:-?}" \
    "$(( ${runs:-0} / (${secs:-$seconds} > 0 ? ${secs:-$seconds} : 1) ))" "$files" "$result" \
    >"$work/line.txt"
  echo "$rc" >"$work/rc"
}
for t in "${targets[@]}"; do
  while (( $(jobs -rp | wc -l) >= parallel )); do wait -n; done
  fuzz_one "$t" &
done
wait
failures=0
for t in "${targets[@]}"; do
  [[ "$(cat "out/fuzz/$t/rc" 2>/dev/null)" == 0 ]] || failures=$((failures + 1))
done
printf '%-22s %10s %12s %8s %s\n' target runs exec/s corpus result
for t in "${targets[@]}"; do
  cat "out/fuzz/$t/line.txt"
  [[ -e "out/fuzz/$t/errors.txt" ]] && cat "out/fuzz/$t/errors.txt"
done
((failures == 0)) || { echo "fuzzing: $failures target(s) failed"; exit 1; }
echo "fuzzing: ${#targets[@]} targets, ${seconds}s each, no crash"
