"""The sandbox: hostile probe bots, run through real layers, observed from outside.

Each protection the detected sandbox claims must actually stop its attack,
and nothing it does not claim may be reported as contained: the test checks
claim and delivery against each other. The same probes run unconfined must
escape, which shows that they are real attacks.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from unittest import mock

import pytest

from arena.bots import sandbox as sandbox_module
from arena.bots.cgroups import Cgroups
from arena.bots.player import ProcessPlayer
from arena.bots.process import BotProcess
from arena.bots.sandbox import (
    Capabilities,
    ResourceLimits,
    SandboxError,
    confine,
    descendants,
    detect,
    require,
)
from arena.bots.selftest import ATTACKS, run_attacks
from arena.bots.spec import BotSpec, parse_bot
from arena.errors import BotError, BotFault, FaultKind
from arena.game import Rules
from arena.protocol import Limits as TimeLimits
from arena.protocol import decode_reply, encode, hello_message
from arena.referee import play_game
from tests.system import E2E

pytestmark = E2E

PROTECTION_OF = {
    "net": "net",
    "write": "fs",
    "read": "fs",
    "forkbomb": "processes",
    "memory": "memory",
    "orphan": "tree-kill",
    "signal": "signals",
    "capabilities": "privileges",
}
ROOT = os.geteuid() == 0
FAST = TimeLimits(startup_ms=5000, move_ms=1000, bank_ms=5000)


def test_this_machine_class_offers_every_layer() -> None:
    """Debian 12 on kernel 6.x as root (the CI machine): Landlock, seccomp, cgroups, subreaper."""
    capabilities = detect()
    assert capabilities.landlock_abi >= 6, capabilities.notes
    assert capabilities.seccomp and capabilities.subreaper, capabilities.notes
    assert capabilities.cgroups is not None or not ROOT, capabilities.notes


@pytest.mark.parametrize("attack", [name for name, _ in ATTACKS])
def test_the_detected_sandbox_delivers_what_it_claims(attack: str) -> None:
    capabilities = detect()
    [outcome] = run_attacks(capabilities, (attack,))
    claimed = capabilities.provides(PROTECTION_OF[attack])
    assert outcome.contained == claimed, outcome


@pytest.mark.parametrize("attack", ["net", "write", "orphan", "signal"])
def test_unconfined_probes_escape(attack: str) -> None:
    """Without the sandbox the same probes succeed: the attacks are real."""
    [outcome] = run_attacks(None, (attack,))
    assert not outcome.contained, outcome


def test_the_fallback_stack_still_contains_memory_and_orphans() -> None:
    """No Landlock, no seccomp, no cgroups: limits, no-new-privs and the subreaper remain."""
    fallback = Capabilities(subreaper=detect().subreaper)
    outcomes = {o.attack: o for o in run_attacks(fallback)}
    assert outcomes["memory"].contained, outcomes["memory"]
    assert outcomes["orphan"].contained == fallback.subreaper, outcomes["orphan"]
    assert not outcomes["net"].contained
    assert not outcomes["write"].contained
    assert not outcomes["forkbomb"].contained
    # Without Landlock only file permissions guard /etc/shadow: enough unless root.
    assert outcomes["read"].contained == (not ROOT)


def test_a_layer_that_fails_to_apply_means_the_bot_never_starts(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Fail closed: a cgroup the trampoline cannot join stops the bot before exec."""
    marker = tmp_path / "started"
    script = tmp_path / "bot.py"
    script.write_text(f"open({str(marker)!r}, 'w').close()\n")
    monkeypatch.setattr(Cgroups, "make", lambda *_: [tmp_path / "no-such-cgroup"])
    process = BotProcess(
        BotSpec(name="x", argv=(sys.executable, str(script)), source="x"),
        sandbox=Capabilities(cgroups=Cgroups(2, tmp_path), subreaper=True),
    )
    process.start()
    try:
        with pytest.raises(BotFault) as caught:
            process.read_line(time.monotonic() + 10)
    finally:
        process.stop()
    assert caught.value.kind is FaultKind.CRASH
    assert "cgroups could not be applied" in caught.value.detail
    assert not marker.exists()


def test_require_names_the_missing_protection() -> None:
    bare = Capabilities()
    with pytest.raises(SandboxError, match="cannot provide 'fs'"):
        require(bare, ["memory", "fs"])
    with pytest.raises(SandboxError, match="unknown protection 'walls'"):
        require(bare, ["walls"])
    require(bare, ["memory"])


