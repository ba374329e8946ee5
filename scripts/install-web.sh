#!/usr/bin/env bash
# Installs, from the npm registry at the versions report/web/package-lock.json pins, what the HTML
# report inlines (uPlot, for the interactive roofline) and what its browser test drives
# (puppeteer-core), into build/web/node_modules. Node.js and npm come from Debian when no node is
# installed. Idempotent: nothing is fetched when the installed tree matches the lock.
#   install-web.sh [--run | --print-dir]
# --run: only what the report inlines (uPlot), for scripts/run.sh; without npm on the machine, its
# tarball is fetched from the registry and checked against the lock's sha512 (what `npm ci` checks),
# so that a run needs neither Node.js nor npm (Debian's npm is some 400 packages). Without
# --run, the browser test's puppeteer-core too, with npm.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir="$root/build/web"
if [[ ${1:-} == --print-dir ]]; then echo "$dir"; exit 0; fi
omit=()
mode=all
if [[ ${1:-} == --run ]]; then omit=(--omit=dev); mode=run; fi

lock="$root/report/web/package-lock.json"
marker="$dir/node_modules/.larm-lock.json"
if [[ $mode == run ]] && ! command -v npm >/dev/null; then
  if cmp -s "$lock" "$marker" && [[ -f $dir/node_modules/uplot/dist/uPlot.iife.min.js ]]; then exit 0; fi
  version=$(grep -A3 '"node_modules/uplot"' "$lock" | sed -n 's/.*"version": "\([^"]*\)".*/\1/p')
  integrity=$(grep -A3 '"node_modules/uplot"' "$lock" | sed -n 's/.*"integrity": "sha512-\([^"]*\)".*/\1/p')
  [[ -n $version && -n $integrity ]] || { echo "install-web: no uplot in $lock" >&2; exit 1; }
  command -v curl >/dev/null || "$root/scripts/install-deps.sh" --packages curl ca-certificates
  tgz=$(mktemp)
  trap 'rm -f "$tgz"' EXIT
  curl -fsSL --max-time 120 "https://registry.npmjs.org/uplot/-/uplot-$version.tgz" -o "$tgz"
  expected=$(printf '%s' "$integrity" | base64 -d | od -An -v -tx1 | tr -d ' \n')
  actual=$(sha512sum "$tgz" | cut -d' ' -f1)
  [[ $expected == "$actual" ]] ||
    { echo "install-web: uplot-$version.tgz does not match the sha512 of $lock" >&2; exit 1; }
  rm -rf "$dir/node_modules/uplot"
  mkdir -p "$dir/node_modules/uplot"
  tar -xzf "$tgz" -C "$dir/node_modules/uplot" --strip-components=1
  cp "$lock" "$marker"
  exit 0
fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  "$root/scripts/install-deps.sh" --packages nodejs npm
fi

mkdir -p "$dir"
# The lock decides: an install of this lock is kept, a full one serving --run too.
if cmp -s "$lock" "$marker" &&
  [[ -f $dir/node_modules/uplot/dist/uPlot.iife.min.js ]] &&
  { [[ $mode == run ]] || [[ -d $dir/node_modules/puppeteer-core ]]; }; then
  exit 0
fi
cp "$root/report/web/package.json" "$root/report/web/package-lock.json" "$dir/"
# --ignore-scripts: no package's install script runs (puppeteer-core downloads no browser; the
# test drives Debian's chromium).
(cd "$dir" && timeout 600 npm ci "${omit[@]}" --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
cp "$root/report/web/package-lock.json" "$marker"
