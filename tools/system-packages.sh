#!/usr/bin/env bash
# The Debian packages renders and offline speech need: ffmpeg (5.1+), espeak-ng and the fonts of
# text layers. Run before `npm start`, `npm run worker` (npm's pre-scripts) and by .ci/run: it
# installs what is missing when it runs as root on Debian, and otherwise prints the command to run.
# Quick when everything is there (one dpkg-query). docs/install.md.
set -euo pipefail

PACKAGES=(ffmpeg espeak-ng fonts-noto-core fonts-noto-cjk fonts-inter fonts-liberation2 fonts-dejavu-core)

if ! command -v dpkg-query >/dev/null 2>&1; then
  command -v ffmpeg >/dev/null 2>&1 || echo "Cutroom needs ffmpeg 5.1 or later, espeak-ng and the fonts ${PACKAGES[*]:2} (not a Debian system: install them with your package manager)." >&2
  exit 0
fi

missing=()
for package in "${PACKAGES[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)"
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ "$(id -u)" -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian packages: ${missing[*]} (about a minute)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "Cutroom needs these Debian packages: ${missing[*]}. Install them with: sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
fi
