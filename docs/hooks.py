"""MkDocs hooks (``hooks:`` in mkdocs.yml): two pages from outside docs/, links for the site.

The README is the site's index and ``benchmarks/README.md`` (the tables beside their benchmark)
a page of its own, so each text has one home and GitHub shows it there too. Every page is
written to be read on GitHub, its links relative to its file in the repository
(``docs/tournaments.md`` from the README, ``../benchmarks/README.md#convergence`` from a page
in docs/); here they are pointed at the site's pages. A link to a file that is not a page of
the site is left as it is, so the strict build names it. Fenced blocks' tags for
``tests/test_readme.py`` (``sh run``, ``toml file=NAME``) are taken off, leaving the language.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.livereload import LiveReloadServer
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

# The site's pages that live outside docs/: page -> its file, relative to mkdocs.yml.
OUTSIDE = {"index.md": "README.md", "benchmarks.md": "benchmarks/README.md"}
DOCS = "docs/"

# An inline link's target that names a Markdown file: ](path.md) or ](path.md#anchor).
LINK = re.compile(r"\]\((?P<path>[^()\s#:]+\.md)(?P<anchor>#[^()\s]*)?\)")
# The opening line of a fenced block with a tag after its language: ```sh run, ```toml file=X.
TAGGED_FENCE = re.compile(r"^(?P<fence>```+|~~~+)(?P<language>\w+)[ \t]+\S[^\n]*$", re.MULTILINE)


def root(config: MkDocsConfig) -> Path:
    """The repository's folder: mkdocs.yml's."""
    return Path(config.config_file_path).resolve().parent


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the README (as the index) and the benchmarks' page to the site's files."""
    for page, source in OUTSIDE.items():
        files.append(File.generated(config, page, abs_src_path=str(root(config) / source)))
    return files


def repository_path(page: str) -> str:
    """Where the site's page ``page`` lives in the repository."""
    return OUTSIDE.get(page, DOCS + page)


def site_page(path: str) -> str | None:
    """The site's page for the repository's file ``path``; None if it is not a page."""
    for page, source in OUTSIDE.items():
        if source == path:
            return page
    if path.startswith(DOCS):
        return path.removeprefix(DOCS)
    return None


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Point the page's links at the site's pages; take the test tags off its fenced blocks."""
    here = page.file.src_uri
    folder = posixpath.dirname(repository_path(here))

    def relink(link: re.Match[str]) -> str:
        target = site_page(posixpath.normpath(posixpath.join(folder, link["path"])))
        if target is None:
            return link[0]
        relative = posixpath.relpath(target, posixpath.dirname(here) or ".")
        return f"]({relative}{link['anchor'] or ''})"

    markdown = TAGGED_FENCE.sub(lambda fence: fence["fence"] + fence["language"], markdown)
    return LINK.sub(relink, markdown)


def on_serve(server: LiveReloadServer, config: MkDocsConfig, builder: object) -> LiveReloadServer:
    """``mkdocs serve`` rebuilds when the pages from outside docs/ change too."""
    for source in OUTSIDE.values():
        server.watch(str(root(config) / source))
    return server