@pytest.mark.parametrize("own_uid", [False, True])
def test_the_cpu_budget_is_granted_per_game(own_uid: bool) -> None:
    """A bot's CPU limit is one game's budget, raised before each game; a bot under a uid
    of its own, whose limit only CAP_SYS_RESOURCE could raise, gets 1000 games' instead."""
    spec = parse_bot(f"sleeper={sys.executable} -c 'import time; time.sleep(30)'")
    capabilities = detect() if own_uid else replace(detect(), uid_python=None)
    process = BotProcess(spec, sandbox=capabilities, limits=ResourceLimits(cpu_s=7))
    process.start()
    try:
        assert process.proc is not None
        pid = process.proc.pid

        def soft_cpu_limit() -> str:
            for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
                if line.startswith("Max cpu time"):
                    return line.split()[3]
            raise AssertionError("no CPU limit line")

        deadline = time.monotonic() + 10  # the trampoline sets it before it execs the bot
        while soft_cpu_limit() == "unlimited" and time.monotonic() < deadline:
            time.sleep(0.02)
        assert process.confinement is not None
        if process.confinement.uid is not None and not capabilities.raise_limits:
            assert soft_cpu_limit() == "7000"
            return
        assert not own_uid or not ROOT or process.confinement.uid is not None
        assert soft_cpu_limit() == "7"
        process.grant_game_cpu()
        if ROOT:
            assert soft_cpu_limit() == str(int(sandbox_module.cpu_seconds(pid)) + 7 + 1)
    finally:
        process.stop()


def test_node_and_jvm_get_no_address_space_limit() -> None:
    assert ResourceLimits.for_command(["/usr/bin/node", "bot.js"]).address_space_mb is None
    assert ResourceLimits.for_command(["/usr/bin/python3", "bot.py"]).address_space_mb == 4096


def test_manifest_limits_are_checked(tmp_path: Path) -> None:
    (tmp_path / "bot.toml").write_text('run = "/bin/true"\n[limits]\nmemory_mb = 64\n')
    assert dict(parse_bot(str(tmp_path)).limits) == {"memory_mb": 64}
    (tmp_path / "bot.toml").write_text('run = "/bin/true"\n[limits]\nwalls = 3\n')
    with pytest.raises(BotError, match="unknown limit 'walls'"):
        parse_bot(str(tmp_path))


def test_a_manifest_memory_limit_is_enforced(tmp_path: Path) -> None:
    """A bot that allocates 200 MB under a 64 MB limit gets MemoryError (seen on its stderr)."""
    script = tmp_path / "hog.py"
    script.write_text(
        "import sys\ntry:\n    bytearray(200 << 20)\nexcept MemoryError:\n"
        "    sys.stderr.write('limited\\n')\n"
    )
    (tmp_path / "bot.toml").write_text(
        f'run = "{sys.executable} hog.py"\n[limits]\nmemory_mb = 64\n'
    )
    log = tmp_path / "stderr.log"
    process = BotProcess(parse_bot(str(tmp_path)), sandbox=detect(), log_path=log)
    process.start()
    try:
        with pytest.raises(BotFault):
            process.read_line(time.monotonic() + 10)  # it exits without answering
    finally:
        process.stop()
    assert log.read_text().strip() == "limited"


BWRAP = shutil.which("bwrap")
# Justified skip: issue 4 asks that, where bubblewrap cannot be installed, these
# tests say plainly they were not run and why; make test installs it as root.
needs_bubblewrap = pytest.mark.skipif(
    BWRAP is None,
    reason="bubblewrap is not installed here (make test installs it when run as root with "
    "apt-get): the bubblewrap layer was NOT tested",
)


@needs_bubblewrap
@pytest.mark.parametrize("attack", ["net", "write", "orphan", "signal"])
def test_bubblewrap_alone_contains_its_attacks(attack: str) -> None:
    """Namespaces only (no Landlock, seccomp, cgroups or subreaper): net, /tmp, pids."""
    [outcome] = run_attacks(Capabilities(bwrap=BWRAP), (attack,))
    assert outcome.contained, outcome


@needs_bubblewrap
def test_bubblewrap_is_detected_when_installed() -> None:
    assert detect().bwrap == BWRAP, detect().notes
    assert "bubblewrap-namespaces" in detect().layers


UNSHARE = shutil.which("unshare")


