from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from specsnap.bot.__main__ import config_from_env, main, open_replay_guard


def test_every_missing_setting_is_named_at_once() -> None:
    with pytest.raises(click.UsageError) as caught:
        config_from_env({"SPECSNAP_APP_ID": "12"})
    assert "SPECSNAP_APP_PRIVATE_KEY_FILE, SPECSNAP_WEBHOOK_SECRET" in str(caught.value)


def test_the_app_id_must_be_numeric(tmp_path: Path) -> None:
    env = {
        "SPECSNAP_APP_ID": "my-app",
        "SPECSNAP_APP_PRIVATE_KEY_FILE": "k",
        "SPECSNAP_WEBHOOK_SECRET": "s",
    }
    with pytest.raises(click.UsageError, match="numeric"):
        config_from_env(env)


def test_a_complete_configuration(tmp_path: Path) -> None:
    key = tmp_path / "app.pem"
    key.write_text("-----BEGIN PRIVATE KEY-----\n...\n")
    config = config_from_env(
        {
            "SPECSNAP_APP_ID": "12",
            "SPECSNAP_APP_PRIVATE_KEY_FILE": str(key),
            "SPECSNAP_WEBHOOK_SECRET": "s3cret",
            "GITHUB_API_URL": "https://ghe.example/api/v3",
        }
    )
    assert (config.app_id, config.webhook_secret, config.api_url) == (
        12,
        b"s3cret",
        "https://ghe.example/api/v3",
    )
    assert config.private_key.startswith("-----BEGIN") and config.workflow == "specsnap.yml"


def test_an_unreadable_key_file_is_named(tmp_path: Path) -> None:
    env = {
        "SPECSNAP_APP_ID": "12",
        "SPECSNAP_APP_PRIVATE_KEY_FILE": str(tmp_path / "missing.pem"),
        "SPECSNAP_WEBHOOK_SECRET": "s",
    }
    with pytest.raises(click.UsageError, match=r"missing\.pem"):
        config_from_env(env)


def test_the_manifest_asks_for_what_the_bot_uses_and_no_more() -> None:
    args = ["manifest", "--homepage", "https://github.example/octo/agent"]
    done = CliRunner().invoke(main, [*args, "--webhook-url", "https://bot.example/hook"])
    assert done.exit_code == 0, done.output
    manifest = json.loads(done.output)
    assert manifest["hook_attributes"] == {"url": "https://bot.example/hook", "active": True}
    assert manifest["default_events"] == ["issue_comment", "pull_request"]
    assert manifest["default_permissions"] == {
        "actions": "write",
        "issues": "write",
        "metadata": "read",
        "pull_requests": "write",
    }
    assert manifest["public"] is False


def test_the_data_directory_is_created_and_a_unwritable_one_named(tmp_path: Path) -> None:
    guard = open_replay_guard(tmp_path / "new" / "data")
    assert guard.path == tmp_path / "new" / "data" / "deliveries.sqlite3" and guard.path.exists()
    occupied = tmp_path / "a-file"
    occupied.write_text("")
    with pytest.raises(click.UsageError, match=r"a-file.*--data-dir \(or SPECSNAP_BOT_DATA_DIR\)"):
        open_replay_guard(occupied)


def test_serve_reads_the_data_directory_from_the_environment(tmp_path: Path) -> None:
    occupied = tmp_path / "a-file"
    occupied.write_text("")
    key = tmp_path / "app.pem"
    key.write_text("-----BEGIN PRIVATE KEY-----\n...\n")
    env = {
        "SPECSNAP_APP_ID": "12",
        "SPECSNAP_APP_PRIVATE_KEY_FILE": str(key),
        "SPECSNAP_WEBHOOK_SECRET": "s",
        "SPECSNAP_BOT_DATA_DIR": str(occupied),
    }
    done = CliRunner().invoke(main, ["serve", "--port", "0"], env=env)
    assert done.exit_code == 2 and "'--data-dir'" in done.output and "a-file" in done.output
