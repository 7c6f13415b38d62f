"""An uploaded bot archive, unpacked with every check a stranger's file needs.

Anyone with an account uploads a ``.zip`` or a ``.tar.gz`` (the contract:
``shared/design/server.md``); its bytes are hostile until shown otherwise.
:func:`unpack` reads the format from the content (never from a file name),
writes the members itself, one by one, into a new temporary folder inside a
scratch folder on the competition's own file system, and stops at the first
problem, removing what it wrote; so the caller renames a whole, checked
folder into place, or nothing. Each check answers a threat:

- **Path traversal, zip slip**: a member named ``../../x``, ``/etc/x``,
  ``a/../../x``, ``C:/x`` or ``..\\x`` would be written outside the folder.
  Absolute names, ``..`` parts (anywhere: ``a/../b`` is refused too),
  backslashes, drive letters, NUL and control characters are refused;
  ``zipfile`` has no filter, so every zip name is checked here, and a tar's
  also goes through Python's ``tarfile.data_filter`` as a second opinion.
- **Link escape**: a symbolic link to ``/etc/passwd`` or ``../``, or a hard
  link to a file outside, makes a later write or read (the build, the bot,
  the server serving the files) reach outside the folder. Every link is
  refused, even one that stays inside: a bot folder needs none (``arena
  submit`` packs what a link points at), and a link that is harmless here
  can point elsewhere once the folder is copied or moved.
- **Special files**: a device member opens the server's disks or terminals; a
  FIFO blocks whoever reads it; a socket is nothing a bot ships. Refused.
- **Setuid, setgid, sticky**: a setuid program is a way to run as its owner.
  A file with such a bit is refused (a bot has no use for one); folders' bits
  are not kept. Files are written 0o644, or 0o755 when the archive marks them
  executable by their owner; folders 0o755; the owner is the server's user,
  whatever the archive says; timestamps are not kept.
- **Bombs**: a few kilobytes can unpack to terabytes, or to millions of
  files. Files and folders are counted and bytes budgeted as they are
  written (``max_files``, ``unpacked_mb``): each member is streamed, so
  writing stops at the limit whatever a header says. Files that unpack to
  more than ``max_ratio`` times the compressed bytes they come from (once
  past :attr:`UnpackLimits.ratio_after`) are a bomb. A zip is judged from
  its directory before a byte is written (each member, and all of them
  against the archive's size), once its compressed sizes are shown true:
  each member's bytes must end where the next member's begin, so entries
  that share their bytes (the overlapping-entries bomb) and forged sizes are
  refused; zipfile yields no more than a member's declared size, and a
  member holding less than declared is refused. A tar.gz is judged as it
  streams: the files' bytes written against the compressed bytes read. Its
  headers, which tarfile holds in memory whole (a pax header, a long name),
  may take 1 MB between two members' data; sparse members are refused.
- **Confusion**: two members of one name (which one wins depends on the
  tool), or a name that is both a file and a folder, refused.

``__MACOSX/`` folders and ``.DS_Store`` files (what macOS adds to an archive)
are checked like any member and then left out. A plain ``.tar`` is refused
with a line saying to compress it: the contract takes ``.zip`` and
``.tar.gz`` only. :func:`check_manifest` then reads ``bot.toml`` with the
arena's own schema and refuses a ``run`` or ``build`` command naming a path
outside the folder (the sandbox is the real defense; this names the mistake
or the probe at upload time). :func:`content_digest` tells identical uploads
apart from new ones.

Standard library only; the web app translates :class:`ArchiveRefused` to 400
and :class:`TooLarge` to 413 (the contract's codes).
"""

from __future__ import annotations

import gzip
import hashlib
import itertools
import os
import re
import shlex
import shutil
import stat
import tarfile
import tempfile
import tomllib
import zipfile
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from arena.bots.spec import MANIFEST, manifest_problem
from arena.errors import ArenaError

