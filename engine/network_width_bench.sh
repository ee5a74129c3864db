#!/bin/bash
# Benchmark (not a test): what wider networks with king and output buckets cost per node,
# `bench` nodes/s against `default` (768 -> 256, no buckets) in the same run. The networks
# are made here in about a minute: 200 games of `default` at 2,000 nodes (`tuner datagen`),
# then one epoch of `tuner net` each, 8 king buckets (mirrored files) and 8 output buckets
# at 256, 512 and 1,024 units a side. They are barely trained, so each searches its own
# tree: the ratio is the network's cost, not its strength.
#   bash engine/network_width_bench.sh [RUNS] [DEPTH]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
depth="${2:-11}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
bazel build //tuner:tuner >/dev/null 2>&1
cat >"$work/datagen.textproto" <<CONFIG
player { name: "default" config_file: "$PWD/configs/engines/default.textproto" }
games: 200
soft_nodes: 2000
hard_nodes: 20000
random_plies: 8
seed: 5
filters { max_opening_score_cp: 1000 }
CONFIG
bazel-bin/tuner/tuner datagen "$work/datagen.textproto" --output_dir="$work/data" >/dev/null
# Kings on the first rank by file pair, on the second by halves, then one bucket for ranks
# 3-4 and one for 5-8: the same on files a-d and h-e.
buckets="0, 1, 2, 3, 3, 2, 1, 0, 4, 4, 5, 5, 5, 5, 4, 4$(printf ', 6%.0s' {1..16})$(printf ', 7%.0s' {1..32})"
configs=(configs/engines/default.textproto)
for hidden in 256 512 1024; do
  cat >"$work/net$hidden.textproto" <<CONFIG
layout: PERSPECTIVE
whole_evaluation: true
hidden_size: $hidden
epochs: 1
mirror_files: true
king_buckets: [$buckets]
output_buckets: 8
CONFIG
  bazel-bin/tuner/tuner net --data="$work/data/data.bin" \
    --start=configs/engines/default.textproto --out="$work/wide$hidden.textproto" \
    --settings="$work/net$hidden.textproto" >/dev/null 2>&1
  configs+=("$work/wide$hidden.textproto")
done
bash engine/network_bench.sh "$runs" "$depth" "${configs[@]}" | grep mean |
  sed -e "s|$work/wide\([0-9]*\).textproto|768x8 -> \1, 8 output buckets|"
