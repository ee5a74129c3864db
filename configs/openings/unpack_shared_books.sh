#!/bin/bash
# Unpacks the public opening books of ../shared/books (zipped, as published) into
# /tmp/books (or the directory given), where the match and tuning configs that play
# from them read them: 2moves_v1.epd, 8moves_v3.pgn, 8mvs_+90_+99.epd. The books stay
# outside the repository, as their README asks. A book already unpacked is left as it
# is. Where ../shared/books is absent it says so and exits 0, and those configs then
# fail to load with "openings.file: cannot read /tmp/books/...".
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
books="$repo/../shared/books"
dest="${1:-/tmp/books}"
if [[ ! -d "$books" ]]; then
  echo "unpack_shared_books: $books is absent; nothing unpacked" >&2
  exit 0
fi
mkdir -p "$dest"
for zip in "$books"/*.zip; do
  book="$(basename "$zip" .zip)"
  [[ -e "$dest/$book" ]] && continue
  # Through a temporary file, so that an interrupted run leaves no half a book.
  unzip -p "$zip" "$book" > "$dest/$book.tmp"
  mv "$dest/$book.tmp" "$dest/$book"
  echo "unpack_shared_books: $dest/$book" >&2
done