MB = 1024 * 1024
#: Bytes read and written at a time: what one member may hold in memory.
CHUNK = 64 * 1024
#: The largest bot.toml read (a manifest is a few lines).
MANIFEST_BYTES = 64 * 1024
#: Names (a whole part) that macOS adds to archives: checked, then left out.
IGNORED_FOLDERS = frozenset({"__MACOSX"})
IGNORED_FILES = frozenset({".DS_Store"})
#: The longest member name, and the longest part of one (the file systems' limit).
NAME_BYTES = 1024
PART_BYTES = 255
#: Bytes a tar.gz may unpack beyond the files' budget for each entry: headers, padding,
#: long names.
TAR_OVERHEAD = 2048
#: The most bytes of a tar.gz between two members' data: headers, a pax header or a long
#: name (held in memory whole), a left-out member (a .DS_Store).
TAR_GAP = MB
#: Mode bits an upload may not carry.
_SPECIAL_BITS = stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX
_DRIVE = re.compile(r"^[A-Za-z]:")
#: What separates the paths a command names: spaces, shell punctuation, ``--x=PATH``.
_PATH_SEPARATORS = re.compile(r"[\s=:;,&|()<>`'\"]+")


class ArchiveRefused(ArenaError):
    """A bad upload (400): a line naming the problem, e.g. ``'../x': a '..' part ...``."""

    status = 400


class TooLarge(ArchiveRefused):
    """An upload past a size limit (413): too many bytes or files unpacked."""

    status = 413


@dataclass(frozen=True)
class UnpackLimits:
    """What one upload may unpack to."""

    #: The most bytes of files, all members together (``[server] unpacked_mb``).
    unpacked_bytes: int
    #: The most files and folders (``[server] max_files``).
    max_files: int
    #: The most files may expand from their compressed bytes (a zip's member, a zip, a
    #: tar.gz): a bomb's mark. Source code packs 3 to 10 times.
    max_ratio: float = 100.0
    #: Bytes unpacked before a ratio is judged: a small file that compresses well (a
    #: blank table) harms no one.
    ratio_after: int = MB

    @classmethod
    def from_server(cls, server: Mapping[str, Any]) -> UnpackLimits:
        """The limits of a server config's ``[server]`` table (defaults filled in)."""
        return cls(unpacked_bytes=int(server["unpacked_mb"]) * MB, max_files=server["max_files"])


def unpack(source: IO[bytes], scratch_parent: Path, limits: UnpackLimits) -> Path:
    """Unpack the archive ``source`` (all of it, seekable) into a new folder of
    ``scratch_parent``: the bot's folder, ``bot.toml`` at its root.

    The format is read from the first bytes: a zip (``PK``) or a gzip holding a
    tar. Every member is checked before it is written (see the module's
    docstring), and the bytes and entries counted as they are written. A bot
    packed in one top folder (``mybot/bot.toml``) is lifted out of it. The
    folder returned is a direct child of ``scratch_parent`` (so on its file
    system: the caller renames it into place, or removes it).

    Raises:
        TooLarge: more files or bytes than ``limits`` allow.
        ArchiveRefused: anything else wrong, in one line; nothing is left behind.
    """
    start = source.tell()
    head = source.read(512)
    source.seek(start)
    kind = _kind(head)
    root = Path(tempfile.mkdtemp(prefix="unpacking-", dir=scratch_parent))
    try:
        tree = _Tree(root, limits)
        if kind == "zip":
            _unzip(source, tree)
        else:
            _untar(source, tree)
        return _lifted(_bot_folder(root), root, scratch_parent)
    except BaseException:
        _discard(root)
        raise


