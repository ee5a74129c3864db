#!/usr/bin/env bash
# Benchmark, not a test: games/hour of the same engine played in process and as an external
# UCI process through the arena itself, at 1000 nodes per move with concurrency 1 and 2
# and at 10000 nodes with concurrency 2;
# and the scaling from concurrency 1 to 2. All measured in this run.
#   bazel run //arena:arena_bench [-- GAMES]
set -euo pipefail
ARENA="$PWD/$1"
UCI="$PWD/$2"
GAMES="${3:-200}"
CONFIGS="$PWD/configs"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

player() {  # name kind
  if [[ "$2" == in-process ]]; then
    echo "players { name: \"$1\" config_file: \"$CONFIGS/engines/default.textproto\"
              overrides { search { hash_mb: 1 } } }"
  else
    echo "players { name: \"$1\" external { argv: \"$UCI\" options { key: \"Hash\" value: \"1\" } } }"
  fi
}

# run KIND NODES CONCURRENCY -> prints games/hour
run() {
  local config="$WORK/$1-$2-$3.textproto"
  { player a "$1"; player b "$1"
    echo "games: $GAMES
openings { file: \"$CONFIGS/openings/balanced.epd\" }
time_control { nodes: $2 }
adjudication { max_moves: 150 }
concurrency: $3"; } >"$config"
  local start end
  start=$(date +%s%N)
  "$ARENA" "$config" --output_dir="$WORK/out-$1-$2-$3" --fresh --progress=false >/dev/null
  end=$(date +%s%N)
  echo $(( GAMES * 3600 * 1000000000 / (end - start) ))
}

printf '%-28s %14s\n' "setting ($GAMES games each)" "games/hour"
for setting in "1000 1" "1000 2" "10000 2"; do
  read -r nodes c <<<"$setting"
  inproc=$(run in-process "$nodes" "$c")
  external=$(run external "$nodes" "$c")
  printf '%-28s %14d\n' "in-process nodes=$nodes c=$c" "$inproc"
  printf '%-28s %14d\n' "external   nodes=$nodes c=$c" "$external"
  printf '%-28s %14s\n' "  ratio in-process/external" "$(awk "BEGIN{printf \"%.2fx\", $inproc/$external}")"
done
one=$(run in-process 10000 1)
two=$(run in-process 10000 2)
printf '%-28s %14d\n' "in-process nodes=10000 c=1" "$one"
printf '%-28s %14d\n' "in-process nodes=10000 c=2" "$two"
printf '%-28s %14s\n' "  scaling c=1 -> c=2" "$(awk "BEGIN{printf \"%.2fx\", $two/$one}")"
