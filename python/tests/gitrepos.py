"""Git repositories made for the tests (by the git on PATH): files committed
into a repository, packed or left loose, and the command `git-sha1dc` built
here to compare with."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from conftest import DATA, ROOT, unavailable

# The public collision files: each flagged by the content check, none by
# the object check (git's header moves their blocks).
COLLISION_FILES = ["shattered-1.pdf", "shattered-2.pdf", "sha-mbles-1.bin", "sha-mbles-2.bin"]

# The same commits whoever runs the tests: no user config, fixed dates.
ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.org",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.org",
    "GIT_AUTHOR_DATE": "2017-02-23T12:00:00Z",
    "GIT_COMMITTER_DATE": "2017-02-23T12:00:00Z",
}


def git(*args: str, cwd: Path) -> str:
    """Runs git in `cwd`; its standard output."""
    if shutil.which("git") is None:
        unavailable("git is not installed")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")} | ENV
    p = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert p.returncode == 0, (args, p.stderr)
    return p.stdout


def make_repo(path: Path, files: dict[str, bytes], *, packed: bool, commits: int = 1) -> Path:
    """A repository at `path` holding `files` (spread over `commits`
    commits), its objects in one pack (`git repack -ad`) or loose."""
    path.mkdir(parents=True)
    git("init", "-q", "-b", "main", cwd=path)
    names = sorted(files)
    for i in range(commits):
        for name in names[i::commits]:
            (path / name).write_bytes(files[name])
            git("add", name, cwd=path)
        git("commit", "-q", "--allow-empty", "-m", f"commit {i}", cwd=path)
    if packed:
        git("repack", "-adq", cwd=path)
    return path


def collision_files() -> dict[str, bytes]:
    """The public collision files and a small text."""
    files = {name: (DATA / name).read_bytes() for name in COLLISION_FILES}
    files["README"] = b"collision files, as a repository might hold them for a test\n"
    return files


def blob_id(content: bytes) -> str:
    import hashlib

    return hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()


def object_sizes(repo: Path) -> list[int]:
    """The content size of every object of `repo`, as git lists them."""
    out = git("cat-file", "--batch-all-objects", "--batch-check=%(objectsize)", cwd=repo)
    return [int(line) for line in out.split()]


def git_sha1dc() -> str:
    """The command built here (cargo build --release --bin git-sha1dc;
    GIT_SHA1DC names another)."""
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    path = os.environ.get("GIT_SHA1DC", str(target / "release" / "git-sha1dc"))
    if not os.access(path, os.X_OK):
        unavailable(f"no git-sha1dc at {path} (cargo build --release --bin git-sha1dc)")
    return path


def damage_pack(pack: Path) -> None:
    """Flips a byte in the middle of `pack` (inside some entry's zlib stream)."""
    data = bytearray(pack.read_bytes())
    data[len(data) // 2] ^= 0x55
    pack.write_bytes(bytes(data))
