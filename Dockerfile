# SpecSnap's GitHub Action: a Docker container action (Linux runners).
#
# GitHub builds this file as it is (no build arguments), so BASE_IMAGE defaults to a public Debian
# image. Where no container registry is reachable, build a local equivalent with
# scripts/build-base-image.sh and pass --build-arg BASE_IMAGE=specsnap-base:bookworm.
ARG BASE_IMAGE=debian:bookworm-slim
FROM ${BASE_IMAGE}

SHELL ["/bin/bash", "-o", "pipefail", "-c"]
ENV DEBIAN_FRONTEND=noninteractive \
    LANG=C.UTF-8 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Python runs SpecSnap and the tiers' tests, git holds the sandbox, Node.js/npm install agent CLIs.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      ca-certificates git nodejs npm procps python3 python3-venv \
 && rm -rf /var/lib/apt/lists/*

# Agent sessions (the agent pool) and the grader's test runs (specsnap) execute as unprivileged
# system accounts (SpecSnap switches to them when it runs as root, as it does here). Their uids
# differ from the runner's (1001), so they own nothing in the workspace they were not given.
COPY scripts/setup-accounts.sh /opt/specsnap/setup-accounts.sh
RUN SPECSNAP_FIRST_UID=61000 bash /opt/specsnap/setup-accounts.sh

WORKDIR /opt/specsnap
COPY pyproject.toml README.md* ./src/
COPY specsnap ./src/specsnap
RUN python3 -m venv /opt/specsnap/venv \
 && /opt/specsnap/venv/bin/pip install --no-compile ./src \
 && rm -rf ./src

# Tiers are root-only: the agent may read neither hidden tests (grader/), reference solutions
# (solution*/) nor a tier's later amendments (tier.yaml). SpecSnap itself runs as root.
COPY tiers ./tiers
RUN chown -R root:root ./tiers \
 && chmod -R go-rwx ./tiers \
 && chmod 0711 ./tiers

COPY entrypoint ./entrypoint

ENV SPECSNAP_TIERS_DIR=/opt/specsnap/tiers \
    PATH=/opt/specsnap/venv/bin:${PATH}
ENTRYPOINT ["/opt/specsnap/venv/bin/python", "/opt/specsnap/entrypoint/__main__.py"]
