//! Files the game reads and writes, hardened: only regular files are read
//! (never a FIFO, a device or a symlink to one), always with a hard cap on the
//! bytes read whatever size the file reports; writes are atomic (temp file in
//! the same folder, synced, renamed), and temp files left by an interrupted
//! write are removed later.
//!
//! No dependency on the REPL or the story: plain paths and bytes.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Why a file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// No such file.
    Missing,
    /// A folder, FIFO, device, socket…: with what it is, in words.
    NotAFile(&'static str),
    /// Larger than the cap (in bytes).
    TooLarge(u64),
    /// Any other IO error.
    Io(std::io::Error),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Missing => write!(f, "no such file"),
            ReadError::NotAFile(what) => write!(f, "it is {what}, not a regular file"),
            ReadError::TooLarge(cap) => {
                write!(f, "it is larger than {}, far too large", human_bytes(*cap))
            }
            ReadError::Io(err) => write!(f, "{err}"),
        }
    }
}

/// "64 MB", "5,000 bytes".
pub fn human_bytes(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{} MB", bytes >> 20)
    } else {
        format!("{} bytes", crate::stdx::group_thousands(bytes))
    }
}

/// What a non-regular file is, in words.
fn kind_of(file_type: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a folder"
    } else {
        "not a plain file"
    }
}

/// Whether `path` is (or links to) a regular file.
pub fn is_regular(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// Reads a regular file (symlinks followed, but only to a regular file),
/// refusing anything larger than `cap` bytes. The cap is enforced on the
/// bytes actually read, not on the size the file reports.
pub fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    let io = |err: std::io::Error| match err.kind() {
        std::io::ErrorKind::NotFound => ReadError::Missing,
        _ => ReadError::Io(err),
    };
    // Checked before opening: opening a FIFO for reading blocks until a writer comes.
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(kind_of(meta.file_type())));
    }
    if meta.len() > cap {
        return Err(ReadError::TooLarge(cap));
    }
    let file = std::fs::File::open(path).map_err(io)?;
    // And again on what was opened, in case the path changed in between.
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(ReadError::NotAFile(kind_of(meta.file_type())));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len().min(cap)).unwrap_or(0));
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge(cap));
    }
    Ok(bytes)
}

/// The marker in the names of temp files: `.NAME.tmp-PID`.
const TEMP_MARK: &str = ".tmp-";

/// The temp file a write to `path` goes through first.
pub fn temp_path(dir: &Path, path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    dir.join(format!(".{name}{TEMP_MARK}{}", std::process::id()))
}

/// How many bytes a temp file's name adds to the name of the file it
/// becomes: the dot, the marker and a process id of up to 10 digits.
pub const TEMP_NAME_EXTRA: usize = 1 + TEMP_MARK.len() + 10;

/// Writes `bytes` to `path` atomically: a temp file in `dir` (the folder of
/// `path`, created if missing), synced, renamed over `path`, the folder synced.
/// On failure the temp file is removed and `path` is untouched.
pub fn write_atomic(dir: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_checked(dir, path, bytes, &|_| Ok(())).map_err(|err| match err {
        WriteError::Io(err) => err,
        WriteError::Refused(why) => std::io::Error::other(why),
    })
}

/// Why a checked write did not happen.
#[derive(Debug)]
pub enum WriteError {
    /// The file system refused it.
    Io(std::io::Error),
    /// What was written, read back, did not pass the check: why.
    Refused(String),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Io(err) => write!(f, "{err}"),
            WriteError::Refused(why) => write!(f, "{why}"),
        }
    }
}

/// Creates a new temp file at `temp`, never through a link: whatever is
/// there (a stale temp file, or a link planted in its place) is removed
/// first, and the file is created only if nothing is there
/// (`create_new`, O_EXCL, which does not follow a symlink), so no other
/// file is ever written.
fn create_temp(temp: &Path) -> std::io::Result<std::fs::File> {
    match std::fs::symlink_metadata(temp) {
        Ok(meta) if meta.is_dir() => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!("{} is a folder", temp.display()),
            ));
        }
        // Removing a link removes the link, not its target.
        Ok(_) => std::fs::remove_file(temp)?,
        Err(_) => {}
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o644);
    }
    options.open(temp)
}

