//! One game at a time per save folder: the folder's `.lock` file, held with
//! an exclusive advisory lock (`flock` on Unix, `LockFileEx` on Windows) for
//! as long as a game plays from the folder. The operating system drops the
//! lock when the process ends however it ends, so a killed game leaves no
//! stale lock behind; the file itself stays, empty, and is reused.
//!
//! Only `play` takes it: listing slots, `replay` and `check` read without it.

use super::SaveError;
use std::fs::{File, OpenOptions, TryLockError};
use std::path::Path;

/// Held while a game plays from the folder; released on drop.
#[derive(Debug)]
pub struct FolderLock {
    _file: File,
}

/// The lock file's name in the save folder.
pub const LOCK_FILE: &str = ".lock";

/// Why the folder could not be locked.
#[derive(Debug)]
pub enum LockError {
    /// Another process holds it: another game plays from this folder.
    Busy(String),
    /// The folder or its lock file cannot be made or opened (a read-only
    /// folder): saves will fail too, and say so when they do.
    Unusable(SaveError),
}

impl FolderLock {
    /// Takes the folder's lock, creating the folder and the lock file if
    /// need be. A lock file that is a link or not a regular file is
    /// refused rather than followed.
    pub fn take(dir: &Path) -> Result<FolderLock, LockError> {
        let shown = dir.display().to_string();
        let unusable = |why: String| LockError::Unusable(SaveError::Folder(shown.clone(), why));
        std::fs::create_dir_all(dir).map_err(|err| unusable(err.to_string()))?;
        let path = dir.join(LOCK_FILE);
        if let Ok(meta) = std::fs::symlink_metadata(&path)
            && !meta.file_type().is_file()
        {
            return Err(unusable(format!(
                "{} is not a regular file",
                path.display()
            )));
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|err| unusable(format!("cannot open {}: {err}", path.display())))?;
        match file.try_lock() {
            Ok(()) => Ok(FolderLock { _file: file }),
            Err(TryLockError::WouldBlock) => Err(LockError::Busy(shown)),
            Err(TryLockError::Error(err)) => {
                Err(unusable(format!("cannot lock {}: {err}", path.display())))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_one_folder_is_refused_until_the_first_is_dropped() {
        let dir = std::env::temp_dir().join(format!("xiaoling-lock-{}", std::process::id()));
        let first = FolderLock::take(&dir).expect("the first lock");
        assert!(matches!(FolderLock::take(&dir), Err(LockError::Busy(_))));
        drop(first);
        let again = FolderLock::take(&dir).expect("free again");
        drop(again);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
