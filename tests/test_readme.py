"""The README's and the documentation's examples run, in order, as printed, as a new user would.

The pages are the README and then every page of the site's ``nav`` (mkdocs.yml), in that
order: a page's commands may use what an earlier page's made (the tournaments page's
``friday.toml`` and ``results/club``, for the report and the Dask pages).
Fenced blocks tagged ``sh run`` are run with bash (each must succeed),
``python run`` with arena's Python, and a ``toml file=NAME`` block is saved
as NAME first, since the commands after it read it. They run in one fresh
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

import yaml  # type: ignore[import-untyped, unused-ignore]

from arena.bots.spec import BUILD_CACHES
from tests.system import E2E, needs

pytestmark = E2E

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
# The site's pages that live outside docs/ (docs/hooks.py adds them): page -> file.
OUTSIDE = {"index.md": "README.md", "benchmarks.md": "benchmarks/README.md"}


def blocks(text: str) -> list[tuple[str, str, str]]:
    """(language, tag, body) of every fenced block, in order."""
    return [(m.group(1), m.group(2).strip(), m.group(3)) for m in FENCE.finditer(text)]


def nav_pages(nav: object) -> list[str]:
    """The pages of a ``nav`` (entries ``Title: page.md``, bare ``page.md`` or sections)."""
    if isinstance(nav, str):
        return [] if "://" in nav else [nav]
    if isinstance(nav, list):
        return [page for entry in nav for page in nav_pages(entry)]
    if isinstance(nav, dict):
        return [page for entry in nav.values() for page in nav_pages(entry)]
    raise TypeError(f"mkdocs.yml: a nav entry that is not a page or a section: {nav!r}")


def pages() -> list[Path]:
    """The README, then every page of the documentation, in the site's order."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    return [ROOT / OUTSIDE.get(page, f"docs/{page}") for page in nav_pages(config["nav"])]


def test_the_readme_comes_first_and_every_page_is_there() -> None:
    found = pages()
    assert found[0] == ROOT / "README.md", "the README is the site's first page (index.md)"
    assert [page for page in found if not page.is_file()] == []
    assert len(found) == len(set(found)), "each page once"


@needs({"go": "Go"}, "the README's and the pages' examples (a Go bot from its kit) were")
def test_the_readme_and_the_docs_run_as_printed(tmp_path: Path) -> None:
    for folder in ("sample_bots", "examples"):  # as a checkout holds them: no build outputs
        shutil.copytree(
            ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns(*BUILD_CACHES)
        )
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    ran = []
    for page in pages():
        where = page.relative_to(ROOT)
        for language, tag, body in blocks(page.read_text(encoding="utf-8")):
            if tag.startswith("file="):
                (tmp_path / tag.removeprefix("file=")).write_text(body, encoding="utf-8")
                continue
            if tag != "run":
                continue
            command = ["bash", "-euo", "pipefail", "-c", body]
            if language == "python":
                command = [sys.executable, "-c", body]
            done = subprocess.run(
                command,
                cwd=tmp_path,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
            assert done.returncode == 0, f"this block of {where} failed:\n{body}\n{done.stderr}"
            assert "Traceback" not in done.stderr, f"{where}:\n{done.stderr}"
            ran.append(body)
    assert len(ran) >= 7, "the blocks marked to run were found"
    assert (tmp_path / "results/club/report.html").is_file()
    assert (tmp_path / "results/friday-dask/results.sqlite").is_file()
