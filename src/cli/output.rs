//! Output files that are never destroyed.
//!
//! An output that is a regular file (or does not exist yet) is written to a temporary
//! file beside it, `.NAME.kyphu-PID.tmp`, and renamed over it only when the run
//! succeeds ([`Output::commit`]): an error, a panic or a signal leaves the old file as it
//! was and removes the temporary one (a `SIGKILL` or a power cut can leave the
//! temporary file, never a cut file under the final name). An output that is not a
//! regular file (`/dev/null`, `/dev/stdout`, a FIFO, a terminal), or is under `/dev/`
//! or `/proc/`, is written directly. [`refuse_inputs`] refuses an output that is one of
//! the inputs, compared by device and inode (a symbolic or hard link to an input is
//! refused too). See docs/cli.md ("Output files").

use std::{
    fs::{self, File, OpenOptions},
    io,
    path::{Path, PathBuf},
    sync::Mutex,
};

use super::CliError;

/// The temporary files being written, removed by the signal handler.
static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn temps() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    TEMPS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What identifies a file whatever the path that names it: its device and inode (on
/// other systems than Unix: its canonical path).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileId(#[cfg(unix)] (u64, u64), #[cfg(not(unix))] PathBuf);

impl FileId {
    /// The file `path` names (through links), if it exists.
    pub fn of(path: &Path) -> Option<FileId> {
        let m = fs::metadata(path).ok()?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(FileId((m.dev(), m.ino())))
        }
        #[cfg(not(unix))]
        {
            let _ = m;
            fs::canonicalize(path).ok().map(FileId)
        }
    }

    /// The file standard input (`0`) or output (`1`) is, when it is a regular file.
    pub fn of_std(fd: u8) -> Option<FileId> {
        #[cfg(unix)]
        {
            use std::os::{fd::AsFd, unix::fs::MetadataExt};
            let owned = if fd == 0 {
                io::stdin().as_fd().try_clone_to_owned()
            } else {
                io::stdout().as_fd().try_clone_to_owned()
            };
            let m = File::from(owned.ok()?).metadata().ok()?;
            m.is_file().then(|| FileId((m.dev(), m.ino())))
        }
        #[cfg(not(unix))]
        {
            let _ = fd;
            None
        }
    }
}

