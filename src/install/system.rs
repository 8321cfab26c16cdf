//! The machine as `prettyplay install` sees it: finding programs, reading what the driver
//! directory holds, and running apt-get and npm. [`System`] is the port; [`HostSystem`] is the
//! real machine, and tests use a scripted fake.
//!
//! Main types: [`System`], [`HostSystem`], [`Command`].

use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};

use super::plan::Probe;
use crate::driver::{default_driver_dir, node_arch, private_node_path};

/// One command to run: program, arguments, working directory and extra environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Command {
    pub program: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub env: Vec<(String, String)>,
}

impl Command {
    pub(crate) fn new(program: &str, args: &[&str]) -> Self {
        Command {
            program: program.to_owned(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            dir: None,
            env: Vec::new(),
        }
    }

    /// The command as a shell line (for messages and `--dry-run`).
    pub(crate) fn shown(&self) -> String {
        let mut line = String::new();
        for (name, value) in &self.env {
            line.push_str(&format!("{name}={value} "));
        }
        line.push_str(&self.program);
        for arg in &self.args {
            line.push(' ');
            line.push_str(arg);
        }
        match &self.dir {
            Some(dir) => format!("(cd {} && {line})", dir.display()),
            None => line,
        }
    }
}

/// Why a command of `prettyplay install` did not succeed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CommandError {
    /// The program could not be run at all.
    #[error("could not start {program}: {error}")]
    NotStarted { program: String, error: io::Error },
    /// The program ran and failed; `output` is the end of what it printed.
    #[error("{shown} ({status})\n{output}")]
    Failed {
        shown: String,
        status: ExitStatus,
        output: String,
    },
}

/// What `prettyplay install` needs of the machine.
pub(crate) trait System {
    /// Finds what is installed.
    fn probe(&self) -> Probe;
    /// Runs `command`; a failure carries the end of its output.
    fn run(&self, command: &Command) -> Result<(), CommandError>;
    /// Makes a directory and its parents.
    fn create_dir(&self, dir: &Path) -> io::Result<()>;
    /// Writes a small file.
    fn write(&self, path: &Path, text: &str) -> io::Result<()>;
    /// Replaces `to` (a directory, if any) by `from`.
    fn replace_dir(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// Removes a directory and what it holds.
    fn remove_dir(&self, dir: &Path) -> io::Result<()>;
}

/// The real machine, with the process's environment.
pub(crate) struct HostSystem<'a> {
    pub env: &'a dyn Fn(&str) -> Option<String>,
}

impl System for HostSystem<'_> {
    fn probe(&self) -> Probe {
        let env = self.env;
        let driver_dir = default_driver_dir(env).unwrap_or_else(|| {
            PathBuf::from(".cache/prettyplay/driver").join(crate::driver::DRIVER_VERSION)
        });
        let node = find_program("node", env).map(|path| {
            let major = node_major(&path);
            (path, major)
        });
        let private_node = node_arch()
            .map(|arch| private_node_path(&driver_dir, arch))
            .filter(|path| path.is_file())
            .map(|path| {
                let major = node_major(&path);
                (path, major)
            });
        Probe {
            // SAFETY: geteuid has no preconditions and cannot fail.
            root: unsafe { libc::geteuid() } == 0,
            chromium: ["chromium", "chromium-browser"]
                .iter()
                .find_map(|name| find_program(name, env)),
            firefox: ["firefox-esr", "firefox"]
                .iter()
                .find_map(|name| find_program(name, env)),
            node,
            private_node,
            npm: find_program("npm", env).is_some(),
            ca_certificates: Path::new("/etc/ssl/certs/ca-certificates.crt").is_file(),
            driver_version: installed_driver_version(&driver_dir),
            axe_installed: crate::driver::AxeScript::installed(&driver_dir),
            driver_dir,
            node_arch: node_arch(),
        }
    }

    fn run(&self, command: &Command) -> Result<(), CommandError> {
        let mut process = std::process::Command::new(&command.program);
        process
            .args(&command.args)
            .stdin(Stdio::null())
            .envs(command.env.iter().map(|(k, v)| (k, v)));
        if let Some(dir) = &command.dir {
            process.current_dir(dir);
        }
        let output = process.output().map_err(|error| CommandError::NotStarted {
            program: command.program.clone(),
            error,
        })?;
        if output.status.success() {
            return Ok(());
        }
        let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&output.stderr));
        let tail: Vec<&str> = text.lines().rev().take(30).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        Err(CommandError::Failed {
            shown: command.shown(),
            status: output.status,
            output: tail.join("\n"),
        })
    }

    fn create_dir(&self, dir: &Path) -> io::Result<()> {
        fs::create_dir_all(dir)
    }

    fn write(&self, path: &Path, text: &str) -> io::Result<()> {
        fs::write(path, text)
    }

    fn remove_dir(&self, dir: &Path) -> io::Result<()> {
        fs::remove_dir_all(dir)
    }

    fn replace_dir(&self, from: &Path, to: &Path) -> io::Result<()> {
        if to.exists() {
            let mut old = OsString::from(to.as_os_str());
            old.push(format!(".old-{}", std::process::id()));
            let old = PathBuf::from(old);
            fs::rename(to, &old)?;
            fs::rename(from, to)?;
            return fs::remove_dir_all(&old);
        }
        fs::rename(from, to)
    }
}

/// The version of `playwright-core` in `dir`, as its package.json says.
pub(super) fn installed_driver_version(dir: &Path) -> Option<String> {
    let core = dir.join("node_modules/playwright-core");
    if !core.join("cli.js").is_file() {
        return None;
    }
    let manifest = fs::read_to_string(core.join("package.json")).ok()?;
    let manifest: serde_json::Value = serde_json::from_str(&manifest).ok()?;
    manifest.get("version")?.as_str().map(str::to_owned)
}

/// The major version of the Node.js executable at `path`, if it runs.
pub(super) fn node_major(path: &Path) -> Option<u32> {
    let output = std::process::Command::new(path)
        .args(["-p", "process.versions.node"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    text.trim().split('.').next()?.parse().ok()
}

fn find_program(name: &str, env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let path = env("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|full| full.is_file())
}
