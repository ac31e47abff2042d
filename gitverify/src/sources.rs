//! What a path names: a pack (with its `.idx` when one is beside it), an
//! index, a bundle, a repository's work tree, its `.git` directory (or a
//! bare repository), or an `objects` directory; each becomes the packs and
//! loose objects to verify.

use std::path::{Path, PathBuf};

use crate::bundle;
use crate::error::SourceError;
use crate::files::{self, FileKind, Files, SystemFiles};

/// One file (or set of loose objects) to verify.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A pack, with the index to check it against (or none: index-less).
    Pack {
        /// The `.pack` file.
        pack: PathBuf,
        /// Its `.idx`, if one is used.
        index: Option<PathBuf>,
    },
    /// A bundle: its pack is verified index-less.
    Bundle(PathBuf),
    /// The loose objects of an `objects` directory.
    Loose(PathBuf),
    /// A pack in memory (tests, fuzzing).
    Bytes(Vec<u8>),
}

/// The sources `path` names; `path` may be a file or directory as listed
/// in the module's documentation.
pub fn sources(path: &Path) -> Result<Vec<Source>, SourceError> {
    sources_in(&SystemFiles, path)
}

/// [`sources`] in `files`.
pub fn sources_in(files: &dyn Files, path: &Path) -> Result<Vec<Source>, SourceError> {
    let kind = files.kind(path).map_err(SourceError::io(path))?;
    if kind == FileKind::File {
        if let Some(repo) = pack_repository(files, path) {
            check_format(files, &repo)?;
        }
        return file_source(files, path).map(|s| vec![s]);
    }
    let objects = objects_dir(files, path)?;
    if let Some(repo) = objects.parent() {
        check_format(files, repo)?;
    }
    Ok(objects_sources(files, &objects))
}

/// What a command run without a path checks: the objects directory git
/// itself would use, `$GIT_OBJECT_DIRECTORY` (in a `pre-receive` hook,
/// the quarantine holding the pushed objects), else that of `$GIT_DIR`
/// or of the nearest repository up from `cwd`.
pub fn current_sources(cwd: &Path) -> Result<Vec<Source>, SourceError> {
    let var = |name| std::env::var_os(name).filter(|d| !d.is_empty());
    let (git_dir, objects) = (var("GIT_DIR"), var("GIT_OBJECT_DIRECTORY"));
    current_sources_in(&SystemFiles, cwd, git_dir.as_deref(), objects.as_deref())
}

/// [`current_sources`] in `files`, with the values of `$GIT_DIR` and
/// `$GIT_OBJECT_DIRECTORY` (none where unset or empty).
pub fn current_sources_in(
    files: &dyn Files,
    cwd: &Path,
    git_dir: Option<&std::ffi::OsStr>,
    object_directory: Option<&std::ffi::OsStr>,
) -> Result<Vec<Source>, SourceError> {
    match object_directory {
        Some(objects) => {
            if let Some(dir) = git_dir {
                check_format(files, Path::new(dir))?;
            }
            let objects = PathBuf::from(objects);
            if !files.is_dir(&objects) {
                return Err(SourceError::ObjectDirectoryVariable(objects));
            }
            Ok(objects_sources(files, &objects))
        }
        None => {
            let repo = match git_dir {
                Some(dir) => PathBuf::from(dir),
                None => cwd
                    .ancestors()
                    .find(|d| files.exists(&d.join(".git")) || is_git_dir(files, d))
                    .ok_or(SourceError::NotInRepository)?
                    .to_path_buf(),
            };
            sources_in(files, &repo)
        }
    }
}

/// The packs (`pack/*.pack`, each with its `.idx` when there is one) and
/// the loose objects of an objects directory.
fn objects_sources(files: &dyn Files, objects: &Path) -> Vec<Source> {
    let mut out = Vec::new();
    let pack_dir = objects.join("pack");
    if let Ok(list) = files.list(&pack_dir) {
        let mut packs: Vec<PathBuf> = list
            .into_iter()
            .filter(|p| p.extension().is_some_and(|x| x == "pack"))
            .collect();
        packs.sort();
        for pack in packs {
            let idx = pack.with_extension("idx");
            out.push(Source::Pack {
                index: files.is_file(&idx).then_some(idx),
                pack,
            });
        }
    }
    out.push(Source::Loose(objects.to_path_buf()));
    out
}

/// The object directories `sources`' repositories borrow from
/// (`objects/info/alternates`), which are not verified unless named.
pub fn alternates(sources: &[Source]) -> Vec<PathBuf> {
    alternates_in(&SystemFiles, sources)
}

/// [`alternates`] in `files`.
pub fn alternates_in(files: &dyn Files, sources: &[Source]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for source in sources {
        let Source::Loose(objects) = source else {
            continue;
        };
        let Ok(text) = files::read_to_string(files, &objects.join("info/alternates")) else {
            continue;
        };
        let lines = text.lines().map(str::trim);
        for line in lines.filter(|l| !l.is_empty() && !l.starts_with('#')) {
            out.push(objects.join(line));
        }
    }
    out
}