/// Creates the file at `path` to write from the start (a transcript), never
/// through a link: a link there is refused, a regular file is replaced by a
/// new one (so another name for the same file is not written either), and
/// the file is made with `create_new` (O_EXCL), which follows no link.
pub fn create_plain(path: &Path) -> std::io::Result<std::fs::File> {
    let refuse = |what: &str| {
        Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            format!("it is {what}, not a plain file, and is left as it is"),
        ))
    };
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => return refuse("a link"),
        Ok(meta) if meta.is_file() => std::fs::remove_file(path)?,
        Ok(meta) => return refuse(kind_of(meta.file_type())),
        Err(_) => {}
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    options.open(path)
}

/// [`write_atomic`], with the temp file read back and checked by `check`
/// (given its path) before it replaces `path`: a file the check refuses is
/// removed and `path` keeps what it held.
pub fn write_atomic_checked(
    dir: &Path,
    path: &Path,
    bytes: &[u8],
    check: &dyn Fn(&Path) -> Result<(), String>,
) -> Result<(), WriteError> {
    write_atomic_checked_synced(dir, path, bytes, check, true)
}

/// [`write_atomic_checked`], the temp file and the folder synced only when
/// `sync` says so. Unsynced, the replacement is still atomic for anything
/// short of the machine stopping (a killed process leaves what it wrote to
/// the system): the autosave writer syncs such files a little later, in
/// one go ([`sync_file`]).
pub fn write_atomic_checked_synced(
    dir: &Path,
    path: &Path,
    bytes: &[u8],
    check: &dyn Fn(&Path) -> Result<(), String>,
    sync: bool,
) -> Result<(), WriteError> {
    std::fs::create_dir_all(dir).map_err(WriteError::Io)?;
    let temp = temp_path(dir, path);
    let mut created = false;
    let result = (|| -> Result<(), WriteError> {
        let mut file = create_temp(&temp).map_err(WriteError::Io)?;
        created = true;
        file.write_all(bytes).map_err(WriteError::Io)?;
        if sync {
            file.sync_all().map_err(WriteError::Io)?;
        }
        drop(file);
        check(&temp).map_err(WriteError::Refused)?;
        replace(&temp, path, sync).map_err(WriteError::Io)?;
        if sync && let Ok(folder) = std::fs::File::open(dir) {
            let _ = folder.sync_all();
        }
        Ok(())
    })();
    if result.is_err() && created {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// Puts the file at `temp` in the place of `path`, atomically. Unsynced, on
/// Linux, a file already at `path` is swapped with `temp` (`renameat2`'s
/// `RENAME_EXCHANGE`) and removed under its temp name: renaming over a file
/// makes ext4 write the new one out at once (`auto_da_alloc`), some 0.15 ms
/// of the system's CPU, which is the very sync an unsynced write leaves for
/// later. Where the exchange is refused (no file there yet, a file system
/// without it), a plain rename. A kill between the exchange and the removal
/// leaves the old save under a temp name, removed as a stale temp file.
fn replace(temp: &Path, path: &Path, sync: bool) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    if !sync && exchange(temp, path).is_ok() {
        let _ = std::fs::remove_file(temp);
        return Ok(());
    }
    #[cfg(not(target_os = "linux"))]
    let _ = sync;
    std::fs::rename(temp, path)
}

/// Swaps the files at `a` and `b` (both must exist).
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let a = std::ffi::CString::new(a.as_os_str().as_bytes())?;
    let b = std::ffi::CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: both are NUL-terminated paths that live across the call;
    // renameat2 reads them and keeps no pointer.
    let done = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if done == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Syncs a file written without it, then its folder (a rename in it).
pub fn sync_file(path: &Path) -> std::io::Result<()> {
    std::fs::File::open(path)?.sync_all()?;
    if let Some(dir) = path.parent()
        && let Ok(folder) = std::fs::File::open(if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        })
    {
        folder.sync_all()?;
    }
    Ok(())
}