def check_manifest(folder: Path) -> str:
    """The bot's name, from ``folder``'s ``bot.toml``, checked for an upload.

    The manifest is read as every bot folder's is (the schema of
    :func:`arena.bots.spec.manifest_schema`, the limits' checks) and, for an
    upload, must give ``name`` (the bot's name in the competition); ``run`` and
    ``build`` may not name a path outside the folder: an absolute path, ``~``,
    or one with a ``..`` part.

    Raises:
        ArchiveRefused: the first problem, in one line.
    """
    path = folder / MANIFEST
    try:
        with open(path, "rb") as file:
            raw = file.read(MANIFEST_BYTES + 1)
    except OSError as error:
        raise ArchiveRefused(f"{MANIFEST} cannot be read: {error.strerror}") from None
    if len(raw) > MANIFEST_BYTES:
        raise ArchiveRefused(f"{MANIFEST} is larger than {MANIFEST_BYTES // 1024} KB")
    try:
        manifest = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ArchiveRefused(f"{MANIFEST} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise ArchiveRefused(f"{MANIFEST} is not valid TOML: {_line(str(error))}") from None
    problem = manifest_problem(manifest)
    if problem is not None:
        raise ArchiveRefused(f"{MANIFEST}: {_line(problem)}")
    for key in ("run", "build"):
        if key in manifest:
            _check_command(key, manifest[key])
    name = manifest.get("name")
    if name is None:
        raise ArchiveRefused(
            f'{MANIFEST} has no name: an upload is known by it (add name = "mybot")'
        )
    return str(name)


def content_digest(folder: Path) -> str:
    """A SHA-256 (hex) of ``folder``'s files: each one's path relative to ``folder``,
    whether it is executable, and its bytes, in the order of the paths.

    Timestamps, owners, folders and the order of an archive's members are left
    out, so the same files uploaded twice, as a zip or as a tar.gz, give one
    digest and the server gives the version they made before.
    """
    digest = hashlib.sha256()
    for relative, path in sorted(_files(folder, ())):
        info = path.lstat()
        digest.update(relative + b"\0")
        if stat.S_ISLNK(info.st_mode):
            digest.update(b"l" + os.fsencode(os.readlink(path)) + b"\0")
            continue
        executable = b"x" if info.st_mode & stat.S_IXUSR else b"-"
        digest.update(executable + info.st_size.to_bytes(8, "big"))
        with open(path, "rb") as file:
            while chunk := file.read(MB):
                digest.update(chunk)
    return digest.hexdigest()


def _files(folder: Path, parts: tuple[bytes, ...]) -> Iterator[tuple[bytes, Path]]:
    """Every file under ``folder`` (not folders), as (relative path in bytes, path)."""
    with os.scandir(folder) as entries:
        for entry in entries:
            here = (*parts, os.fsencode(entry.name))
            if entry.is_dir(follow_symlinks=False):
                yield from _files(Path(entry.path), here)
            else:
                yield b"/".join(here), Path(entry.path)


# --- the format --------------------------------------------------------------------------

#: First bytes of formats that are not taken, and what to call them.
_LOOKALIKES = (
    (b"BZh", "a bzip2 file"),
    (b"\xfd7zXZ\x00", "an xz file"),
    (b"\x28\xb5\x2f\xfd", "a zstd file"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
    (b"%PDF", "a PDF document"),
    (b"MZ", "a Windows program"),
    (b"\x7fELF", "a Linux program"),
    (b"PK\x07\x08", "a zip split into parts"),
)


def _kind(head: bytes) -> str:
    """``zip`` or ``tar.gz``, from an upload's first bytes.

    Raises:
        ArchiveRefused: anything else, saying what it looks like.
    """
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return "zip"
    if head.startswith(b"\x1f\x8b"):
        return "tar.gz"
    if head[257:262] == b"ustar":
        raise ArchiveRefused(
            "a tar archive without compression: upload a .tar.gz (tar czf) or a .zip"
        )
    what = next((name for magic, name in _LOOKALIKES if head.startswith(magic)), None)
    if what is None:
        if not head:
            what = "an empty file"
        elif _is_text(head):
            what = "text"
        else:
            what = "unknown binary data"
    raise ArchiveRefused(f"not a .zip or .tar.gz archive: it looks like {what}")


def _is_text(head: bytes) -> bool:
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:  # perhaps cut in a character: judge what came before
        text = head[:-4].decode("utf-8", errors="replace")
    return "\ufffd" not in text and all(c.isprintable() or c in "\t\r\n" for c in text)


# --- names and entries -------------------------------------------------------------------


def _shown(name: str) -> str:
    """A member's name for a message: quoted, escaped (one line), cut if long."""
    return repr(name) if len(name) <= 80 else f"{name[:60]!r}... ({len(name)} characters)"


def _line(text: str) -> str:
    """``text`` on one line."""
    return " ".join(text.split())


def _relative(name: str) -> str:
    """A member's name as a relative path (``""``: the archive's root), or a refusal.

    Raises:
        ArchiveRefused: a name that could point outside the folder or confuse a tool.
    """
    shown = _shown(name)
    if "\0" in name:
        raise ArchiveRefused(f"{shown}: a NUL character in a name")
    if "\\" in name:
        raise ArchiveRefused(f"{shown}: a backslash in a name (pack with '/' between folders)")
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise ArchiveRefused(f"{shown}: a control character in a name")
    if name.startswith("/"):
        raise ArchiveRefused(f"{shown}: an absolute path (a member must stay in the folder)")
    if _DRIVE.match(name):
        raise ArchiveRefused(f"{shown}: a drive letter (a member must stay in the folder)")
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise ArchiveRefused(f"{shown}: a '..' part (a member must stay in the folder)")
    if len(os.fsencode(name)) > NAME_BYTES:
        raise ArchiveRefused(f"{shown}: a name longer than {NAME_BYTES} bytes")
    if any(len(os.fsencode(part)) > PART_BYTES for part in parts):
        raise ArchiveRefused(f"{shown}: a name part longer than {PART_BYTES} bytes")
    return "/".join(parts)


def _ignored(relative: str) -> bool:
    parts = relative.split("/")
    return parts[-1] in IGNORED_FILES or any(part in IGNORED_FOLDERS for part in parts)


def _refuse_type(shown: str, kind: int, what: str = "") -> None:
    """Refuse a member that is not a plain file or folder (``kind``: its S_IFMT)."""
    if kind == stat.S_IFLNK:
        raise ArchiveRefused(f"{shown}: a symbolic link{what} (links are not taken)")
    if kind in (stat.S_IFCHR, stat.S_IFBLK):
        raise ArchiveRefused(f"{shown}: a device file (not taken)")
    if kind == stat.S_IFIFO:
        raise ArchiveRefused(f"{shown}: a FIFO (not taken)")
    if kind == stat.S_IFSOCK:
        raise ArchiveRefused(f"{shown}: a socket (not taken)")
    if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
        raise ArchiveRefused(f"{shown}: an entry of unknown type {kind:o} (not taken)")


def _refuse_bits(shown: str, mode: int) -> None:
    if mode & _SPECIAL_BITS:
        bits = [
            name
            for bit, name in (
                (stat.S_ISUID, "setuid"),
                (stat.S_ISGID, "setgid"),
                (stat.S_ISVTX, "sticky"),
            )
            if mode & bit
        ]
        raise ArchiveRefused(f"{shown}: a file with the {'/'.join(bits)} bit (not taken)")


class _Tree:
    """The folder being written: every entry counted, every byte budgeted."""

    def __init__(self, root: Path, limits: UnpackLimits) -> None:
        self.root = root
        self.limits = limits
        self.entries = 0
        self.bytes = 0
        #: The compressed bytes read so far (a zip: all of it), against which the
        #: bytes written are judged (a bomb), or None.
        self.packed: Callable[[], int] | None = None
        self.named: set[str] = set()
        self.folders: set[str] = {""}
        self.files: set[str] = set()

    def _count(self) -> None:
        self.entries += 1
        if self.entries > self.limits.max_files:
            raise TooLarge(f"more than {self.limits.max_files} files and folders (the limit)")

    def _name(self, relative: str, shown: str) -> None:
        if relative in self.named:
            raise ArchiveRefused(f"{shown}: two members of this name")
        self.named.add(relative)

    def _parents(self, relative: str, shown: str) -> None:
        parts = relative.split("/")
        for depth in range(1, len(parts)):
            self._make("/".join(parts[:depth]), shown)

    def _make(self, relative: str, shown: str) -> None:
        if relative in self.folders:
            return
        if relative in self.files:
            raise ArchiveRefused(f"{shown}: {relative!r} is both a file and a folder")
        self._count()
        try:
            os.mkdir(self.root / relative, 0o755)
        except (FileExistsError, NotADirectoryError):
            raise ArchiveRefused(f"{shown}: {relative!r} is both a file and a folder") from None
        os.chmod(self.root / relative, 0o755)  # whatever the umask
        self.folders.add(relative)

    def folder(self, relative: str, shown: str) -> None:
        """Make the folder ``relative`` (and those above it)."""
        self._name(relative, shown)
        self._parents(relative, shown)
        self._make(relative, shown)

    def file(self, relative: str, shown: str, data: IO[bytes], executable: bool) -> int:
        """Write the file ``relative`` from ``data``, stopping at the budget or when
        the bytes written pass ``max_ratio`` times the compressed bytes read; its size."""
        self._name(relative, shown)
        self._parents(relative, shown)
        if relative in self.folders:
            raise ArchiveRefused(f"{shown}: {relative!r} is both a file and a folder")
        self._count()
        self.files.add(relative)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            handle = os.open(self.root / relative, flags, 0o600)
        except (FileExistsError, IsADirectoryError, NotADirectoryError):
            raise ArchiveRefused(f"{shown}: {relative!r} is both a file and a folder") from None
        written = 0
        limits = self.limits
        with open(handle, "wb") as out:
            while chunk := data.read(CHUNK):
                written += len(chunk)
                if self.bytes + written > limits.unpacked_bytes:
                    raise TooLarge(
                        f"the bot unpacks to more than {_size(limits.unpacked_bytes)} (the limit)"
                    )
                if self.packed is not None and _expands(
                    self.bytes + written, self.packed(), limits
                ):
                    raise _bomb("the archive", "its size", limits)
                out.write(chunk)
            os.fchmod(out.fileno(), 0o755 if executable else 0o644)
        self.bytes += written
        return written


def _expands(unpacked: int, packed: int, limits: UnpackLimits) -> bool:
    """Whether ``unpacked`` bytes out of ``packed`` are a bomb's expansion."""
    return unpacked > limits.ratio_after and unpacked > limits.max_ratio * max(packed, 1)


def _bomb(what: str, size: str, limits: UnpackLimits) -> ArchiveRefused:
    return ArchiveRefused(
        f"{what} unpacks to more than {limits.max_ratio:g} times {size} (a decompression bomb?)"
    )


def _size(count: int) -> str:
    return f"{count / MB:g} MB" if count >= MB else f"{count} bytes"


# --- zip ---------------------------------------------------------------------------------

_ZIP_ERRORS = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    NotImplementedError,  # a compression method zipfile lacks
    RuntimeError,  # encrypted
    EOFError,
    zlib.error,
    ValueError,  # lzma's and bz2's errors, and zipfile's own
)


def _unzip(source: IO[bytes], tree: _Tree) -> None:
    start = source.tell()
    size = source.seek(0, os.SEEK_END) - start
    source.seek(start)
    tree.packed = lambda: size
    try:
        with zipfile.ZipFile(source) as archive:
            _check_zip(archive, size, tree.limits)
            for info in archive.infolist():
                _unzip_member(archive, info, tree)
    except ArchiveRefused:
        raise
    except _ZIP_ERRORS as error:
        raise ArchiveRefused(
            f"a damaged zip: {_line(str(error)) or type(error).__name__}"
        ) from None


def _check_zip(archive: zipfile.ZipFile, size: int, limits: UnpackLimits) -> None:
    """What the central directory alone shows.

    Each member's compressed bytes end before the next member starts, the last
    before the directory: entries that share their bytes are the overlapping
    bomb, and a compressed size that runs on is forged (to make a bomb's
    ratio look modest). So each compressed size is true, or refused here; and
    zipfile yields no more than a member's declared size (a CRC error where its
    data hold more), so the declared sizes, checked against the limits and the
    ratio here, bound what is written (a lie the other way is caught later).
    """
    infos = archive.infolist()
    ordered = sorted(infos, key=lambda info: info.header_offset)
    for before, after in itertools.pairwise(ordered):
        if after.header_offset < before.header_offset + 30 + before.compress_size:
            raise ArchiveRefused(
                f"{_shown(before.orig_filename)} and {_shown(after.orig_filename)} share "
                "their bytes (overlapping entries: a zip bomb)"
            )
    if ordered and ordered[-1].header_offset + 30 + ordered[-1].compress_size > archive.start_dir:
        raise ArchiveRefused(
            f"{_shown(ordered[-1].orig_filename)}: its compressed size runs into the zip's "
            "directory (a forged header)"
        )
    kept = [info for info in infos if not _ignored(info.filename.strip("/"))]
    if len(kept) > limits.max_files:
        raise TooLarge(f"more than {limits.max_files} files and folders (the limit)")
    declared = sum(info.file_size for info in kept)
    if declared > limits.unpacked_bytes:
        raise TooLarge(f"the bot unpacks to more than {_size(limits.unpacked_bytes)} (the limit)")
    if _expands(declared, size, limits):
        raise _bomb("the archive", "its size", limits)


def _unzip_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, tree: _Tree) -> None:
    shown = _shown(info.orig_filename)
    relative = _relative(info.orig_filename)
    mode = info.external_attr >> 16  # Unix's mode, where the packer wrote one
    kind = stat.S_IFMT(mode)
    # Not ZipInfo.is_dir(), which fails on a member with no name at all (IndexError).
    is_dir = info.filename.endswith("/")
    _refuse_type(shown, kind)
    _refuse_bits(shown, mode if kind != stat.S_IFDIR and not is_dir else 0)
    if info.flag_bits & 0x1:
        raise ArchiveRefused(f"{shown}: an encrypted member (not taken)")
    if _ignored(relative):
        return
    if is_dir or kind == stat.S_IFDIR:
        if relative:
            tree.folder(relative, shown)
        return
    if not relative:
        raise ArchiveRefused(f"{shown}: a file without a name")
    declared = info.file_size
    if _expands(declared, info.compress_size, tree.limits):  # both sizes checked (_check_zip)
        raise _bomb(f"{shown}:", "its compressed size", tree.limits)
    with archive.open(info) as data:
        size = tree.file(relative, shown, data, bool(mode & stat.S_IXUSR))
    if size != declared:
        raise ArchiveRefused(f"{shown}: holds {size} bytes, its header says {declared}")