@pytest.mark.parametrize("attack", ["net", "orphan", "signal"])
def test_unshare_alone_contains_its_attacks(attack: str) -> None:
    """The fallback when bubblewrap is missing: network and pid namespaces by unshare."""
    assert UNSHARE is not None, "util-linux unshare is part of every Debian system"
    capabilities = Capabilities(unshare=UNSHARE)
    [outcome] = run_attacks(capabilities, (attack,))
    assert outcome.contained, outcome
    assert capabilities.provides(PROTECTION_OF[attack]), "what the namespaces contain is claimed"


@pytest.mark.parametrize("stack", ["unshare", "no-namespaces", "fallback"])
def test_benign_bots_play_under_each_stack(stack: str) -> None:
    """Python, node and C sample bots play a full game under the alternative stacks.

    no-namespaces: every layer but bubblewrap and unshare; as root that means a uid of
    the bot's own and dropped capabilities applied by the same trampoline.
    """
    found = detect()
    capabilities = {
        "unshare": replace(found, bwrap=None, unshare=UNSHARE),
        "no-namespaces": replace(found, bwrap=None, unshare=None),
        "fallback": Capabilities(subreaper=found.subreaper),
    }[stack]
    root = Path(__file__).resolve().parent.parent
    bots = [
        f"py=python3 {root / 'arena/samples/random_bot.py'}",
        f"js=node {root / 'sample_bots/javascript/random_bot.js'}",
        f"c={root / 'sample_bots/c/random_bot'}",
    ]
    players = [ProcessPlayer(parse_bot(bot), FAST, sandbox=capabilities) for bot in bots]
    try:
        result = play_game(players, Rules(players=3), seed=12, game_id="stack", limits=FAST)
    finally:
        statuses = [player.close() for player in players]
    assert result.faults == {}, result.faults
    assert statuses == [0, 0, 0]


def test_a_bot_whose_files_anyone_may_read_runs_under_its_own_uid() -> None:
    """As root, a bot slot gets a uid of its own; everything of that uid dies with the bot."""
    capabilities = detect()
    if not capabilities.own_uids:
        assert not ROOT or "separate uids" in " ".join(capabilities.notes), capabilities.notes
        return  # not root: bots run as arena's own user, which is the point of the check
    folder = Path(tempfile.mkdtemp(prefix="arena-uid-test-"))
    try:
        folder.chmod(0o755)
        binary = folder / "random_bot"
        shutil.copy(Path(__file__).resolve().parent.parent / "sample_bots/c/random_bot", binary)
        binary.chmod(0o755)
        process = BotProcess(parse_bot(str(binary)), sandbox=capabilities)
        process.start()
        try:
            assert process.confinement is not None and process.confinement.uid is not None
            uid = process.confinement.uid
            assert process.proc is not None
            deadline = time.monotonic() + 10
            process.send(encode(hello_message(FAST)), deadline)
            assert decode_reply(process.read_line(deadline), "ready")["name"] == "random-c"
            tree = [process.proc.pid, *descendants(process.proc.pid)]
            bots = [pid for pid in tree if _command_of(pid).endswith("/random_bot")]
            assert bots and {_uid_of(pid) for pid in bots} == {uid}
            # bubblewrap runs as root, to bind what the uid could not reach; only it.
            wrappers = {_command_of(pid) for pid in tree if _uid_of(pid) != uid}
            assert {command.split("/")[-1] for command in wrappers} <= {"bwrap"}, wrappers
        finally:
            process.stop()
        assert not [pid for pid in _all_pids() if _uid_of(pid) == uid], (
            "a process of the uid survived"
        )
    finally:
        shutil.rmtree(folder)


FORK_BOMB = """
import os, time
forked = 0
for _ in range(300):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    forked += 1
print(os.getuid(), forked, flush=True)
time.sleep(30)
"""


