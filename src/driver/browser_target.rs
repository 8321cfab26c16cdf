//! Which browser a run drives: a Chromium or Firefox launched on this machine, or a browser that runs
//! elsewhere and is reached with `[browser] connect` or `cdp`.
//!
//! Main type: [`BrowserTarget`].

use std::path::PathBuf;

use crate::config::{BrowserSettings, RemoteBrowser, Sources};
use crate::driver::{DriverError, find_browser};

/// The browser that [`BrowserRuntime`](crate::driver::BrowserRuntime) launches or connects to.
/// A run has exactly one, so a runtime cannot exist without something to launch.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum BrowserTarget {
    /// A browser executable (of `[browser] name`) that every worker launches a process of.
    Local {
        executable: PathBuf,
        /// Where the executable was configured (`` `--executable` ``), or `None` when it was
        /// found on `PATH`: a launch failure's hint names it.
        configured_at: Option<String>,
    },
    /// A browser elsewhere that every worker opens a connection to.
    Remote(RemoteBrowser),
}

impl BrowserTarget {
    /// The target of `settings`. A remote browser wins over a local one, and the local
    /// executable is only looked for when there is no remote browser, because a machine that
    /// connects to a browser elsewhere often has none installed. `sources` says where the
    /// executable was set, for the errors about it.
    pub(crate) fn find(
        settings: &BrowserSettings,
        sources: &Sources,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Self, DriverError> {
        let Some(remote) = &settings.remote else {
            let configured = settings.executable.as_deref();
            let place = sources.place("browser.executable");
            let executable = find_browser(settings.name, configured, &place, env)?;
            return Ok(Self::Local {
                executable,
                configured_at: configured.map(|_| place.to_string()),
            });
        };
        Ok(Self::Remote(remote.clone()))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::config::{ConnectHeaders, Overrides, RemoteProtocol, Settings};

    /// The `[browser]` defaults of a project without a `prettyplay.toml`.
    fn defaults() -> BrowserSettings {
        let dir = tempfile::tempdir().expect("a temporary directory");
        Settings::resolve(dir.path(), &|_| None, &Overrides::default())
            .expect("the defaults resolve")
            .browser
    }

    fn remote() -> RemoteBrowser {
        RemoteBrowser {
            protocol: RemoteProtocol::Connect,
            endpoint: "ws://127.0.0.1:3000/".to_owned(),
            headers: ConnectHeaders::default(),
            timeout: Duration::from_secs(5),
        }
    }

    #[test]
    fn a_remote_browser_needs_no_local_chromium() {
        let settings = BrowserSettings {
            remote: Some(remote()),
            executable: Some(PathBuf::from("/nonexistent/chromium")),
            ..defaults()
        };
        let target = BrowserTarget::find(&settings, &Sources::default(), &|_| None)
            .expect("no Chromium is looked for");
        assert_eq!(target, BrowserTarget::Remote(remote()));
    }

    #[test]
    fn without_a_remote_browser_the_configured_chromium_is_launched() {
        let exe = std::env::current_exe().expect("the test binary's path");
        let settings = BrowserSettings {
            executable: Some(exe.clone()),
            ..defaults()
        };
        let target = BrowserTarget::find(&settings, &Sources::default(), &|_| None)
            .expect("the file exists");
        assert_eq!(
            target,
            BrowserTarget::Local {
                executable: exe,
                configured_at: Some(
                    "`[browser] executable` in prettyplay.toml, \
                     `PRETTYPLAY_BROWSER_EXECUTABLE` or `--executable`"
                        .into()
                ),
            }
        );
    }

    #[test]
    fn a_missing_chromium_is_an_error_when_there_is_no_remote_browser() {
        let settings = BrowserSettings {
            executable: Some(PathBuf::from("/nonexistent/chromium")),
            ..defaults()
        };
        assert!(matches!(
            BrowserTarget::find(&settings, &Sources::default(), &|_| None),
            Err(DriverError::Missing { .. })
        ));
    }
}
