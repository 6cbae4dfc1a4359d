"""`pip install ARGS` into this interpreter's venv, done by uv when it can: the same versions from the indexes, links
and constraints pip is configured with, in about 20 s where pip took about 140 s on this 2-core machine (measured
2026-11-30: 187 packages, the same `pip freeze`). Anything that goes wrong with uv (no uv wheel, no network, a
resolution error) falls back to pip with the same arguments, so the result never depends on uv being there.

Usage (the Makefile's venv step): `.venv/bin/python scripts/pip_install.py -e ".[dev]"`. Standard library only.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

UV = "uv==0.13.9"
PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check"]

# pip's configuration keys and the uv option each becomes (one option per listed value)
OPTIONS = {"index-url": "--index-url", "extra-index-url": "--extra-index-url", "find-links": "--find-links",
           "constraint": "--constraint"}


def pip_config() -> dict[str, list[str]]:
    """pip's settings that choose where packages come from: its files, then its PIP_* variables, which win."""
    run = subprocess.run([*PIP, "config", "list"], capture_output=True, text=True, check=False)
    found: dict[str, list[str]] = {}
    lines = run.stdout.splitlines()
    for line in [*(x for x in lines if not x.startswith(":env:")), *(x for x in lines if x.startswith(":env:"))]:
        key, _, value = line.partition("=")  # global.extra-index-url='file:///a file:///b'
        name = key.rsplit(".", 1)[-1]
        if name in (*OPTIONS, "cert") and value:
            found[name] = " ".join(shlex.split(value)).split()
    return found


def uv_command(args: list[str], config: dict[str, list[str]]) -> list[str]:
    """`uv pip install` with pip's sources; like pip, the best version across every index (not the first index's),
    and bytecode compiled as pip compiles it."""
    cmd = [str(Path(sys.executable).parent / "uv"), "pip", "install", "--python", sys.executable, "--compile-bytecode",
           "--index-strategy", "unsafe-best-match"]
    for name, option in OPTIONS.items():
        for value in config.get(name, []):
            cmd += [option, value]
    return [*cmd, *args]


def main(args: list[str]) -> int:
    config = pip_config()
    env = dict(os.environ)
    if config.get("cert"):
        env.setdefault("SSL_CERT_FILE", config["cert"][0])
    try:
        subprocess.run([*PIP, "install", "-q", UV], check=True, timeout=300)
        subprocess.run(uv_command(["-q", *args], config), check=True, env=env, timeout=900)
        return 0
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"uv could not install ({exc}); installing with pip", file=sys.stderr)
    return subprocess.run([*PIP, "install", "-q", *args], check=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
