"""The system-dependency policy: a missing tool fails under CI and is skipped elsewhere."""

from __future__ import annotations

import pytest

from tests.system import apply_policy, needs


class Marked:
    """A test item carrying one ``needs`` mark."""

    def __init__(self, mark: pytest.MarkDecorator) -> None:
        self.mark = mark.mark

    def iter_markers(self, name: str) -> list[pytest.Mark]:
        return [self.mark] if name == self.mark.name else []


MISSING = needs({"no-such-tool-arena": "a toolchain"}, "the kits were")


def test_a_missing_tool_skips_the_test_and_says_what_went_untested(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"a toolchain \(`no-such-tool-arena`\) not "
                       r"installed: the kits were NOT tested"):  # fmt: skip
        apply_policy(Marked(MISSING))  # type: ignore[arg-type]


def test_under_ci_a_missing_tool_fails_the_test(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true, so this is a failure"):
        apply_policy(Marked(MISSING))  # type: ignore[arg-type]


def test_a_present_tool_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    apply_policy(Marked(needs({"sh": "a shell"}, "nothing")))  # type: ignore[arg-type]
