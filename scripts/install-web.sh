#!/usr/bin/env bash
# Installs, from the npm registry at the versions report/web/package-lock.json pins, what the HTML
# report inlines (uPlot, for the interactive roofline) and what its browser test drives
# (puppeteer-core), into build/web/node_modules. Node.js and npm come from Debian when no node is
# installed. Idempotent: nothing is fetched when the installed tree matches the lock.
#   install-web.sh [--run | --print-dir]
# --run: only what the report inlines (uPlot), for scripts/run.sh; without it, the browser test's
# puppeteer-core too.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir="$root/build/web"
if [[ ${1:-} == --print-dir ]]; then echo "$dir"; exit 0; fi
omit=()
mode=all
if [[ ${1:-} == --run ]]; then omit=(--omit=dev); mode=run; fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "install-web: need root or sudo to install nodejs and npm" >&2; exit 1; }
    sudo=sudo
  fi
  echo "install-web: installing nodejs npm" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi

mkdir -p "$dir"
# The lock decides: an install of this lock is kept, a full one serving --run too.
marker="$dir/node_modules/.larm-lock.json"
if cmp -s "$root/report/web/package-lock.json" "$marker" &&
  [[ -f $dir/node_modules/uplot/dist/uPlot.iife.min.js ]] &&
  { [[ $mode == run ]] || [[ -d $dir/node_modules/puppeteer-core ]]; }; then
  exit 0
fi
cp "$root/report/web/package.json" "$root/report/web/package-lock.json" "$dir/"
# --ignore-scripts: no package's install script runs (puppeteer-core downloads no browser; the
# test drives Debian's chromium).
(cd "$dir" && timeout 600 npm ci "${omit[@]}" --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
cp "$root/report/web/package-lock.json" "$marker"
