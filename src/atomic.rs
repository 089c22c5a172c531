//! Writes that are all or nothing: a temp file beside the target, synced, then renamed
//! over it. A crash or a full disk leaves either the old file or the new one, never half.

use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use tempfile::NamedTempFile;

/// New content for a file, written and synced, waiting to be renamed into place.
pub struct Prepared(NamedTempFile);

/// Writes `bytes` with `mode` into a temp file in `path`'s directory.
pub fn prepare(path: &Path, bytes: &[u8], mode: u32) -> io::Result<Prepared> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".git-guard-")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file()
        .set_permissions(std::fs::Permissions::from_mode(mode))?;
    tmp.as_file().sync_all()?;
    Ok(Prepared(tmp))
}

impl Prepared {
    /// Renames the new content over `path`.
    pub fn replace(self, path: &Path) -> io::Result<()> {
        self.0.persist(path).map(drop).map_err(|e| e.error)
    }

    /// Renames the new content to `path` only if nothing is there yet.
    pub fn create(self, path: &Path) -> io::Result<()> {
        self.0
            .persist_noclobber(path)
            .map(drop)
            .map_err(|e| e.error)
    }
}

/// Replaces (or creates) `path` with `bytes` and `mode`, atomically.
pub fn write(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    prepare(path, bytes, mode)?.replace(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replace_swaps_whole_files_and_create_never_clobbers() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        write(&path, b"one", 0o644).unwrap();
        write(&path, b"two", 0o755).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(
            std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o755
        );
        let err = prepare(&path, b"three", 0o644)
            .unwrap()
            .create(&path)
            .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temp file left behind");
    }
}