def test_unshare_without_cgroups_still_gives_a_uid_that_stops_a_fork_bomb() -> None:
    """Where unshare (not bubblewrap) makes the namespaces and no cgroup can be written,
    a bot as root still runs under a uid of its own, whose RLIMIT_NPROC counts its forks."""
    capabilities = replace(detect(), bwrap=None, unshare=UNSHARE, cgroups=None)
    if not capabilities.uid_python:
        assert not ROOT or "separate uids" in " ".join(capabilities.notes), capabilities.notes
        return  # not root: no uid to give, which is what the README says
    assert "unshare-namespaces" in capabilities.layers and "separate-uids" in capabilities.layers
    folder = Path(tempfile.mkdtemp(prefix="arena-uid-test-"))
    try:
        folder.chmod(0o755)
        (folder / "bomb.py").write_text(FORK_BOMB)
        (folder / "bomb.py").chmod(0o644)
        argv = (capabilities.uid_python, str(folder / "bomb.py"))
        process = BotProcess(BotSpec(name="bomb", argv=argv, source="x"), sandbox=capabilities)
        process.start()
        try:
            assert process.confinement is not None and process.confinement.uid is not None
            uid = process.confinement.uid
            line = process.read_line(time.monotonic() + 30)
        finally:
            process.stop()
        bot_uid, forked = (int(word) for word in line.split())
        assert bot_uid == uid, "the bot runs under the slot's uid, inside the namespaces"
        limit = ResourceLimits().processes
        assert limit is not None and forked < limit, f"{forked} forks: RLIMIT_NPROC holds"
        assert not [pid for pid in _all_pids() if _uid_of(pid) == uid], "nothing of it survived"
    finally:
        shutil.rmtree(folder)


def _command_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode()
    except OSError:
        return ""


def _uid_of(pid: int) -> int | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    return int(status.split("Uid:")[1].split()[0])


def _all_pids() -> list[int]:
    return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]


def test_reaping_orphans_spares_this_processes_own_children() -> None:
    """Only children outside this process's session are adopted orphans of bots."""
    assert detect().subreaper  # detection makes this process the child subreaper
    helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        [outcome] = run_attacks(Capabilities(subreaper=True), ("orphan",))
        assert outcome.contained, outcome
        assert helper.poll() is None, "a child of arena's own session was killed"
    finally:
        helper.kill()
        helper.wait()


WHO_AM_I = """
import os
status = open("/proc/self/status").read()
caps = [line.split()[1] for line in status.splitlines() if line.startswith("Cap")]
print(os.getuid(), os.getgid(), len(os.getgroups()), len(set(caps) - {"0000000000000000"}),
      flush=True)
"""


def test_a_bot_in_an_owner_only_folder_still_runs_under_its_own_uid() -> None:
    """A bot whose program or files sit where only root may enter (this Python, wherever
    it is installed; a folder made by mkdtemp, mode 0700) runs under a uid of its own with
    no capability in any set: bubblewrap binds what it needs where that uid reaches it."""
    capabilities = detect()
    if not (capabilities.own_uids and capabilities.bwrap):
        assert not ROOT or not capabilities.bwrap, capabilities.notes
        return  # not root, or no bubblewrap: no uid to give (docs/security.md)
    folder = Path(tempfile.mkdtemp(prefix="arena-owner-only-"))
    try:
        assert folder.stat().st_mode & 0o777 == 0o700
        (folder / "who.py").write_text(WHO_AM_I)
        (folder / "who.py").chmod(0o644)
        spec = BotSpec(name="who", argv=(sys.executable, str(folder / "who.py")), source="x")
        process = BotProcess(spec, sandbox=capabilities)
        process.start()
        try:
            assert process.confinement is not None and process.confinement.uid is not None
            given = process.confinement.uid
            line = process.read_line(time.monotonic() + 30)
        finally:
            process.stop()
        uid, gid, groups, capability_sets = (int(word) for word in line.split())
        assert (uid, gid, groups, capability_sets) == (given, given, 0, 0)
    finally:
        shutil.rmtree(folder)


def test_a_file_only_its_owner_may_read_gets_no_uid_and_a_server_refuses_it() -> None:
    """A bot file of mode 0600 cannot be shown to another uid: the bot runs as arena's user
    without capabilities, as before; where a uid is required (a server), one line says why."""
    capabilities = detect()
    if not (capabilities.own_uids and capabilities.bwrap):
        return  # nothing to refuse: bots get no uid here at all
    folder = Path(tempfile.mkdtemp(prefix="arena-owner-only-"))
    try:
        (folder / "who.py").write_text(WHO_AM_I)
        (folder / "who.py").chmod(0o600)
        argv = (sys.executable, str(folder / "who.py"))
        scratch = Path(tempfile.mkdtemp(prefix="arena-scratch-"))
        try:
            kept = confine(argv, scratch, ResourceLimits(), capabilities)
            assert kept.uid is None
            kept.release(set())
            with pytest.raises(SandboxError) as refused:
                confine(argv, scratch, ResourceLimits(), replace(capabilities, uid_required=True))
            assert str(refused.value) == (
                f"bot cannot run under a uid of its own: {folder / 'who.py'} may be read by "
                "its owner only"
            )
            # In a game it is the bot's fault (it forfeits), not the machine's.
            strict = replace(capabilities, uid_required=True)
            process = BotProcess(BotSpec(name="who", argv=argv, source="x"), sandbox=strict)
            with pytest.raises(BotFault) as forfeited:
                process.start()
            assert forfeited.value.kind is FaultKind.CRASH
            assert "who cannot run under a uid of its own" in forfeited.value.detail
            assert process.scratch is None, "its scratch folder went with it"
        finally:
            shutil.rmtree(scratch)
    finally:
        shutil.rmtree(folder)