/// Refuses a repository whose objects are not named by SHA-1
/// (`extensions.objectFormat`, `git init --object-format=sha256`): its
/// ids are another hash, and its packs' trailers would read as damage.
fn check_format(files: &dyn Files, git_dir: &Path) -> Result<(), SourceError> {
    let Ok(config) = files::read_to_string(files, &git_dir.join("config")) else {
        return Ok(());
    };
    let mut section = String::new();
    for line in config.lines().map(str::trim) {
        if let Some(name) = line.strip_prefix('[') {
            let name = name.split(|c: char| c == ']' || c.is_whitespace()).next();
            section = name.unwrap_or("").to_ascii_lowercase();
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let value = value.trim().trim_matches('"').to_ascii_lowercase();
        if section == "extensions"
            && key.trim().eq_ignore_ascii_case("objectformat")
            && value != "sha1"
        {
            return Err(SourceError::ObjectFormat {
                git_dir: git_dir.to_path_buf(),
                format: value,
            });
        }
    }
    Ok(())
}

/// The git directory holding a pack or index named directly, if it lies in
/// one (`<git dir>/objects/pack/<file>`).
fn pack_repository(files: &dyn Files, file: &Path) -> Option<PathBuf> {
    let file = files.canonical(file).ok()?;
    let pack_dir = file.parent().filter(|d| d.ends_with("pack"))?;
    let objects = pack_dir.parent().filter(|d| d.ends_with("objects"))?;
    objects.parent().map(Path::to_path_buf)
}

/// Whether `dir` is a git directory (a bare repository or a `.git`).
fn is_git_dir(files: &dyn Files, dir: &Path) -> bool {
    files.is_file(&dir.join("HEAD")) && files.is_dir(&dir.join("refs"))
}

/// A single file: a pack, an index (its pack beside it) or a bundle.
fn file_source(files: &dyn Files, path: &Path) -> Result<Source, SourceError> {
    let mut head = [0u8; 16];
    let n = {
        let f = files::open_regular(files, path).map_err(SourceError::io(path))?;
        let n = f.len().min(16) as usize;
        f.read_at(0, &mut head[..n])
            .map_err(SourceError::io(path))?;
        n
    };
    let head = &head[..n];
    // A `.pack` that does not start as one is still verified as one, so
    // that its damage is reported as such.
    if head.starts_with(b"PACK") || path.extension().is_some_and(|x| x == "pack") {
        let idx = path.with_extension("idx");
        let index =
            (path.extension().is_some_and(|x| x == "pack") && files.is_file(&idx)).then_some(idx);
        Ok(Source::Pack {
            pack: path.to_path_buf(),
            index,
        })
    } else if head.starts_with(&[0xff, b't', b'O', b'c'])
        || path.extension().is_some_and(|x| x == "idx")
    {
        let pack = path.with_extension("pack");
        if !files.is_file(&pack) {
            return Err(SourceError::IndexWithoutPack {
                index: path.to_path_buf(),
                pack,
            });
        }
        Ok(Source::Pack {
            pack,
            index: Some(path.to_path_buf()),
        })
    } else if bundle::is_bundle(head) {
        Ok(Source::Bundle(path.to_path_buf()))
    } else {
        Err(SourceError::NotAnObjectFile(path.to_path_buf()))
    }
}

/// The objects directory of the repository at `path`, whether `path` is
/// its work tree, its git directory or the objects directory itself.
fn objects_dir(files: &dyn Files, path: &Path) -> Result<PathBuf, SourceError> {
    let not_repo = || SourceError::NotARepository(path.to_path_buf());
    let dot_git = path.join(".git");
    let git_dir = if files.is_dir(&dot_git) {
        dot_git
    } else if files.is_file(&dot_git) {
        // A linked work tree or submodule: `gitdir: <path>`.
        let text = files::read_to_string(files, &dot_git).map_err(SourceError::io(&dot_git))?;
        let target = PathBuf::from(text.strip_prefix("gitdir:").ok_or_else(not_repo)?.trim());
        if target.is_absolute() {
            target
        } else {
            path.join(target)
        }
    } else if files.is_dir(&path.join("objects")) || is_git_dir(files, path) {
        path.to_path_buf()
    } else if files.is_dir(&path.join("pack")) || files.is_dir(&path.join("info")) {
        return Ok(path.to_path_buf());
    } else {
        return Err(not_repo());
    };
    // A linked work tree's objects are in the common directory.
    let common = match files::read_to_string(files, &git_dir.join("commondir")) {
        Ok(c) => {
            let c = PathBuf::from(c.trim());
            if c.is_absolute() { c } else { git_dir.join(c) }
        }
        Err(_) => git_dir,
    };
    let objects = common.join("objects");
    if files.is_dir(&objects) {
        Ok(objects)
    } else {
        Err(SourceError::NoObjectsDir(common))
    }
}