# --- tar.gz ------------------------------------------------------------------------------


class _Counted:
    """The upload as gzip reads it: the compressed bytes read, counted."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw
        self.count = 0

    def read(self, size: int = -1) -> bytes:
        data = self.raw.read(size)
        self.count += len(data)
        return data

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        return self.raw.seek(offset, whence)  # not called: gzip reads straight on


class _Metered:
    """The unpacked tar stream as tarfile reads it, headers and long names included.

    Stopped past the budget, and where more than :data:`TAR_GAP` bytes come
    between two members' data: tarfile holds a pax header or a long name in
    memory whole, so a forged one of gigabytes (all zeros, a few kilobytes
    packed) would fill the server's memory before any file is written.
    """

    def __init__(self, source: IO[bytes], limits: UnpackLimits) -> None:
        self.packed = _Counted(source)
        self.inner = gzip.GzipFile(fileobj=self.packed, mode="rb")
        self.limits = limits
        self.cap = limits.unpacked_bytes + TAR_OVERHEAD * (limits.max_files + 1)
        self.count = 0
        #: Bytes read since the last member's data (headers, padding, left-out members).
        self.gap = 0
        #: Whether a member's data is being read (budgeted by :class:`_Tree`).
        self.in_data = False

    def read(self, size: int = -1) -> bytes:
        data = self.inner.read(CHUNK if size < 0 else min(size, CHUNK))
        self.count += len(data)
        if self.count > self.cap:
            raise TooLarge(
                f"the bot unpacks to more than {_size(self.limits.unpacked_bytes)} (the limit)"
            )
        if not self.in_data:
            self.gap += len(data)
            if self.gap > TAR_GAP:
                raise ArchiveRefused(
                    f"more than {_size(TAR_GAP)} of tar headers (or of a left-out member) in a row"
                )
        return data


_TAR_ERRORS = (tarfile.TarError, gzip.BadGzipFile, EOFError, zlib.error)


def _untar(source: IO[bytes], tree: _Tree) -> None:
    stream = _Metered(source, tree.limits)
    tree.packed = lambda: stream.packed.count
    seen = False
    try:
        with tarfile.open(fileobj=stream, mode="r|") as archive:  # type: ignore[call-overload]
            for member in archive:
                seen = True
                stream.gap = 0
                _untar_member(archive, member, tree, stream)
    except ArchiveRefused:
        raise
    except _TAR_ERRORS as error:
        what = "a damaged tar.gz" if seen else "a gzip file that holds no tar archive"
        raise ArchiveRefused(f"{what}: {_line(str(error)) or type(error).__name__}") from None


def _untar_member(
    archive: tarfile.TarFile, member: tarfile.TarInfo, tree: _Tree, stream: _Metered
) -> None:
    shown = _shown(member.name)
    relative = _relative(member.name)
    if member.issym():
        _refuse_type(shown, stat.S_IFLNK, f" to {_shown(member.linkname)}")
    if member.islnk():
        raise ArchiveRefused(
            f"{shown}: a hard link to {_shown(member.linkname)} (links are not taken)"
        )
    if member.ischr() or member.isblk():
        _refuse_type(shown, stat.S_IFCHR)
    if member.isfifo():
        _refuse_type(shown, stat.S_IFIFO)
    if not (member.isreg() or member.isdir()):
        raise ArchiveRefused(f"{shown}: an entry of tar type {member.type!r} (not taken)")
    if member.issparse():
        raise ArchiveRefused(f"{shown}: a sparse file (not taken)")
    if member.isreg():
        _refuse_bits(shown, member.mode)
    try:  # Python's own checks, a second opinion on what is checked above
        tarfile.data_filter(member, str(tree.root))
    except tarfile.FilterError as error:
        raise ArchiveRefused(f"{shown}: {_line(str(error))}") from None
    if _ignored(relative):
        return
    if not relative:
        if member.isreg():
            raise ArchiveRefused(f"{shown}: a file without a name")
        return
    if member.isdir():
        tree.folder(relative, shown)
        return
    data = archive.extractfile(member)
    if data is None:  # pragma: no cover - a regular member always has its data
        raise ArchiveRefused(f"{shown}: no data")
    stream.in_data = True
    with data:
        tree.file(relative, shown, data, bool(member.mode & stat.S_IXUSR))
    stream.in_data = False
    stream.gap = 0


# --- the bot's folder --------------------------------------------------------------------


def _bot_folder(root: Path) -> Path:
    """The folder with ``bot.toml``: the archive's root, or its one top folder.

    Raises:
        ArchiveRefused: neither holds one.
    """
    if (root / MANIFEST).is_file():
        return root
    children = list(root.iterdir())
    if len(children) == 1 and children[0].is_dir() and (children[0] / MANIFEST).is_file():
        return children[0]
    raise ArchiveRefused(f"no {MANIFEST} at the archive's root or in its one top folder")


def _lifted(folder: Path, root: Path, scratch_parent: Path) -> Path:
    """``folder`` as a direct child of ``scratch_parent``, mode 0o755: ``root`` itself,
    or its one top folder moved up (``root``, then empty, removed)."""
    if folder != root:
        lifted = Path(tempfile.mkdtemp(prefix="unpacked-", dir=scratch_parent))
        try:
            os.rename(folder, lifted)  # onto an empty folder: allowed, and atomic
            os.rmdir(root)
        except BaseException:
            _discard(lifted)
            raise
        folder = lifted
    os.chmod(folder, 0o755)
    return folder


def _discard(folder: Path) -> None:
    """Remove a temporary folder and what is in it."""
    shutil.rmtree(folder, ignore_errors=True)


# --- bot.toml's commands -----------------------------------------------------------------


def _check_command(key: str, command: str) -> None:
    """Refuse a command naming a path outside the bot's folder.

    Each token is cut at spaces and shell punctuation (``sh -c 'cd .. && make'``,
    ``--data=/etc/x``), and each piece must be a relative path without ``..``.

    Raises:
        ArchiveRefused: the first such path, in one line.
    """
    try:
        tokens = shlex.split(command)
    except ValueError as error:
        raise ArchiveRefused(f"{MANIFEST}: {key}: cannot split the command: {error}") from None
    for token in tokens:
        for piece in _PATH_SEPARATORS.split(token):
            if piece.startswith(("/", "~")):
                where = "an absolute path"
            elif ".." in piece.split("/"):
                where = "a path with a '..' part"
            else:
                continue
            raise ArchiveRefused(
                f"{MANIFEST}: {key} names {where}, {_shown(piece)}: a command may name only "
                "files in the bot's folder"
            )
