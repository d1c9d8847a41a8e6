#!/usr/bin/env bash
# Runs the browser tests of `kyphu serve`: Debian's chromium driven by playwright-core.
# Usage: tests/browser/run.sh (after `cargo build`; KYPHU=path picks another binary,
# CHROMIUM=path another browser). Screenshots land in tests/browser/artifacts/.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
    echo "browser tests: skipped: no chromium at ${CHROMIUM:-/usr/bin/chromium} (apt-get install chromium)"
    exit 0
fi
[ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund
exec node --test --test-concurrency=1 page.test.mjs