/// Whether the process that wrote a temp file is gone. Where that cannot be
/// known (no `/proc`), a temp file older than ten minutes counts as stale.
fn writer_gone(pid: u32, path: &Path) -> bool {
    if pid == std::process::id() {
        return false;
    }
    let proc = Path::new("/proc");
    if proc.join("self").exists() {
        return !proc.join(pid.to_string()).exists();
    }
    std::fs::symlink_metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age.as_secs() > 600)
}

/// Removes the temp files (`.NAME.tmp-PID`) that writes interrupted by a
/// crash or a kill left in `dir`, when their writer is gone. Returns how many
/// were removed. Only regular files (or links) with that exact shape of name
/// are touched.
pub fn remove_stale_temps(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.filter_map(|e| e.ok()) {
        let name = entry.file_name().to_string_lossy().to_string();
        let Some(rest) = name.strip_prefix('.') else {
            continue;
        };
        let Some((_, pid)) = rest.rsplit_once(TEMP_MARK) else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        let path = entry.path();
        // A link with a temp file's name is removed too (the link, never
        // its target).
        let regular = entry
            .file_type()
            .is_ok_and(|t| t.is_file() || t.is_symlink());
        if regular && writer_gone(pid, &path) && std::fs::remove_file(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("xiaoling-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    #[test]
    fn an_unsynced_write_replaces_the_file_whole_and_leaves_no_temp_file() {
        let dir = temp_dir("unsynced");
        let path = dir.join("slot.ron");
        let ok = |_: &Path| Ok(());
        // No file there yet (a plain rename), then over one (exchanged).
        for text in ["first", "second, longer", "third"] {
            write_atomic_checked_synced(&dir, &path, text.as_bytes(), &ok, false).expect("write");
            assert_eq!(std::fs::read_to_string(&path).expect("read"), text);
            let names: Vec<_> = std::fs::read_dir(&dir)
                .expect("dir")
                .map(|e| e.expect("entry").file_name())
                .collect();
            assert_eq!(names, ["slot.ron"], "{names:?}");
        }
        // A refused write leaves the file as it was.
        let refuse = |_: &Path| Err("no".to_string());
        assert!(write_atomic_checked_synced(&dir, &path, b"x", &refuse, false).is_err());
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "third");
        sync_file(&path).expect("synced");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_cap_holds_whatever_the_file_says() {
        let dir = temp_dir("cap");
        let path = dir.join("big.ron");
        std::fs::write(&path, vec![b'x'; 101]).unwrap();
        assert!(matches!(
            read_capped(&path, 100),
            Err(ReadError::TooLarge(100))
        ));
        assert_eq!(read_capped(&path, 101).unwrap().len(), 101);
        #[cfg(unix)]
        {
            // A symlink to /dev/zero reports no size and never ends.
            let zero = dir.join("zero.ron");
            std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
            let err = read_capped(&zero, 100).unwrap_err();
            assert_eq!(err.to_string(), "it is a device, not a regular file");
        }
        assert!(matches!(
            read_capped(&dir.join("none.ron"), 100),
            Err(ReadError::Missing)
        ));
        let err = read_capped(&dir, 100).unwrap_err();
        assert_eq!(err.to_string(), "it is a folder, not a regular file");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn no_write_follows_a_link_at_the_temp_path_or_a_transcript() {
        let dir = temp_dir("links");
        let target = dir.join("precious.txt");
        std::fs::write(&target, "precious").unwrap();
        let slot = dir.join("quick.ron");
        let temp = temp_path(&dir, &slot);
        std::os::unix::fs::symlink(&target, &temp).unwrap();
        write_atomic(&dir, &slot, b"the save").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
        let meta = std::fs::symlink_metadata(&slot).unwrap();
        assert!(meta.is_file(), "the slot is a plain file, not a link");
        assert_eq!(std::fs::read_to_string(&slot).unwrap(), "the save");
        assert!(std::fs::symlink_metadata(&temp).is_err(), "no temp is left");
        // A transcript at a link is refused; at a plain file it is new.
        let link = dir.join("game.txt");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let err = create_plain(&link).unwrap_err();
        assert!(err.to_string().contains("a link"), "{err}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
        let plain = dir.join("plain.txt");
        std::fs::write(&plain, "old").unwrap();
        let mut file = create_plain(&plain).unwrap();
        file.write_all(b"new").unwrap();
        drop(file);
        assert_eq!(std::fs::read_to_string(&plain).unwrap(), "new");
        // A link with a temp file's name whose writer is gone is removed
        // (the link, not its target).
        if Path::new("/proc/self").exists() {
            let stale = dir.join(".other.ron.tmp-4294967295");
            std::os::unix::fs::symlink(&target, &stale).unwrap();
            assert_eq!(remove_stale_temps(&dir), 1);
            assert!(std::fs::symlink_metadata(&stale).is_err());
            assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn stale_temps_go_and_live_ones_stay() {
        let dir = temp_dir("stale");
        // A pid that cannot be running (above the kernel's maximum).
        let stale = dir.join(".quick.ron.tmp-4294967295");
        let mine = dir.join(format!(".quick.ron.tmp-{}", std::process::id()));
        let other = dir.join(".quick.ron.tmp-x");
        let slot = dir.join("quick.ron");
        for path in [&stale, &mine, &other, &slot] {
            std::fs::write(path, "x").unwrap();
        }
        if Path::new("/proc/self").exists() {
            assert_eq!(remove_stale_temps(&dir), 1);
            assert!(!stale.exists());
        }
        assert!(mine.exists() && other.exists() && slot.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// What a set of scene paths looks like on disk, to tell when an author has
/// saved one of them: each file's modification time and length. A folder
/// stands for its `.ron` files (a file added or removed there is a change);
/// a file stands for itself and the `rules.ron` beside it, which it is
/// loaded with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamps(Vec<(PathBuf, Option<(std::time::SystemTime, u64)>)>);

impl Stamps {
    /// Reads the stamps now. A path that cannot be read is stamped as
    /// missing, so its coming back is a change too.
    pub fn of(paths: &[PathBuf]) -> Stamps {
        let mut files = Vec::new();
        for path in paths {
            if path.is_dir() {
                let found: Vec<PathBuf> = std::fs::read_dir(path)
                    .map(|entries| {
                        entries
                            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                            .filter(|p| p.extension().is_some_and(|ext| ext == "ron"))
                            .collect()
                    })
                    .unwrap_or_default();
                files.extend(found);
            } else {
                files.push(path.clone());
                let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
                files.push(folder.unwrap_or(Path::new(".")).join("rules.ron"));
            }
        }
        files.sort();
        files.dedup();
        Stamps(
            files
                .into_iter()
                .map(|file| {
                    let stamp = std::fs::metadata(&file)
                        .ok()
                        .filter(|meta| meta.is_file())
                        .and_then(|meta| Some((meta.modified().ok()?, meta.len())));
                    (file, stamp)
                })
                .collect(),
        )
    }

    /// The files whose stamp differs from `before`'s (changed, added or
    /// gone), for the line that says what was saved.
    pub fn changed_since<'a>(&'a self, before: &'a Stamps) -> Vec<&'a Path> {
        let mut changed = Vec::new();
        for (file, stamp) in &self.0 {
            let old = before.0.iter().find(|(f, _)| f == file).map(|(_, s)| s);
            if old != Some(stamp) && (old.is_some() || stamp.is_some()) {
                changed.push(file.as_path());
            }
        }
        for (file, stamp) in &before.0 {
            if stamp.is_some() && !self.0.iter().any(|(f, _)| f == file) {
                changed.push(file.as_path());
            }
        }
        changed
    }
}
