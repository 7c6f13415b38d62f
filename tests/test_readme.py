"""The README's examples run, in order, as printed, as a new user would run them.

Fenced blocks tagged ``sh run`` are run with bash (each must succeed),
``python run`` with arena's Python, and a ``toml file=NAME`` block is saved
as NAME first, since the commands after it read it. They run in a fresh
folder holding what a checkout holds (the sample bots, with the C bot
built, and the examples), with the virtual environment's ``arena`` on PATH.
Untagged blocks are not run: installation, a remote cluster, benchmarks of
minutes, and sample output.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from arena.bots.spec import BUILD_CACHES
from tests.system import needs

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks(text: str) -> list[tuple[str, str, str]]:
    """(language, tag, body) of every fenced block, in order."""
    return [(m.group(1), m.group(2).strip(), m.group(3)) for m in FENCE.finditer(text)]


@needs({"go": "Go"}, "the README's examples (one starts a Go bot from its kit) were")
def test_the_readme_runs_as_printed(tmp_path: Path) -> None:
    for folder in ("sample_bots", "examples"):  # as a checkout holds them: no build outputs
        shutil.copytree(
            ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns(*BUILD_CACHES)
        )
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    ran = []
    for language, tag, body in blocks((ROOT / "README.md").read_text(encoding="utf-8")):
        if tag.startswith("file="):
            (tmp_path / tag.removeprefix("file=")).write_text(body, encoding="utf-8")
            continue
        if tag != "run":
            continue
        command = ["bash", "-euo", "pipefail", "-c", body]
        if language == "python":
            command = [sys.executable, "-c", body]
        done = subprocess.run(
            command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False
        )
        assert done.returncode == 0, f"this README block failed:\n{body}\n{done.stderr}"
        assert "Traceback" not in done.stderr, done.stderr
        ran.append(body)
    assert len(ran) >= 7, "the blocks marked to run were found"
    assert (tmp_path / "results/club/report.html").is_file()
    assert (tmp_path / "results/friday-dask/results.sqlite").is_file()
