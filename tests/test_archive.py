"""An uploaded archive (:mod:`arena.server.archive`): each good shape unpacked, each attack
refused in one line with nothing left behind, bot.toml's commands checked, and the digest
that recognizes the same files uploaded again.

Every archive is built here, in memory, with ``zipfile`` and ``tarfile`` (and, for the lies
those modules will not write, by patching their bytes), so each test shows the exact
members it sends.
"""

from __future__ import annotations

import bz2
import gzip
import io
import os
import random
import shutil
import stat
import struct
import tarfile
import tempfile
import time
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from arena.server import archive
from arena.server.archive import (
    MB,
    ArchiveRefused,
    TooLarge,
    UnpackLimits,
    check_manifest,
    content_digest,
    unpack,
)
from arena.server.config import SERVER_KEYS

MANIFEST = b'name = "mybot"\nrun = "python3 bot.py"\n'
BOT = b"print('hello')\n" * 20
#: The server's default limits: 200 MB and 10000 files.
LIMITS = UnpackLimits.from_server({key: default for key, (_, default) in SERVER_KEYS.items()})


@dataclass(frozen=True)
class Entry:
    """One member of an archive to build: a file (or ``kind``) with its mode."""

    name: str
    data: bytes = b""
    mode: int = 0o644
    kind: str = "file"  # file, dir, symlink, hardlink, fifo, chr, blk, socket
    target: str = ""


def file(name: str, data: bytes = b"", mode: int = 0o644) -> Entry:
    return Entry(name, data, mode)


def folder(name: str, mode: int = 0o755) -> Entry:
    return Entry(name, mode=mode, kind="dir")


def bot(prefix: str = "") -> list[Entry]:
    """A good bot: its manifest and program (under ``prefix``)."""
    return [file(f"{prefix}bot.toml", MANIFEST), file(f"{prefix}bot.py", BOT)]


_ZIP_KINDS = {
    "file": stat.S_IFREG,
    "dir": stat.S_IFDIR,
    "symlink": stat.S_IFLNK,
    "fifo": stat.S_IFIFO,
    "chr": stat.S_IFCHR,
    "blk": stat.S_IFBLK,
    "socket": stat.S_IFSOCK,
}
_TAR_KINDS = {
    "file": tarfile.REGTYPE,
    "dir": tarfile.DIRTYPE,
    "symlink": tarfile.SYMTYPE,
    "hardlink": tarfile.LNKTYPE,
    "fifo": tarfile.FIFOTYPE,
    "chr": tarfile.CHRTYPE,
    "blk": tarfile.BLKTYPE,
}


def zipped(entries: list[Entry]) -> bytes:
    """A zip of ``entries``, Unix modes in each member's external attributes."""
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of duplicate names: a test wants them
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as packed:
            for entry in entries:
                name = entry.name + ("/" if entry.kind == "dir" else "")
                info = zipfile.ZipInfo(name, date_time=(2024, 1, 2, 3, 4, 5))
                info.create_system = 3
                info.external_attr = (_ZIP_KINDS[entry.kind] | entry.mode) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                packed.writestr(info, entry.target.encode() if entry.target else entry.data)
    return buffer.getvalue()


