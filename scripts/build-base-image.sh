#!/usr/bin/env bash
# Build SpecSnap's Docker base image locally, without any container registry.
#
# The action's Dockerfile builds FROM `debian:bookworm-slim` (pinned by digest) and installs
# everything it needs on top. Where no container registry is reachable, this script makes an
# equivalent image, a minimal Debian bookworm, with debootstrap from the Debian mirror the host's
# apt already uses, and imports it into the local Docker engine; the Dockerfile then installs the
# same packages on it as on the real base, so a build from it is a build from a cold cache.
#
# Usage: scripts/build-base-image.sh [IMAGE_TAG]       (default: specsnap-base:bookworm-slim)
# Env:   DEBIAN_MIRROR  mirror URL (default: the first `URIs:`/`deb` entry of the host's apt sources)
#        BASE_ROOTFS    work directory for the root filesystem (default: build/base-rootfs)
# Needs: root, debootstrap, docker (a running engine).
set -euo pipefail

tag="${1:-specsnap-base:bookworm-slim}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rootfs="${BASE_ROOTFS:-$here/build/base-rootfs}"
# Only what debian:bookworm-slim has, plus CA certificates so that the host's extra authorities
# (below) can be added; the Dockerfile installs Python, git and the rest.
bootstrap="ca-certificates"

fail() { echo "build-base-image: $*" >&2; exit 3; }

[ "$(id -u)" = 0 ] || fail "must run as root (debootstrap creates device nodes and chowns files)"
command -v debootstrap >/dev/null || fail "debootstrap is missing: apt-get install -y debootstrap"
docker info >/dev/null 2>&1 || fail "no Docker engine answers on the default socket: start dockerd first"

host_mirror() {
  # Deb822 sources first (bookworm's default layout), then the classic one-line format.
  local uri
  uri="$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | grep -v security | head -n1 | awk '{print $2}')"
  if [ -z "$uri" ]; then
    uri="$(grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
      | grep -v security | head -n1 | awk '{print $2}')"
  fi
  printf '%s' "$uri"
}

mirror="${DEBIAN_MIRROR:-$(host_mirror)}"
[ -n "$mirror" ] || fail "no Debian mirror found in the host's apt sources; set DEBIAN_MIRROR"

start=$(date +%s)
rm -rf "$rootfs"
mkdir -p "$rootfs"
echo "build-base-image: debootstrap bookworm from $mirror into $rootfs"
debootstrap --variant=minbase --include="$bootstrap" bookworm "$rootfs" "$mirror" >"$rootfs.log" 2>&1 \
  || { tail -n 30 "$rootfs.log" >&2; fail "debootstrap failed (full log: $rootfs.log)"; }

# Trust the certificate authorities the host trusts beyond Debian's (a TLS-inspecting proxy on a
# build network, say), so pip and npm inside the image reach their registries as the host does.
env_changes=()
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  echo "build-base-image: adding the host's extra CA certificates"
  cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
  chroot "$rootfs" update-ca-certificates >>"$rootfs.log" 2>&1
  bundle=/etc/ssl/certs/ca-certificates.crt
  env_changes=(--change "ENV PIP_CERT=$bundle" --change "ENV REQUESTS_CA_BUNDLE=$bundle"
               --change "ENV NODE_EXTRA_CA_CERTS=$bundle")
fi

# Keep the image small and its apt lists out of the layer; the Dockerfile refreshes them.
chroot "$rootfs" apt-get clean
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/tmp/*
: >"$rootfs/etc/resolv.conf"

echo "build-base-image: importing as $tag"
tar --numeric-owner -C "$rootfs" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'CMD ["/bin/bash"]' \
  "${env_changes[@]}" \
  - "$tag" >/dev/null
rm -rf "$rootfs"

echo "build-base-image: $tag built in $(( $(date +%s) - start ))s"
