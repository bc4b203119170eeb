"""The Pi service files (deploy/): the install command lays out the unit, the udev rule, the settings and a
fresh arbiter token (kept on a second install); the service's start resumes the newest unfinished game and
starts a new one after a finished game."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

from rig.web.config import load_web_config

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEPLOY = os.path.join(ROOT, "deploy")


def install(dest) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", os.path.join(DEPLOY, "install-pi.sh"), "--no-start"], capture_output=True,
                          text=True, env={**os.environ, "DESTDIR": str(dest)}, timeout=60)


def test_install_lays_out_the_service(tmp_path):
    r = install(tmp_path)
    assert r.returncode == 0, r.stderr
    unit = (tmp_path / "etc/systemd/system/rig-board.service").read_text()
    for line in ("Restart=on-failure", "RestartPreventExitStatus=2", "ExecStart=/opt/damas-rig/bin/rig-board",
                 "StandardOutput=journal", "EnvironmentFile=/etc/rig/rig-board.env", "WantedBy=multi-user.target",
                 "KillSignal=SIGTERM"):
        assert line in unit.splitlines(), line
    start = tmp_path / "opt/damas-rig/bin/rig-board"
    assert start.stat().st_mode & stat.S_IXUSR
    rules = [ln for ln in (tmp_path / "etc/udev/rules.d/99-rig-clock.rules").read_text().splitlines()
             if ln and not ln.startswith("#")]
    assert rules and all('SUBSYSTEM=="tty"' in ln and 'SYMLINK+="rig-clock"' in ln for ln in rules)
    assert any('ATTRS{idVendor}=="0403", ATTRS{idProduct}=="6001"' in ln for ln in rules)
    env = (tmp_path / "etc/rig/rig-board.env").read_text()
    assert "--clock-port /dev/rig-clock" in env and "RIG_LISTEN=0.0.0.0:8080" in env
    web = tmp_path / "etc/rig/web.toml"
    token = load_web_config(str(web)).arbiter_token
    assert token and len(token) >= 24 and oct(web.stat().st_mode & 0o777) == "0o640"
    assert (tmp_path / "var/lib/rig/games").is_dir()
    # a second install (an update) keeps the organiser's settings and the token
    (tmp_path / "etc/rig/rig-board.env").write_text("RIG_LISTEN=0.0.0.0:9000\n")
    assert install(tmp_path).returncode == 0
    assert load_web_config(str(web)).arbiter_token == token
    assert (tmp_path / "etc/rig/rig-board.env").read_text() == "RIG_LISTEN=0.0.0.0:9000\n"
    assert subprocess.run(["sh", os.path.join(DEPLOY, "install-pi.sh"), "--bogus"], capture_output=True,
                          env={**os.environ, "DESTDIR": str(tmp_path)}).returncode == 2


def start(tmp_path, games) -> list[str]:
    """Run deploy/rig-board with a stand-in rig that prints its arguments, one a line."""
    fake = tmp_path / "fake-rig"
    fake.write_text('#!/bin/sh\nfor a in "$@"; do echo "$a"; done\n')
    fake.chmod(0o755)
    tags = tmp_path / "tags.txt"
    tags.write_text("# the round\nEvent=Open 2026\nWhite=Ana Lima\n\nBlack=Rui Costa\n")
    env = {**os.environ, "RIG_BIN": str(fake), "RIG_PYTHON": sys.executable, "RIG_GAMES": str(games),
           "RIG_LISTEN": "0.0.0.0:8080", "RIG_WEB_CONFIG": "/etc/rig/web.toml", "RIG_TAGS": str(tags),
           "RIG_CONFIG": str(tmp_path / "absent.toml"),
           "RIG_CLOCK": "--clock-port /dev/rig-clock --clock-protocol line"}
    r = subprocess.run(["sh", os.path.join(DEPLOY, "rig-board")], capture_output=True, text=True, env=env, timeout=30)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def game(games, name: str, result: str | None, mtime: float) -> str:
    path = games / f"game-{name}.jsonl"
    path.write_text("{}\n")
    os.utime(path, (mtime, mtime))
    if result is not None:
        (games / f"game-{name}.report.json").write_text(json.dumps({"result": result}))
    return str(path)


def test_service_start_resumes_the_unfinished_game(tmp_path):
    games = tmp_path / "games"
    args = start(tmp_path, games)
    assert args[:4] == ["run", "--plain", "--out", f"{games}/"]
    assert args[4:] == ["--listen", "0.0.0.0:8080", "--web-config", "/etc/rig/web.toml",
                        "--tag", "Event=Open 2026", "--tag", "White=Ana Lima", "--tag", "Black=Rui Costa",
                        "--clock-port", "/dev/rig-clock", "--clock-protocol", "line"]
    game(games, "20261126-090000", "1-0", 1000)
    assert start(tmp_path, games)[2:4] == ["--out", f"{games}/"]
    latest = game(games, "20261126-110000", "*", 2000)
    args = start(tmp_path, games)
    assert args[2:4] == ["--resume", latest] and "--tag" not in args
    crashed = game(games, "20261126-130000", None, 3000)        # killed before the first record
    assert start(tmp_path, games)[2:4] == ["--resume", crashed]