def tarred(entries: list[Entry], mtime: float = 1_700_000_000) -> bytes:
    """A tar.gz of ``entries``."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT) as packed:
        for entry in entries:
            info = tarfile.TarInfo(entry.name)
            info.type = _TAR_KINDS[entry.kind]
            info.mode = entry.mode
            info.mtime = mtime
            info.linkname = entry.target
            info.size = len(entry.data) if entry.kind == "file" else 0
            packed.addfile(info, io.BytesIO(entry.data) if entry.kind == "file" else None)
    return buffer.getvalue()


FORMATS: dict[str, Callable[[list[Entry]], bytes]] = {"zip": zipped, "tar.gz": tarred}
both = pytest.mark.parametrize("pack", list(FORMATS.values()), ids=list(FORMATS))


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """The scratch folder uploads are unpacked in (``DIR/uploads``)."""
    path = tmp_path / "uploads"
    path.mkdir()
    return path


def unpacked(data: bytes, scratch: Path, limits: UnpackLimits = LIMITS) -> Path:
    folder = unpack(io.BytesIO(data), scratch, limits)
    assert folder.parent == scratch
    assert list(scratch.iterdir()) == [folder], "only the bot's folder is left"
    return folder


def refused(
    data: bytes,
    scratch: Path,
    limits: UnpackLimits = LIMITS,
    kind: type[ArchiveRefused] = ArchiveRefused,
) -> str:
    """The one line ``data`` is refused with; nothing is left in ``scratch``."""
    with pytest.raises(kind) as caught:
        unpack(io.BytesIO(data), scratch, limits)
    assert list(scratch.iterdir()) == [], "the temporary folder is removed"
    message = str(caught.value)
    assert message and "\n" not in message and "\r" not in message
    return message


def listing(folder: Path) -> dict[str, int]:
    """Each path under ``folder`` and its permission bits."""
    return {
        path.relative_to(folder).as_posix(): stat.S_IMODE(path.lstat().st_mode)
        for path in sorted(folder.rglob("*"))
    }


# --- good shapes ---------------------------------------------------------------------------


@both
def test_a_bot_at_the_root_is_unpacked_with_plain_modes(
    pack: Callable[[list[Entry]], bytes], scratch: Path
) -> None:
    entries = [
        *bot(),
        file("run.sh", b"#!/bin/sh\n", 0o775),
        folder("lib", 0o700),
        file("lib/util.py", b"x = 1\n", 0o600),
    ]
    folder_ = unpacked(pack(entries), scratch)
    assert listing(folder_) == {
        "bot.py": 0o644,
        "bot.toml": 0o644,
        "lib": 0o755,
        "lib/util.py": 0o644,
        "run.sh": 0o755,
    }
    assert stat.S_IMODE(folder_.stat().st_mode) == 0o755
    assert (folder_ / "bot.toml").read_bytes() == MANIFEST
    assert (folder_ / "bot.py").read_bytes() == BOT


@both
def test_a_bot_in_one_top_folder_is_lifted_out_of_it(
    pack: Callable[[list[Entry]], bytes], scratch: Path
) -> None:
    entries = [folder("mybot"), *bot("mybot/"), file("mybot/src/deep.py", b"y = 2\n")]
    folder_ = unpacked(pack(entries), scratch)
    assert sorted(listing(folder_)) == ["bot.py", "bot.toml", "src", "src/deep.py"]


def test_a_tar_made_of_its_folder_with_dot_names_is_unpacked(scratch: Path) -> None:
    """``tar czf bot.tar.gz -C mybot .`` names its members ``./`` and ``./bot.toml``."""
    entries = [folder("."), *bot("./"), folder("./src"), file("./src/a.py", b"a\n")]
    assert sorted(listing(unpacked(tarred(entries), scratch))) == [
        "bot.py",
        "bot.toml",
        "src",
        "src/a.py",
    ]


@both
def test_macos_litter_is_left_out(pack: Callable[[list[Entry]], bytes], scratch: Path) -> None:
    entries = [
        folder("mybot"),
        *bot("mybot/"),
        file("mybot/.DS_Store", b"\0\0\0\1Bud1"),
        file(".DS_Store", b"\0\0\0\1Bud1"),
        folder("__MACOSX"),
        folder("__MACOSX/mybot"),
        file("__MACOSX/mybot/._bot.toml", b"\0\5\26\7"),
    ]
    assert sorted(listing(unpacked(pack(entries), scratch))) == ["bot.py", "bot.toml"]


@both
def test_a_small_file_that_compresses_well_is_taken(
    pack: Callable[[list[Entry]], bytes], scratch: Path
) -> None:
    entries = [*bot(), file("table.bin", bytes(512 * 1024))]
    assert (unpacked(pack(entries), scratch) / "table.bin").stat().st_size == 512 * 1024


def test_a_setgid_folder_is_taken_without_its_bit(scratch: Path) -> None:
    """Folders in a shared setgid folder carry the bit: harmless, and not kept."""
    entries = [folder("mybot", 0o2775), *bot("mybot/")]
    assert stat.S_IMODE(unpacked(tarred(entries), scratch).stat().st_mode) == 0o755


# --- the format, from the content ----------------------------------------------------------


@pytest.mark.parametrize("pack, name", [(zipped, "bot.tar.gz"), (tarred, "bot.zip")])
def test_the_format_is_read_from_the_content_not_the_name(
    pack: Callable[[list[Entry]], bytes], name: str, tmp_path: Path, scratch: Path
) -> None:
    upload = tmp_path / name
    upload.write_bytes(pack(bot()))
    with open(upload, "rb") as source:
        folder_ = unpack(source, scratch, LIMITS)
    assert (folder_ / "bot.toml").read_bytes() == MANIFEST


def _plain_tar() -> bytes:
    return gzip.decompress(tarred(bot()))


@pytest.mark.parametrize(
    "data, named",
    [
        (random.Random(7).randbytes(4096), "it looks like unknown binary data"),
        (b"name = 'mybot'\nrun = 'python3 bot.py'\n", "it looks like text"),
        (b"", "it looks like an empty file"),
        (bz2.compress(b"x" * 1000), "it looks like a bzip2 file"),
        (b"Rar!\x1a\x07\x01\x00" + bytes(100), "it looks like a RAR archive"),
        (_plain_tar(), "a tar archive without compression: upload a .tar.gz"),
        (gzip.compress(b"just some text\n" * 100), "a gzip file that holds no tar archive"),
    ],
    ids=["random", "text", "empty", "bzip2", "rar", "plain-tar", "gzip-not-tar"],
)
def test_what_is_not_a_zip_or_a_tar_gz_is_named(data: bytes, named: str, scratch: Path) -> None:
    assert named in refused(data, scratch)


def test_a_damaged_zip_is_refused(scratch: Path) -> None:
    data = zipped(bot())
    assert "a damaged zip" in refused(data[: len(data) // 2] + data[-22:], scratch)


def test_a_cut_tar_gz_is_refused(scratch: Path) -> None:
    data = tarred([*bot(), file("big.bin", random.Random(1).randbytes(200_000))])
    assert "a damaged tar.gz" in refused(data[: len(data) // 2], scratch)


# --- names ---------------------------------------------------------------------------------


@both
@pytest.mark.parametrize(
    "name, problem",
    [
        ("../x", "a '..' part"),
        ("/etc/x", "an absolute path"),
        ("a/../../x", "a '..' part"),
        ("a/../b", "a '..' part"),
        ("..\\..\\x", "a backslash"),
        ("C:/Windows/x", "a drive letter"),
        ("a\nb", "a control character"),
        ("x" * 300, "longer than 255 bytes"),
    ],
)
def test_a_name_that_could_leave_the_folder_is_refused(
    pack: Callable[[list[Entry]], bytes], name: str, problem: str, scratch: Path
) -> None:
    message = refused(pack([*bot(), file(name, b"pwned")]), scratch)
    assert problem in message
    assert repr(name)[:40] in message


def test_a_zip_name_with_a_nul_is_refused(scratch: Path) -> None:
    """zipfile cuts a name at its NUL when it reads it (``bot.py\\0.txt`` is ``bot.py``)."""
    data = zipped([*bot(), file("evil@.txt", b"x")]).replace(b"evil@.txt", b"evil\0.txt")
    assert "a NUL character" in refused(data, scratch)


@both
def test_a_hostile_name_is_refused_even_where_it_would_be_ignored(
    pack: Callable[[list[Entry]], bytes], scratch: Path
) -> None:
    assert "a '..' part" in refused(pack([*bot(), file("__MACOSX/../../x")]), scratch)


# --- links, special files, setuid ----------------------------------------------------------


@both
@pytest.mark.parametrize(
    "target", ["/etc/passwd", "../", "../../outside", "bot.py"], ids=["abs", "up", "out", "in"]
)
def test_a_symbolic_link_is_refused(
    pack: Callable[[list[Entry]], bytes], target: str, scratch: Path
) -> None:
    """Links are refused, even one that stays inside (it need not stay so)."""
    entries = [*bot(), Entry("link", mode=0o777, kind="symlink", target=target)]
    assert "'link': a symbolic link" in refused(pack(entries), scratch)


@pytest.mark.parametrize("target", ["../../etc/passwd", "/etc/passwd", "bot.py"])
def test_a_hard_link_is_refused(target: str, scratch: Path) -> None:
    entries = [*bot(), Entry("link", kind="hardlink", target=target)]
    assert f"'link': a hard link to {target!r}" in refused(tarred(entries), scratch)


@pytest.mark.parametrize(
    "pack, kind, problem",
    [
        (tarred, "fifo", "a FIFO"),
        (tarred, "chr", "a device file"),
        (tarred, "blk", "a device file"),
        (zipped, "fifo", "a FIFO"),
        (zipped, "chr", "a device file"),
        (zipped, "socket", "a socket"),
    ],
)
def test_a_special_file_is_refused(
    pack: Callable[[list[Entry]], bytes], kind: str, problem: str, scratch: Path
) -> None:
    entries = [*bot(), Entry("special", mode=0o666, kind=kind)]
    assert f"'special': {problem}" in refused(pack(entries), scratch)


@both
@pytest.mark.parametrize(
    "mode, bit", [(0o4755, "setuid"), (0o2755, "setgid"), (0o1644, "sticky"), (0o6755, "setuid")]
)
def test_a_file_with_a_setuid_setgid_or_sticky_bit_is_refused(
    pack: Callable[[list[Entry]], bytes], mode: int, bit: str, scratch: Path
) -> None:
    entries = [*bot(), file("program", b"\x7fELF", mode)]
    assert f"'program': a file with the {bit}" in refused(pack(entries), scratch)


# --- sizes and bombs -----------------------------------------------------------------------


@both
def test_more_than_max_files_is_too_large(
    pack: Callable[[list[Entry]], bytes], scratch: Path
) -> None:
    entries = [*bot(), *(file(f"f{number}") for number in range(9999))]  # 10001 files
    message = refused(pack(entries), scratch, LIMITS, TooLarge)
    assert message == "more than 10000 files and folders (the limit)"


@both
def test_folders_count_as_entries(pack: Callable[[list[Entry]], bytes], scratch: Path) -> None:
    limits = UnpackLimits(unpacked_bytes=MB, max_files=4)
    assert unpacked(pack([*bot(), file("a/b.py")]), scratch, limits)  # 4: 3 files, a folder
    shutil.rmtree(next(scratch.iterdir()))
    assert "more than 4 files" in refused(pack([*bot(), file("a/b/c.py")]), scratch, limits)


@both
def test_more_than_unpacked_bytes_is_too_large(
    pack: Callable[[list[Entry]], bytes], scratch: Path
) -> None:
    noise = random.Random(3)
    entries = [*bot(), *(file(f"data{n}.bin", noise.randbytes(400_000)) for n in range(3))]
    limits = UnpackLimits(unpacked_bytes=MB, max_files=100)
    message = refused(pack(entries), scratch, limits, TooLarge)
    assert message == "the bot unpacks to more than 1 MB (the limit)"


ZEROS = 201 * MB


@pytest.fixture(scope="module")
def zip_bomb() -> bytes:
    """A bot with a 201 MB file of zeros: a zip of about 1 MB."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as packed:
        packed.writestr("bot.toml", MANIFEST)
        with packed.open("zeros.bin", "w") as out:
            for _ in range(ZEROS // MB):
                out.write(bytes(MB))
    return buffer.getvalue()


@pytest.fixture(scope="module")
def tar_bomb() -> bytes:
    """The same as a tar.gz."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", compresslevel=1) as packed:
        manifest = tarfile.TarInfo("bot.toml")
        manifest.size = len(MANIFEST)
        packed.addfile(manifest, io.BytesIO(MANIFEST))
        zeros = tarfile.TarInfo("zeros.bin")
        zeros.size = ZEROS
        packed.addfile(zeros, _Zeros(ZEROS))
    return buffer.getvalue()


class _Zeros(io.RawIOBase):
    """``size`` zero bytes, read in pieces."""

    def __init__(self, size: int) -> None:
        self.left = size

    def read(self, size: int = -1) -> bytes:
        size = self.left if size < 0 else min(size, self.left)
        self.left -= size
        return bytes(size)


@pytest.fixture
def most_written(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The bytes on disk in each temporary folder just before it is removed."""
    sizes: list[int] = []
    discard = archive._discard

    def measured(folder: Path) -> None:
        sizes.append(sum(path.lstat().st_size for path in folder.rglob("*")))
        discard(folder)

    monkeypatch.setattr(archive, "_discard", measured)
    return sizes


def _size_fields(data: bytes, name: bytes) -> tuple[int, int]:
    """Where ``name``'s local and central headers are, in a zip without zip64 fields."""
    end = data.rindex(b"PK\x05\x06")
    (central,) = struct.unpack("<I", data[end + 16 : end + 20])
    while data[central + 46 : central + 46 + len(name)] != name:
        length, extra, comment = struct.unpack("<HHH", data[central + 28 : central + 34])
        central += 46 + length + extra + comment
    (local,) = struct.unpack("<I", data[central + 42 : central + 46])
    return local, central


def lie(
    data: bytes, name: str, *, file_size: int | None = None, packed: int | None = None
) -> bytes:
    """``data`` with ``name``'s headers (local and central) saying other sizes."""
    patched = bytearray(data)
    local, central = _size_fields(data, name.encode())
    if packed is not None:
        patched[local + 18 : local + 22] = struct.pack("<I", packed)
        patched[central + 20 : central + 24] = struct.pack("<I", packed)
    if file_size is not None:
        patched[local + 22 : local + 26] = struct.pack("<I", file_size)
        patched[central + 24 : central + 28] = struct.pack("<I", file_size)
    return bytes(patched)


@pytest.mark.parametrize("bomb", ["zip_bomb", "tar_bomb"])
def test_a_bomb_is_refused_at_once_without_filling_the_disk(
    bomb: str, request: pytest.FixtureRequest, most_written: list[int], scratch: Path
) -> None:
    data: bytes = request.getfixturevalue(bomb)
    assert len(data) < 2 * MB
    started = time.perf_counter()
    message = refused(data, scratch)
    assert time.perf_counter() - started < 2
    assert "more than 200 MB" in message or "more than 100 times" in message
    assert max(most_written) < 4 * MB, most_written


def test_a_forged_tar_header_cannot_fill_the_memory(scratch: Path) -> None:
    """tarfile holds a pax header whole: a forged one of gigabytes would fill the memory."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT) as packed:
        info = tarfile.TarInfo("bot.toml")
        info.size = len(MANIFEST)
        info.pax_headers = {"comment": "a" * (5 * MB)}
        packed.addfile(info, io.BytesIO(MANIFEST))
    message = refused(buffer.getvalue(), scratch)
    assert message == "more than 1 MB of tar headers (or of a left-out member) in a row"


def test_many_empty_files_are_not_taken_for_a_bomb(scratch: Path) -> None:
    """Their tar headers, mostly zeros, pack more than 100 to 1: only files' bytes count."""
    data = tarred([*bot(), *(file(f"src/f{number}.py") for number in range(1200))])
    assert len(gzip.decompress(data)) > 100 * len(data) > LIMITS.ratio_after / 100
    assert len(list((unpacked(data, scratch) / "src").iterdir())) == 1200


def test_a_zip_bomb_is_refused_before_a_byte_is_written(
    zip_bomb: bytes, most_written: list[int], scratch: Path
) -> None:
    """Under a budget that would take it (1 GB), its ratio (checked against compressed
    sizes that cannot lie) refuses it at once."""
    message = refused(zip_bomb, scratch, UnpackLimits(unpacked_bytes=1024 * MB, max_files=10))
    assert message.startswith("the archive unpacks to more than 100 times its size")
    assert most_written == [0]


def test_a_zip_header_that_hides_a_bomb_is_refused(zip_bomb: bytes, scratch: Path) -> None:
    """A compressed size forged to look modest (201 MB out of 150 MB) under a 1 GB budget
    runs past where the member's bytes end."""
    data = lie(zip_bomb, "zeros.bin", packed=150 * MB)
    message = refused(data, scratch, UnpackLimits(unpacked_bytes=1024 * MB, max_files=10))
    assert message == (
        "'zeros.bin': its compressed size runs into the zip's directory (a forged header)"
    )


def test_a_zip_member_that_alone_is_a_bomb_is_refused(scratch: Path) -> None:
    """2 MB of zeros beside 1 MB of noise: the archive's ratio passes, the member's not."""
    noise = random.Random(5).randbytes(MB)
    entries = [*bot(), file("noise.bin", noise), file("zeros.bin", bytes(2 * MB))]
    message = refused(zipped(entries), scratch)
    assert message == (
        "'zeros.bin': unpacks to more than 100 times its compressed size (a decompression bomb?)"
    )


@both
def test_many_small_bombs_are_one_bomb(
    pack: Callable[[list[Entry]], bytes], most_written: list[int], scratch: Path
) -> None:
    """Each file too small to be judged alone (512 KB of zeros), 30 of them: the archive
    as a whole expands past 100 to 1."""
    entries = [*bot(), *(file(f"table{number}.bin", bytes(512 * 1024)) for number in range(30))]
    message = refused(pack(entries), scratch)
    assert message == "the archive unpacks to more than 100 times its size (a decompression bomb?)"
    assert max(most_written) < 4 * MB, most_written


def test_a_zip_header_that_says_less_than_its_member_holds_is_refused(
    zip_bomb: bytes, most_written: list[int], scratch: Path
) -> None:
    """zipfile stops at the declared size, where the CRC shows the lie."""
    message = refused(lie(zip_bomb, "zeros.bin", file_size=1000), scratch)
    assert message == "a damaged zip: Bad CRC-32 for file 'zeros.bin'"
    assert max(most_written) < MB


def test_a_zip_header_that_says_more_than_its_member_holds_is_refused(scratch: Path) -> None:
    data = lie(zipped([*bot(), file("data.bin", b"12345" * 20)]), "data.bin", file_size=5000)
    assert refused(data, scratch) == "'data.bin': holds 100 bytes, its header says 5000"


def test_zip_entries_that_share_their_bytes_are_refused(scratch: Path) -> None:
    """The overlapping-entries bomb: many central entries, one compressed kernel."""
    data = zipped([file("bot.toml", MANIFEST)])
    start, end = data.index(b"PK\x01\x02"), data.index(b"PK\x05\x06")
    entry = data[start:end].replace(b"bot.toml", b"copy.txt")
    record = bytearray(data[end:])
    record[8:16] = struct.pack("<HHI", 2, 2, 2 * len(entry))
    forged = data[:end] + entry + bytes(record)
    assert "share their bytes (overlapping entries: a zip bomb)" in refused(forged, scratch)


def test_an_encrypted_zip_member_is_refused(scratch: Path) -> None:
    data = bytearray(zipped(bot()))
    local, central = _size_fields(bytes(data), b"bot.py")
    data[local + 6] |= 1
    data[central + 8] |= 1
    assert "'bot.py': an encrypted member" in refused(bytes(data), scratch)


# --- confusion -----------------------------------------------------------------------------


@both
@pytest.mark.parametrize(
    "first, second", [("bot.py", "bot.py"), ("bot.py", "./bot.py"), ("lib/a.py", "lib//a.py")]
)
def test_two_members_of_one_name_are_refused(
    pack: Callable[[list[Entry]], bytes], first: str, second: str, scratch: Path
) -> None:
    entries = [file("bot.toml", MANIFEST), file(first, b"one"), file(second, b"other")]
    assert refused(pack(entries), scratch) == f"{second!r}: two members of this name"


@both
@pytest.mark.parametrize(
    "entries",
    [[file("a"), file("a/b")], [file("a/b"), file("a")], [folder("a/b"), file("a")]],
    ids=["file-then-inside", "inside-then-file", "folder-inside-then-file"],
)
def test_a_name_that_is_a_file_and_a_folder_is_refused(
    pack: Callable[[list[Entry]], bytes], entries: list[Entry], scratch: Path
) -> None:
    assert "'a' is both a file and a folder" in refused(pack([*bot(), *entries]), scratch)


@both
@pytest.mark.parametrize(
    "entries",
    [
        [file("bot.py", BOT)],
        [*bot("one/"), *bot("two/")],
        [*bot("mybot/deeper/")],
        [*bot("mybot/"), file("README.md")],
        [folder("bot.toml"), file("bot.py")],
    ],
    ids=["none", "two-top-folders", "two-deep", "a-file-beside", "a-folder"],
)
def test_no_bot_toml_where_it_belongs_is_refused(
    pack: Callable[[list[Entry]], bytes], entries: list[Entry], scratch: Path
) -> None:
    message = refused(pack(entries), scratch)
    assert message == "no bot.toml at the archive's root or in its one top folder"


def test_an_empty_zip_is_refused(scratch: Path) -> None:
    assert refused(zipped([]), scratch).startswith("no bot.toml")


# --- bot.toml ------------------------------------------------------------------------------


def manifest_of(tmp_path: Path, text: str) -> Path:
    (tmp_path / "bot.toml").write_text(text)
    return tmp_path


@pytest.mark.parametrize(
    "text",
    [
        'name = "mybot"\nrun = "python3 bot.py"\n',
        'name = "mybot"\nrun = "./target/release/bot --depth=3"\nbuild = "cargo build -r"\n',
        'name = "mybot"\nrun = "java -cp out Bot"\nbuild = "sh -c \'javac -d out *.java\'"\n',
        'name = "mybot"\nrun = "python3 bot.py"\n[limits]\nmemory_mb = 512\n',
    ],
)
def test_a_good_manifest_gives_the_name(text: str, tmp_path: Path) -> None:
    assert check_manifest(manifest_of(tmp_path, text)) == "mybot"


@pytest.mark.parametrize(
    "text, problem",
    [
        ('name = "b"\nrun = "/bin/sh x"', "run names an absolute path, '/bin/sh'"),
        ('name = "b"\nrun = "x"\nbuild = "make -C ../other"', "build names a path with a '..'"),
        ('name = "b"\nrun = "python3 bot.py --data=/etc/passwd"', "an absolute path, '/etc/p"),
        ('name = "b"\nrun = "sh -c \'cd .. && ./x\'"', "run names a path with a '..' part, '..'"),
        ('name = "b"\nrun = "cat ~/.ssh/id_rsa"', "run names an absolute path, '~/.ssh/id_rsa'"),
        ('name = "b"\nrun = "python3 \'unclosed"', "run: cannot split the command"),
        ('run = "python3 bot.py"', "bot.toml has no name"),
        ('name = "b"\nnme = "x"\nrun = "x"', "unknown key 'nme'"),
        ('name = "../b"\nrun = "x"', "does not fit the rule"),
        ('name = "b"', "missing key 'run'"),
        ('name = "b"\nrun = "x"\n[limits]\nmemory_mb = -1', "limits:"),
        ('name = "b"\nrun = = "x"', "bot.toml is not valid TOML"),
    ],
)
def test_a_bad_manifest_is_refused_in_one_line(text: str, problem: str, tmp_path: Path) -> None:
    with pytest.raises(ArchiveRefused) as caught:
        check_manifest(manifest_of(tmp_path, text))
    message = str(caught.value)
    assert problem in message and "\n" not in message


def test_a_manifest_too_large_or_not_text_is_refused(tmp_path: Path) -> None:
    (tmp_path / "bot.toml").write_bytes(b"# " + b"x" * 70_000)
    with pytest.raises(ArchiveRefused, match="larger than 64 KB"):
        check_manifest(tmp_path)
    (tmp_path / "bot.toml").write_bytes(b"name = '\xff'")
    with pytest.raises(ArchiveRefused, match="not UTF-8"):
        check_manifest(tmp_path)


# --- the digest ----------------------------------------------------------------------------


def test_the_same_files_give_one_digest_whatever_their_archive(tmp_path: Path) -> None:
    entries = [*bot(), file("run.sh", b"#!/bin/sh\n", 0o755), file("lib/a.py", b"a\n")]
    digests = set()
    for number, data in enumerate(
        [
            zipped(entries),
            zipped(entries[::-1]),
            tarred(entries[::-1], mtime=1_600_000_000),
            tarred([folder("mybot"), *(Entry(f"mybot/{e.name}", e.data, e.mode) for e in entries)]),
        ]
    ):
        scratch = tmp_path / str(number)
        scratch.mkdir()
        digests.add(content_digest(unpack(io.BytesIO(data), scratch, LIMITS)))
    assert len(digests) == 1
    assert len(digests.pop()) == 64  # a SHA-256, as Version.digest holds


@pytest.mark.parametrize(
    "changed",
    [
        [*bot(), file("run.sh", b"#!/bin/sh\n", 0o644), file("lib/a.py", b"a\n")],
        [*bot(), file("run.sh", b"#!/bin/sh\n", 0o755), file("lib/a.py", b"b\n")],
        [*bot(), file("run.sh", b"#!/bin/sh\n", 0o755), file("lib/b.py", b"a\n")],
        [*bot(), file("run.sh", b"#!/bin/sh\n", 0o755), file("lib/a.py", b"a\n"), file("c")],
    ],
    ids=["not-executable", "a-byte", "a-name", "one-more-file"],
)
def test_other_files_give_another_digest(changed: list[Entry], tmp_path: Path) -> None:
    entries = [*bot(), file("run.sh", b"#!/bin/sh\n", 0o755), file("lib/a.py", b"a\n")]
    first, second = tmp_path / "1", tmp_path / "2"
    first.mkdir()
    second.mkdir()
    assert content_digest(unpack(io.BytesIO(zipped(entries)), first, LIMITS)) != content_digest(
        unpack(io.BytesIO(zipped(changed)), second, LIMITS)
    )


# --- limits --------------------------------------------------------------------------------


def test_the_limits_come_from_the_server_table() -> None:
    assert (LIMITS.unpacked_bytes, LIMITS.max_files, LIMITS.max_ratio) == (200 * MB, 10000, 100)
    assert UnpackLimits.from_server({"unpacked_mb": 5, "max_files": 7}) == UnpackLimits(
        5 * MB, 7, 100.0
    )


def test_umask_does_not_change_the_modes(scratch: Path) -> None:
    before = os.umask(0o077)
    try:
        folder_ = unpacked(zipped([*bot(), file("run.sh", b"", 0o755)]), scratch)
    finally:
        os.umask(before)
    assert listing(folder_) == {"bot.py": 0o644, "bot.toml": 0o644, "run.sh": 0o755}


# --- every shape: a sweep ------------------------------------------------------------------

#: Parts of names an archive may hold: mostly plain ones, sometimes each kind of trouble.
_PLAIN = st.sampled_from(["a", "b", "src", "lib", "data.txt", "main.c", "ü", "~", " "])
_TROUBLE = st.sampled_from([
    "..", ".", "", "__MACOSX", ".DS_Store", "x" * 300, "back\\slash", "nul\x00", "tab\t", "C:",
])  # fmt: skip
_PARTS = st.one_of(_PLAIN, _PLAIN, _PLAIN, _PLAIN, _PLAIN, _PLAIN, _TROUBLE)
_NAMES = st.builds(
    lambda absolute, parts: ("/" if absolute else "") + "/".join(parts),
    st.sampled_from([False] * 9 + [True]),
    st.lists(_PARTS, min_size=1, max_size=6),
)
_TARGETS = st.sampled_from(["bot.py", "a", "src/../bot.py", "../x", "/etc/passwd", "a/../../b", ""])
_KINDS = st.sampled_from(["file"] * 6 + ["dir"] * 3 + ["symlink", "hardlink", "fifo", "chr"])
_ENTRIES = st.builds(
    Entry,
    name=_NAMES,
    data=st.binary(max_size=64),
    mode=st.sampled_from([0o644] * 4 + [0o755] * 2 + [0o4755, 0o2755, 0o1777, 0o000, 0o7777]),
    kind=_KINDS,
    target=_TARGETS,
)


@settings(max_examples=300, deadline=None)
@given(
    entries=st.lists(_ENTRIES, max_size=5),
    good=st.sampled_from([True, True, True, False]),
    fmt=st.sampled_from(sorted(FORMATS)),
)
def test_no_archive_shape_writes_outside_its_folder_or_fails_with_a_traceback(
    entries: list[Entry], good: bool, fmt: str
) -> None:
    """A sweep of archive shapes (names with '..', absolute, long, odd characters; links
    in and out; hard links, FIFOs, devices; setuid bits) against the unpacker: it gives
    a folder of plain files and folders, every link inside it, or refuses in one line
    (400 or 413) leaving nothing; nothing is ever written beside it."""
    if fmt == "zip":  # a zip has no hard links
        entries = [entry for entry in entries if entry.kind != "hardlink"]
    members = [*(bot() if good else []), *entries]
    with tempfile.TemporaryDirectory() as top:
        base = Path(top)
        scratch, beside = base / "uploads", base / "beside"
        scratch.mkdir()
        beside.mkdir()
        (beside / "canary").write_text("kept")
        try:
            data = FORMATS[fmt](members)
        except (ValueError, UnicodeError, IndexError):
            return  # the packer itself cannot write this shape: no archive to try
        try:
            folder = unpack(io.BytesIO(data), scratch, LIMITS)
        except ArchiveRefused as refusal:
            message = str(refusal)
            event(f"refused ({refusal.status}): {message.rpartition(': ')[2][:30]}")
            assert message and "\n" not in message and "\r" not in message
            assert list(scratch.iterdir()) == [], "a refusal leaves nothing"
        else:
            event(f"unpacked, {len(list(folder.rglob('*')))} entries")
            assert folder.parent == scratch and list(scratch.iterdir()) == [folder]
            real = folder.resolve()
            for path in [folder, *folder.rglob("*")]:
                mode = path.lstat().st_mode
                assert stat.S_ISDIR(mode) or stat.S_ISREG(mode) or stat.S_ISLNK(mode), path
                assert not mode & (stat.S_ISUID | stat.S_ISGID), path
                assert Path(os.path.realpath(path)).is_relative_to(real), path
        assert sorted(p.relative_to(base).as_posix() for p in base.rglob("*")
                      if not p.is_relative_to(scratch)) == ["beside", "beside/canary"]  # fmt: skip
        assert (beside / "canary").read_text() == "kept"


def test_a_zip_member_with_no_name_at_all_is_refused_in_one_line(scratch: Path) -> None:
    """Found by the sweep: zipfile's own is_dir() raised IndexError on it (a traceback,
    a 500 from the server)."""
    assert refused(zipped([*bot(), file("")]), scratch) == "'': a file without a name"
