"""Where to publish, read from the workflow's event (pure).

- pull_request (same repository), pull_request_target: PR and head commit from the payload;
- pull_request from a fork: the same, but the token is read-only, so publishing degrades;
- issue_comment on a pull request: PR from the payload, head commit and base looked up via API;
- workflow_run (the fork recipe): head commit from the payload; the PR from the payload's
  `pull_requests`, or (a fork's, which GitHub leaves out there) the open PR whose head is the
  payload's `head_repository` owner and `head_branch` at that commit, looked up through the API.
  Never from an artifact: what the evaluated workflow wrote is the fork's to choose;
- push, workflow_dispatch, schedule: `GITHUB_SHA`, and a PR only when given as input.

The `pull_request` and `commit` inputs override what the event says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Target:
    repository: str  # owner/name
    head_sha: str  # the commit check runs attach to ("" = look it up from the pull request)
    pull_request: int | None
    base_ref: str | None  # the branch whose scores are the baseline ("" = look it up)
    read_only_reason: str | None = None  # why the token cannot write, when known up front
    head_label: str | None = None  # `owner:branch`: find the PR whose head it is (at head_sha)

    @property
    def needs_lookup(self) -> bool:
        return self.pull_request is not None and (not self.head_sha or self.base_ref == "")


def target_from_event(
    event_name: str,
    payload: Mapping[str, Any],
    repository: str,
    sha: str,
    *,
    pull_request: int | None = None,
    commit: str | None = None,
) -> Target:
    """The publishing target for `event_name` with `payload`; inputs override the event."""
    target = _from_payload(event_name, payload, repository, sha)
    if pull_request is not None:
        same = pull_request == target.pull_request
        target = replace(
            target,
            pull_request=pull_request,
            head_label=None,
            head_sha=target.head_sha if same else "",
            base_ref=target.base_ref if same else "",
        )
    if commit:
        target = replace(target, head_sha=commit)
    return target


def _from_payload(event_name: str, payload: Mapping[str, Any], repository: str, sha: str) -> Target:
    if event_name in ("pull_request", "pull_request_target") and "pull_request" in payload:
        pull = payload["pull_request"]
        head_repo = (pull.get("head", {}).get("repo") or {}).get("full_name", "")
        base_repo = (pull.get("base", {}).get("repo") or {}).get("full_name", repository)
        fork = head_repo != base_repo
        reason = None
        if fork and event_name == "pull_request":
            reason = (
                "this pull request comes from a fork, so the workflow's token is read-only; "
                "use the two-workflow `workflow_run` recipe to publish comments and check runs"
            )
        return Target(
            repository=repository,
            head_sha=pull.get("head", {}).get("sha", sha),
            pull_request=int(pull["number"]),
            base_ref=pull.get("base", {}).get("ref"),
            read_only_reason=reason,
        )
    if event_name == "issue_comment" and payload.get("issue", {}).get("pull_request"):
        return Target(repository, "", int(payload["issue"]["number"]), "")
    if event_name == "workflow_run" and "workflow_run" in payload:
        run = payload["workflow_run"]
        pulls = run.get("pull_requests") or []
        if pulls:
            return Target(
                repository,
                run.get("head_sha", sha),
                int(pulls[0]["number"]),
                pulls[0].get("base", {}).get("ref", ""),
            )
        owner = ((run.get("head_repository") or {}).get("owner") or {}).get("login")
        branch = run.get("head_branch")
        label = (
            f"{owner}:{branch}" if owner and branch and run.get("event") == "pull_request" else None
        )
        return Target(repository, run.get("head_sha", sha), None, None, head_label=label)
    return Target(repository, sha, None, None)
