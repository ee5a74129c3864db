#!/bin/bash
# Runs the perft binary on the project's suite; it exits non-zero on any differing count.
set -eu
perft="$1"
suite="$2"
"$perft" --epd="$suite"
