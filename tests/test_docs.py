"""The documentation: the site builds with every internal link and anchor checked; the README
stays the short page a newcomer reads (its runnable examples are tests/test_readme.py's).

The site is built as ``make docs`` builds it, by MkDocs with the Material theme (the ``docs``
extra), into a temporary folder. A small site of its own, with mkdocs.yml's checks, shows that
a link to an anchor a page does not have fails the build: the checks are on, not only passing.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped, unused-ignore]

from tests.system import E2E
from tests.test_readme import OUTSIDE, nav_pages

pytestmark = E2E

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

NOT_INSTALLED = tuple(
    f"{what} (the docs extra: pip install '.[docs]')"
    for module, what in {"mkdocs": "MkDocs", "material": "Material for MkDocs"}.items()
    if importlib.util.find_spec(module) is None
)
builds = pytest.mark.system(absent=NOT_INSTALLED, untested="the documentation site's build was")


def mkdocs_build(folder: Path, site: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """``mkdocs build`` of the project in ``folder`` into ``site``."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(site), *flags],
        cwd=folder,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},  # Material's notice on every build
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def config() -> dict[str, object]:
    loaded = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


@builds
def test_the_site_builds_with_every_link_and_anchor_checked(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = mkdocs_build(ROOT, site, "--strict")
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stderr}"
    for page in nav_pages(config()["nav"]):
        built = site / ("index.html" if page == "index.md" else f"{page[:-3]}/index.html")
        assert built.is_file(), f"{page} was not built"
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="tournaments/"' in index, "the README's docs/ links point at the site's pages"
    assert not (site / "hooks.py").exists(), "the hooks are no page of the site"


def test_the_checks_are_on() -> None:
    settings = config()
    assert settings["strict"] is True, "warnings fail the build"
    assert settings["hooks"] == ["docs/hooks.py"]
    assert set(OUTSIDE) <= set(nav_pages(settings["nav"]))
    validation = settings["validation"]
    assert isinstance(validation, dict)
    for kind in ("not_found", "anchors", "absolute_links", "unrecognized_links"):
        assert validation["links"][kind] == "warn", kind
    for kind in ("omitted_files", "not_found", "absolute_links"):
        assert validation["nav"][kind] == "warn", kind


@builds
@pytest.mark.parametrize(
    ("link", "fails"),
    [("other.md#other", False), ("other.md#nope", True), ("missing.md", True)],
)
def test_a_link_to_a_missing_page_or_anchor_fails_the_build(
    tmp_path: Path, link: str, fails: bool
) -> None:
    settings = config()
    small = {key: settings[key] for key in ("strict", "validation")}
    small |= {"site_name": "links", "nav": ["index.md", "other.md"]}
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(small), encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/index.md").write_text(f"# Index\n\nSee [the other page]({link}).\n")
    (tmp_path / "docs/other.md").write_text("# Other\n\nThe other page.\n")
    done = mkdocs_build(tmp_path, tmp_path / "site")  # strict as mkdocs.yml says, no flag
    if fails:
        assert done.returncode != 0, f"a link to {link} built:\n{done.stderr}"
        assert link.removeprefix("other.md#") in done.stderr, done.stderr
    else:
        assert done.returncode == 0, done.stderr


def test_the_readme_is_short_and_keeps_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300, "the README is read in five minutes"
    first = re.search(r"^```sh\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)
    assert first is not None, "the README's quick start is a sh block"
    lines = first.group(1).splitlines()
    assert any(line.startswith("make test") for line in lines), lines
    assert any(line.startswith("make demo") for line in lines), lines