/// Was standard output closed when kyphu started (`>&-`)? Writes to it would be thrown
/// away without an error: the Rust runtime opens `/dev/null` (read-write) in place of
/// a closed standard stream, and the standard library takes `EBADF` on standard output
/// for success. So: descriptor 1 closed, or `/dev/null` opened read-write (a shell's
/// `> /dev/null` opens it write-only; `1<> /dev/null` is taken for closed).
pub fn stdout_closed() -> bool {
    #[cfg(unix)]
    {
        use std::os::{fd::AsFd, unix::fs::MetadataExt};
        const EBADF: i32 = 9;
        const ACCESS_MODE: u32 = 0o3;
        const READ_WRITE: u32 = 0o2;
        let fd = match io::stdout().as_fd().try_clone_to_owned() {
            Ok(fd) => fd,
            Err(e) => return e.raw_os_error() == Some(EBADF),
        };
        let (Ok(out), Ok(null)) = (File::from(fd).metadata(), fs::metadata("/dev/null")) else {
            return false;
        };
        if out.rdev() != null.rdev() || out.dev() != null.dev() || out.ino() != null.ino() {
            return false;
        }
        // the open flags, where Linux shows them (elsewhere: not taken for closed)
        let flags = fs::read_to_string("/proc/self/fdinfo/1")
            .ok()
            .and_then(|info| {
                let flags = info.lines().find_map(|l| l.strip_prefix("flags:"))?;
                u32::from_str_radix(flags.trim(), 8).ok()
            });
        flags.is_some_and(|f| f & ACCESS_MODE == READ_WRITE)
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// An output named on the command line, checked before anything is opened.
#[derive(Debug)]
pub struct Target {
    /// The option that named it (`-o`, `--games-csv`), for messages.
    pub option: &'static str,
    /// The name as given.
    pub name: String,
    /// The existing file it names, if any.
    pub id: Option<FileId>,
    /// The file to replace (links followed), or `None`: written directly.
    replace: Option<PathBuf>,
}

impl Target {
    pub fn new(option: &'static str, name: &str) -> Result<Target, CliError> {
        let usage = |what: String| CliError::Usage(format!("{option} {name}: {what}"));
        let path = Path::new(name);
        let id = FileId::of(path);
        let special = ["/dev/", "/proc/"].iter().any(|p| name.starts_with(p));
        let replace = match fs::metadata(path) {
            Ok(m) if m.is_dir() => return Err(usage("is a directory".into())),
            Ok(m) if m.is_file() && !special => {
                Some(fs::canonicalize(path).map_err(|e| usage(format!("cannot resolve: {e}")))?)
            }
            Ok(_) => None,
            Err(e) if e.kind() == io::ErrorKind::NotFound && !special => {
                // a new file (or a dangling link: the file it names is created)
                let target = match fs::read_link(path) {
                    Ok(to) => path.parent().unwrap_or(Path::new("")).join(to),
                    Err(_) => path.to_owned(),
                };
                let (Some(file), parent) = (target.file_name(), target.parent()) else {
                    return Err(usage("not a file name".into()));
                };
                let parent = match parent {
                    Some(p) if !p.as_os_str().is_empty() => p,
                    _ => Path::new("."),
                };
                let folder = fs::canonicalize(parent)
                    .map_err(|e| usage(format!("cannot create it in {}: {e}", parent.display())))?;
                if !folder.is_dir() {
                    return Err(usage(format!("{} is not a folder", parent.display())));
                }
                Some(folder.join(file))
            }
            Err(e) => return Err(usage(format!("{e}"))),
        };
        Ok(Target {
            option,
            name: name.to_owned(),
            id,
            replace,
        })
    }

    /// Opens the output: a new temporary file beside the file to replace, or the
    /// output itself when it is written directly.
    pub fn open(self) -> Result<Output, CliError> {
        let cannot = |e: io::Error| {
            CliError::Io(io::Error::new(
                e.kind(),
                format!("cannot create {}: {e}", self.name),
            ))
        };
        let Some(path) = self.replace else {
            let file = File::create(&self.name).map_err(cannot)?;
            return Ok(Output {
                name: self.name,
                file,
                replace: None,
            });
        };
        #[cfg(unix)]
        on_signal_remove_temps();
        let folder = path.parent().unwrap_or(Path::new("."));
        let base = path
            .file_name()
            .map_or_else(String::new, |f| f.to_string_lossy().into_owned());
        let mut n = 0u32;
        let (file, temp) = loop {
            let suffix = if n == 0 {
                String::new()
            } else {
                format!("-{n}")
            };
            let temp = folder.join(format!(".{base}.kyphu-{}{suffix}.tmp", std::process::id()));
            // listed before it exists, so that a signal cannot come between
            temps().push(temp.clone());
            match OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(file) => break (file, temp),
                Err(e) => {
                    temps().retain(|t| *t != temp);
                    if e.kind() != io::ErrorKind::AlreadyExists || n >= 100 {
                        return Err(cannot(e));
                    }
                    n += 1;
                }
            }
        };
        // the permissions of the file replaced (its owner is the writer's)
        if let Ok(m) = fs::metadata(&path) {
            let _ = file.set_permissions(m.permissions());
        }
        Ok(Output {
            name: self.name,
            file,
            replace: Some((temp, path)),
        })
    }
}

/// An output being written: see the module documentation.
#[derive(Debug)]
pub struct Output {
    name: String,
    file: File,
    /// The temporary file written and the file it replaces.
    replace: Option<(PathBuf, PathBuf)>,
}

impl Output {
    /// A handle to write with.
    pub fn writer(&self) -> io::Result<File> {
        self.file.try_clone()
    }

    /// Does it replace a file (written to a temporary one), rather than being written
    /// directly?
    pub fn replaces(&self) -> bool {
        self.replace.is_some()
    }

    /// The name as given on the command line.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Puts the output in place: the temporary file, written to disk, is renamed over
    /// the file it replaces. Everything written must have been flushed.
    pub fn commit(mut self) -> Result<(), CliError> {
        let Some((temp, path)) = self.replace.take() else {
            return Ok(());
        };
        let failed = |e: io::Error| {
            let _ = fs::remove_file(&temp);
            temps().retain(|t| *t != temp);
            CliError::Io(io::Error::new(
                e.kind(),
                format!("cannot write {}: {e}", self.name),
            ))
        };
        if let Err(e) = self.file.sync_all() {
            return Err(failed(e));
        }
        let mut temps = temps();
        if let Err(e) = fs::rename(&temp, &path) {
            drop(temps);
            return Err(failed(e));
        }
        temps.retain(|t| *t != temp);
        Ok(())
    }
}

impl Drop for Output {
    /// An output not committed leaves the file it would replace as it was.
    fn drop(&mut self) {
        if let Some((temp, _)) = self.replace.take() {
            let _ = fs::remove_file(&temp);
            temps().retain(|t| *t != temp);
        }
    }
}

/// An output whose file is closed while it waits to be written again or put in place
/// (`convert --split-by` keeps one a file): its temporary file stays, listed for the
/// signal handler, and is removed when it is dropped, as an [`Output`]'s is.
#[derive(Debug)]
pub struct Parked {
    name: String,
    /// The temporary file written and the file it replaces (`None` once resumed).
    replace: Option<(PathBuf, PathBuf)>,
}

impl Output {
    /// Closes the file, keeping what was written in the temporary file; an output
    /// written directly cannot be closed: given back.
    pub fn park(mut self) -> Result<Parked, Output> {
        match self.replace.take() {
            Some(replace) => Ok(Parked {
                name: std::mem::take(&mut self.name),
                replace: Some(replace),
            }),
            None => Err(self),
        }
    }
}

impl Parked {
    /// Opens the temporary file again, to write on at its end.
    pub fn resume(mut self) -> Result<Output, CliError> {
        let Some((temp, path)) = self.replace.take() else {
            return Err(CliError::Usage(format!("{}: already resumed", self.name)));
        };
        match OpenOptions::new().append(true).open(&temp) {
            Ok(file) => Ok(Output {
                name: std::mem::take(&mut self.name),
                file,
                replace: Some((temp, path)),
            }),
            Err(e) => {
                self.replace = Some((temp, path));
                Err(CliError::Io(io::Error::new(
                    e.kind(),
                    format!("cannot write {}: {e}", self.name),
                )))
            }
        }
    }

    /// The name as given.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Drop for Parked {
    fn drop(&mut self) {
        if let Some((temp, _)) = self.replace.take() {
            let _ = fs::remove_file(&temp);
            temps().retain(|t| *t != temp);
        }
    }
}

/// Refuses an output that is one of the inputs (`-` is standard input) or is the
/// same file as another output, before anything is opened. `stdout` is the output
/// when no file is named (compared when it is a regular file: `>> input.pgn`).
pub fn refuse_inputs(
    outputs: &[&Target],
    to_stdout: bool,
    inputs: &[String],
) -> Result<(), CliError> {
    let input_ids: Vec<(&str, FileId)> = inputs
        .iter()
        .filter_map(|i| {
            let id = if i == "-" {
                FileId::of_std(0)
            } else {
                FileId::of(Path::new(i))
            };
            Some((i.as_str(), id?))
        })
        .collect();
    let is_input = |id: &FileId| input_ids.iter().find(|(_, i)| i == id).map(|(n, _)| *n);
    for t in outputs {
        if let Some(input) = t.id.as_ref().and_then(is_input) {
            return Err(CliError::Usage(format!(
                "{} {}: is also an input ({}); write the output to another file",
                t.option, &t.name, input
            )));
        }
    }
    if to_stdout && let Some(input) = FileId::of_std(1).as_ref().and_then(is_input) {
        return Err(CliError::Usage(format!(
            "standard output is also an input ({}); write the output to another file",
            input
        )));
    }
    for (i, a) in outputs.iter().enumerate() {
        for b in outputs.iter().skip(i + 1) {
            let same_file = a.id.is_some() && a.id == b.id;
            let same_path = a.replace.is_some() && a.replace == b.replace;
            if same_file || same_path {
                return Err(CliError::Usage(format!(
                    "{} {} and {} {} name the same file",
                    a.option, &a.name, b.option, &b.name
                )));
            }
        }
    }
    Ok(())
}

/// On `SIGINT`, `SIGTERM` or `SIGHUP`, removes the temporary files being written,
/// then ends the process as the signal would have (installed once, when the first
/// temporary file is made).
#[cfg(unix)]
fn on_signal_remove_temps() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                // held until the end: no temporary file is renamed or made after this
                let temps = temps();
                for t in temps.iter() {
                    let _ = fs::remove_file(t);
                }
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                signal_hook::low_level::exit(128 + signal);
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_output_is_removed_and_a_committed_one_replaces() {
        let dir = std::env::temp_dir().join(format!("kyphu-output-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap_or_default();
        let path = dir.join("out.pgn");
        fs::write(&path, "old").unwrap_or_default();
        let name = path.to_string_lossy().into_owned();
        let names = || fs::read_dir(&dir).map_or(0, |d| d.count());
        let out = Target::new("-o", &name).and_then(Target::open);
        let Ok(out) = out else { panic!("cannot open") };
        io::Write::write_all(&mut out.writer().unwrap_or_else(|e| panic!("{e}")), b"new")
            .unwrap_or_default();
        assert_eq!(names(), 2);
        drop(out);
        assert_eq!(names(), 1);
        assert_eq!(fs::read_to_string(&path).unwrap_or_default(), "old");
        let Ok(out) = Target::new("-o", &name).and_then(Target::open) else {
            panic!("cannot open")
        };
        io::Write::write_all(&mut out.writer().unwrap_or_else(|e| panic!("{e}")), b"new")
            .unwrap_or_default();
        assert!(out.commit().is_ok());
        assert_eq!(names(), 1);
        assert_eq!(fs::read_to_string(&path).unwrap_or_default(), "new");
        assert!(temps().is_empty());
        let _ = fs::remove_dir_all(&dir);
    }
}