HOLD_UIDS = """
import sys, time
from arena.bots.sandbox import _UIDS
print(" ".join(str(_UIDS.take()) for _ in range(64)), flush=True)
sys.stdin.read()
"""


def test_two_arena_processes_never_lease_the_same_uid() -> None:
    """One allocator for the machine: uids leased by another arena process (a server's
    ladder beside its builder) are never handed out here until that process lets go, and
    its death (SIGKILL) frees them."""
    if not ROOT:
        return  # uids are handed out only by root
    other = subprocess.Popen(
        [sys.executable, "-c", HOLD_UIDS], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert other.stdout is not None
        theirs = {int(word) for word in other.stdout.readline().split()}
        assert len(theirs) == 64
        start = sandbox_module.UidPool.FIRST + (other.pid * 64) % sandbox_module.UidPool.COUNT
        pool = sandbox_module.UidPool()
        # Search from where the other process started: its uids are the first tried.
        with mock.patch("os.getpid", return_value=other.pid):
            mine = [pool.take() for _ in range(64)]
        assert not theirs & set(mine)
        assert mine[0] != start  # it stepped past theirs
        for uid in mine:
            pool.give_back(uid)
        other.kill()
        other.wait()
        with mock.patch("os.getpid", return_value=other.pid):
            assert pool.take() in theirs  # a killed holder's leases are free again
    finally:
        other.kill()
        other.wait()


def test_a_link_in_a_folder_bound_entry_by_entry_is_made_again_never_followed(
    tmp_path: Path,
) -> None:
    """bubblewrap, as root, would mount what a bound link names; a folder the bot's uid may
    not list is bound entry by entry, and a link among them is made again as a link."""
    folder = tmp_path / "bot"
    folder.mkdir(mode=0o700)
    (folder / "bot.py").write_text("print('hi')\n")
    (folder / "bot.py").chmod(0o644)
    (folder / "leak").symlink_to("/etc")
    reach = sandbox_module.Reach.plan([str(folder)], [], executable=sys.executable)
    assert (str(folder / "leak"), "link") in reach.steps
    assert dict(reach.links) == {str(folder / "leak"): "/etc"}
    arguments = reach.arguments()
    assert ["--symlink", "/etc", str(folder / "leak")] == arguments[
        arguments.index("--symlink") : arguments.index("--symlink") + 3
    ]
    assert str(folder / "leak") not in [
        arguments[i + 1] for i, word in enumerate(arguments) if word == "--ro-bind"
    ]
    assert (str(folder / "bot.py"), "ro") in reach.steps and reach.problem == ""


def test_uid_leases_live_only_in_a_folder_of_ours_and_skip_subordinate_ranges(
    tmp_path: Path,
) -> None:
    """Leases are refused in a folder others may write (where another user could unlink a
    lease); a uid of a subordinate range (a user's rootless containers) is never given."""
    pool = sandbox_module.UidPool()
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)
    with (
        mock.patch.object(sandbox_module.UidPool, "FOLDER", shared),
        pytest.raises(SandboxError, match="is not a folder of this user's alone"),
    ):
        pool.take()
    first = sandbox_module.UidPool.FIRST
    reserved = ((first, 5), (first + 6, 1))
    with (
        mock.patch.object(sandbox_module.UidPool, "FOLDER", tmp_path / "leases"),
        mock.patch.object(sandbox_module, "_subordinate_ranges", return_value=reserved),
        mock.patch("os.getpid", return_value=0),  # the search starts at FIRST
    ):
        taken = [pool.take() for _ in range(3)]
    assert taken == [first + 5, first + 7, first + 8]
    assert (tmp_path / "leases").stat().st_mode & 0o777 == 0o700
    for uid in taken:
        pool.give_back(uid)
