# Set-up shared by bench.sh and instr.sh, sourced from the repository's root with
# $work set to a scratch folder.

# kyphu in release mode ($kyphu); pgn-reader+shakmaty's harness from
# ../shared/tools/anchorbench ($anchor, empty when it cannot be built: a comparison
# point only, never a dependency); pgn-extract on PATH (Debian's, installed when
# missing). A tool that cannot be had is a note, and its rows are skipped.
bench_tools() {
  cargo build --release --quiet || exit 2
  kyphu=./target/release/kyphu
  anchor=""
  if [ -d ../shared/tools/anchorbench ]; then
    cp -r ../shared/tools/anchorbench "$work/anchorbench" && chmod -R u+w "$work/anchorbench"
    if (cd "$work/anchorbench" && cargo build --release --quiet 2> /dev/null); then
      anchor="$work/anchorbench/target/release/anchorbench"
    else
      echo "note: anchorbench did not build; skipped" >&2
    fi
  fi
  # Debian installs pgn-extract in /usr/games, which is not always on PATH.
  export PATH="$PATH:/usr/games"
  command -v pgn-extract > /dev/null || { apt-get install -y -qq pgn-extract > /dev/null 2>&1 || true; }
  command -v pgn-extract > /dev/null || echo "note: pgn-extract not found; skipped" >&2
}

# The games of $1 with other piece letters, converted once by kyphu (not measured):
# $work/bench-vi.pgn, -zh, -fa and -figurine.
bench_letters() {
  for l in vi zh fa; do
    $kyphu convert --quiet --threads 2 --out-lang $l -o "$work/bench-$l.pgn" "$1" 2> /dev/null
  done
  $kyphu convert --quiet --threads 2 --out-notation figurine -o "$work/bench-figurine.pgn" "$1" 2> /dev/null
}
