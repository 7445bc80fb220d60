from __future__ import annotations

from specsnap.publish.target import Target, target_from_event

HEAD, MERGE = "a" * 40, "m" * 40


def pull_request_event(head_repo: str = "octo/agent") -> dict:
    return {
        "pull_request": {
            "number": 12,
            "head": {"sha": HEAD, "repo": {"full_name": head_repo}},
            "base": {"ref": "main", "repo": {"full_name": "octo/agent"}},
        }
    }


def test_a_pull_request_publishes_to_its_head_commit() -> None:
    target = target_from_event("pull_request", pull_request_event(), "octo/agent", MERGE)
    assert target == Target("octo/agent", HEAD, 12, "main", None)


def test_a_fork_pull_request_is_known_read_only_up_front() -> None:
    target = target_from_event(
        "pull_request", pull_request_event("fork/agent"), "octo/agent", MERGE
    )
    assert target.read_only_reason is not None and "workflow_run" in target.read_only_reason


def test_pull_request_target_may_write_even_for_forks() -> None:
    event = pull_request_event("fork/agent")
    assert (
        target_from_event("pull_request_target", event, "octo/agent", MERGE).read_only_reason
        is None
    )


def test_an_issue_comment_needs_the_head_commit_looked_up() -> None:
    event = {"issue": {"number": 3, "pull_request": {"url": "x"}}}
    target = target_from_event("issue_comment", event, "octo/agent", MERGE)
    assert target.pull_request == 3 and target.needs_lookup


def test_workflow_run_of_a_fork_takes_the_pull_request_from_input() -> None:
    event = {"workflow_run": {"head_sha": HEAD, "pull_requests": []}}
    plain = target_from_event("workflow_run", event, "octo/agent", MERGE)
    assert plain == Target("octo/agent", HEAD, None, None)
    given = target_from_event(
        "workflow_run", event, "octo/agent", MERGE, pull_request=12, commit=HEAD
    )
    assert (given.pull_request, given.head_sha, given.base_ref) == (12, HEAD, "")
    assert given.needs_lookup  # the base branch comes from the API


def test_a_push_publishes_a_check_run_only() -> None:
    target = target_from_event("push", {"after": HEAD}, "octo/agent", HEAD)
    assert target == Target("octo/agent", HEAD, None, None)
    assert not target.needs_lookup


def test_a_forks_workflow_run_names_its_head_not_an_artifacts_number() -> None:
    from specsnap.publish.target import target_from_event

    run = {
        "event": "pull_request",
        "head_sha": "e" * 40,
        "head_branch": "fork-feature",
        "head_repository": {"owner": {"login": "fork"}},
        "pull_requests": [],
    }
    target = target_from_event("workflow_run", {"workflow_run": run}, "octo/agent", "9" * 40)
    assert target.pull_request is None and target.head_label == "fork:fork-feature"
    assert target.head_sha == "e" * 40
