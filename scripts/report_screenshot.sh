#!/usr/bin/env bash
# The report's first screen as a user opens it: headless Chromium at 1280 x 800, the top of the
# page, through tests/report_browser.cjs (which also checks that the summary is on that screen).
#   scripts/report_screenshot.sh REPORT_HTML OUT_PNG
# docs/images/report-first-screen.png is made this way from a quick characterization of the
# development machine with a counted triad placed on it.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
(($# == 2)) || { echo "usage: scripts/report_screenshot.sh REPORT_HTML OUT_PNG" >&2; exit 2; }
[[ -f $1 ]] || { echo "report_screenshot.sh: no report at $1" >&2; exit 2; }
chromium=$(command -v chromium || command -v chromium-browser || true)
[[ -n $chromium ]] || { echo "report_screenshot.sh: chromium not found (scripts/install-deps.sh test)" >&2; exit 2; }
modules="$root/build/web/node_modules"
[[ -d $modules/puppeteer-core ]] || "$root/scripts/install-web.sh"
page=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
NODE_PATH="$modules" timeout 180 node "$root/tests/report_browser.cjs" "$page" "$chromium" \
  "$scratch/interactive.png" "$2"
