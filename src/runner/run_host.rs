//! What a run's tests run on: the Tokio runtime, the Playwright driver of each browser project
//! and the `[web_server]`s of the app. The host starts them before the first test and stops
//! them after the last, and its destructor stops whatever is still running, so that an error,
//! an early return or a panic leaves no driver or web server behind.
//!
//! Main type: [`RunHost`], with its error [`HostError`]. A run goes through it in stages:
//! [`RunHost::new`] (the environment and the Tokio runtime), [`RunHost::start`] (the app's
//! reachability, then the driver and the web servers side by side), [`RunHost::run`] (every
//! project of a [`RunJob`]) and [`RunHost::stop`].

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::cache::CacheError;
use crate::config::Settings;
use crate::driver::{
    BrowserRuntime, BrowserTarget, DriverEnv, DriverError, DriverPaths, export_driver_env,
    withhold_from_driver,
};
use crate::runner::{RunEvent, RunJob, RunStats, run_projects};
use crate::secrets::Secrets;
use crate::web_server::{CONNECT_LIMIT, LineSink, Unreachable, WebServerError, WebServers, reach};

/// Why a run could not start, or a later project's browser could not.
#[derive(Debug, thiserror::Error)]
pub(crate) enum HostError {
    #[error("could not start the async runtime")]
    Runtime(#[source] std::io::Error),
    #[error(transparent)]
    Driver(#[from] DriverError),
    /// A web server did not come up, or the app cannot be reached.
    #[error(transparent)]
    WebServer(#[from] WebServerError),
    /// A later project's cache file is malformed.
    #[error(transparent)]
    Cache(#[from] CacheError),
    /// The first project has no browser to start, which the run's plan rules out.
    #[error("no browser for the first project")]
    NoFirstBrowser,
    /// A project ran twice, which the run's order rules out.
    #[error("a browser project ran twice")]
    RanTwice,
}

/// The Tokio runtime, driver and web servers of one run. See the module comment.
pub(crate) struct RunHost<'s> {
    settings: &'s Settings,
    driver: DriverPaths,
    /// What [`export_driver_env`] changed, which the web servers get back.
    driver_env: DriverEnv,
    /// The browser of each project, taken when the project's driver starts.
    targets: Vec<Option<BrowserTarget>>,
    /// The values of the variables withheld from the driver (the LLM's keys).
    withheld: HashMap<String, String>,
    /// Set by the first stop signal (Ctrl-C, SIGTERM, SIGHUP).
    cancel: Arc<AtomicBool>,
    /// The run's secrets, which the origin guard refuses to let any request carry.
    secrets: Secrets,
    /// The driver of the project that runs now, or runs first.
    runtime: Option<BrowserRuntime>,
    web_servers: Option<WebServers>,
    /// Declared last, so that it is dropped after everything that runs on it.
    tokio: tokio::runtime::Runtime,
}

impl<'s> RunHost<'s> {
    /// Prepares the process for a run with `driver` and the browsers `targets` (one per
    /// project): it exports the driver's location, withholds the variables `withhold` from
    /// the driver and its browsers, and then builds the Tokio runtime. Both changes to the
    /// environment are made here because they must come before any thread exists.
    pub(crate) fn new(
        settings: &'s Settings,
        driver: DriverPaths,
        targets: Vec<BrowserTarget>,
        withhold: &[String],
    ) -> Result<Self, HostError> {
        let driver_env = export_driver_env(&driver);
        let withheld = withhold_from_driver(withhold);
        let tokio = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(HostError::Runtime)?;
        Ok(RunHost {
            settings,
            driver,
            driver_env,
            targets: targets.into_iter().map(Some).collect(),
            withheld,
            cancel: Arc::new(AtomicBool::new(false)),
            secrets: Secrets::default(),
            runtime: None,
            web_servers: None,
            tokio,
        })
    }

    /// Makes every test's origin guard refuse requests to other origins that carry one of
    /// `secrets` (the run's, as masking gets them).
    pub(crate) fn guard_secrets(&mut self, secrets: Secrets) {
        self.secrets = secrets;
    }

    /// The handle of the run's Tokio runtime.
    pub(crate) fn handle(&self) -> &tokio::runtime::Handle {
        self.tokio.handle()
    }

    /// The value of the withheld variable `name`, if it was set.
    pub(crate) fn withheld(&self, name: &str) -> Option<String> {
        self.withheld.get(name).cloned()
    }

    /// The run's stop flag, which the first stop signal sets.
    pub(crate) fn cancel(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancel)
    }

    /// Makes everything ready for the first test of `first_project`: it checks that an app no
    /// web server serves can be reached (an app that is down fails every test the same way,
    /// so it is said once, before any browser starts), then starts the project's driver while
    /// the web servers come up, so neither waits for the other. The web servers' output goes
    /// to `sink`, if any.
    pub(crate) fn start(
        &mut self,
        first_project: usize,
        sink: Option<LineSink>,
    ) -> Result<(), HostError> {
        self.probe_base_url()?;
        let target = self
            .targets
            .get_mut(first_project)
            .and_then(Option::take)
            .ok_or(HostError::NoFirstBrowser)?;
        let settings = self.settings;
        let (tokio, driver, cancel) = (&self.tokio, &self.driver, &self.cancel);
        let secrets = &self.secrets;
        let (web_servers, runtime) = std::thread::scope(|scope| {
            let starting = scope.spawn(|| {
                tokio
                    .block_on(BrowserRuntime::start(
                        &settings.browser.for_project(first_project),
                        driver,
                        target,
                        tokio.handle(),
                    ))
                    .map(|runtime| runtime.with_secrets(secrets.clone()))
                    .map_err(|e| e.placed(&settings.sources))
            });
            let web_servers = WebServers::start(
                &settings.web_servers,
                &self.driver_env,
                tokio.handle(),
                cancel,
                sink,
            );
            let runtime = starting
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (web_servers, runtime)
        });
        // The host keeps what started, so that it is stopped whatever fails. A web server
        // that did not come up is the error to report, even when the driver failed too.
        match (web_servers, runtime) {
            (Ok(web_servers), Ok(runtime)) => {
                self.web_servers = Some(web_servers);
                self.runtime = Some(runtime);
                Ok(())
            }
            (Ok(web_servers), Err(err)) => {
                self.web_servers = Some(web_servers);
                Err(err.into())
            }
            (Err(err), runtime) => {
                self.runtime = runtime.ok();
                Err(err.into())
            }
        }
    }

    /// Runs every project of `job` in turn, each in a driver of its own, and reports every
    /// event through `on_event`. A later project's driver starts when its turn comes.
    pub(crate) fn run(
        &mut self,
        job: &mut RunJob<'_>,
        on_event: &mut dyn FnMut(RunEvent),
    ) -> Result<RunStats, HostError> {
        let (selected, max_failures) = (job.selected(), job.max_failures());
        run_projects(
            selected,
            max_failures,
            &mut |project, tests, max_failures, on_event| {
                // The runner comes first, so that a malformed cache file starts no driver.
                let runner = job.runner(project, tests, max_failures)?;
                let handle = self.tokio.handle().clone();
                let stats = runner.run(self.driver_of(project)?, &handle, on_event);
                self.shut_down_driver();
                Ok(stats)
            },
            on_event,
        )
    }

    /// Stops the driver, if one still runs, and the web servers, last first, and returns a
    /// warning for each web server that had exited during the run.
    pub(crate) fn stop(mut self) -> Vec<String> {
        self.shut_down_driver();
        self.web_servers
            .take()
            .map(WebServers::stop)
            .unwrap_or_default()
    }

    /// The driver of `project`: the one [`RunHost::start`] started for the first project, or
    /// a new one. The host keeps it, so that it is shut down whatever happens while it runs.
    fn driver_of(&mut self, project: usize) -> Result<&BrowserRuntime, HostError> {
        let runtime = match self.runtime.take() {
            Some(runtime) => runtime,
            None => {
                let target = self
                    .targets
                    .get_mut(project)
                    .and_then(Option::take)
                    .ok_or(HostError::RanTwice)?;
                self.tokio
                    .block_on(BrowserRuntime::start(
                        &self.settings.browser.for_project(project),
                        &self.driver,
                        target,
                        self.tokio.handle(),
                    ))
                    .map_err(|e| e.placed(&self.settings.sources))?
                    .with_secrets(self.secrets.clone())
            }
        };
        Ok(self.runtime.insert(runtime))
    }

    fn shut_down_driver(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            self.tokio.block_on(runtime.shutdown());
        }
    }

    /// Fails when the base URL is set, no web server of the run serves it, a local browser
    /// opens it, and nothing answers there.
    fn probe_base_url(&self) -> Result<(), WebServerError> {
        let settings = self.settings;
        let Some(url) = base_url_to_probe(
            settings.browser.base_url.as_deref(),
            settings.browser.remote.is_some(),
            !settings.web_servers.is_empty(),
        ) else {
            return Ok(());
        };
        self.tokio
            .block_on(reach(url, CONNECT_LIMIT))
            .map_err(|Unreachable(what)| WebServerError::AppUnreachable {
                url: url.to_owned(),
                what,
                set_at: settings.sources.place("browser.base_url").to_string(),
            })
    }
}

/// Stops what still runs when the run ends without [`RunHost::stop`]: an error, an early
/// return or a panic. A second stop signal exits at once instead, and kills the web servers
/// itself.
impl Drop for RunHost<'_> {
    fn drop(&mut self) {
        self.shut_down_driver();
        // Dropping the web servers stops their process groups.
        drop(self.web_servers.take());
    }
}

/// The base URL to probe before the first test, if any: one that is set, that no `[web_server]`
/// of the run serves (it is not up before the servers start, and their own readiness check
/// covers it), and that a local browser opens (a remote one may reach hosts this machine
/// cannot).
fn base_url_to_probe(base_url: Option<&str>, remote: bool, web_servers: bool) -> Option<&str> {
    match (base_url, remote, web_servers) {
        (Some(url), false, false) => Some(url),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;
    use std::io::{Read as _, Write as _};
    use std::path::PathBuf;
    use std::sync::atomic::Ordering;
    use std::time::Duration;

    use crate::config::{Overrides, WebServerSettings};

    /// A host as [`RunHost::new`] makes it, without touching the process environment (the
    /// test harness runs other tests on other threads).
    fn host(settings: &Settings) -> RunHost<'_> {
        RunHost {
            settings,
            driver: DriverPaths {
                node: PathBuf::from("node"),
                cli_js: PathBuf::from("cli.js"),
            },
            driver_env: Vec::new(),
            targets: Vec::new(),
            withheld: HashMap::new(),
            cancel: Arc::new(AtomicBool::new(false)),
            secrets: Secrets::default(),
            runtime: None,
            web_servers: None,
            tokio: tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .expect("a runtime"),
        }
    }

    /// Whether the process `pid` runs (a zombie does not).
    fn runs(pid: u32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            let state = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.trim().chars().next());
            !matches!(state, Some('Z' | 'X') | None)
        })
    }

    /// Answers every HTTP request on `port` with 200, from the moment `ready` exists until
    /// `stop` is set.
    fn answer(port: u16, ready: PathBuf, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<()> {
        std::thread::spawn(move || {
            while !ready.exists() {
                std::thread::sleep(Duration::from_millis(10));
            }
            let listener = std::net::TcpListener::bind(("127.0.0.1", port)).expect("the port");
            listener.set_nonblocking(true).expect("non-blocking");
            while !stop.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((mut socket, _)) => {
                        let _ = socket.set_nonblocking(false);
                        let _ = socket.read(&mut [0; 2048]);
                        let _ = socket.write_all(
                            b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                        );
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(10)),
                }
            }
        })
    }

    #[test]
    fn dropping_the_host_stops_the_web_servers_it_started() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let settings = Settings::resolve(dir.path(), &|_| None, &Overrides::default())
            .expect("the defaults resolve");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|free| free.local_addr())
            .expect("a free port")
            .port();
        let pid_file = dir.path().join("pid");
        let stop = Arc::new(AtomicBool::new(false));
        let answering = answer(port, pid_file.clone(), Arc::clone(&stop));
        let server = WebServerSettings {
            command: format!(
                "echo $$ > '{}.new'; mv '{0}.new' '{0}'; exec sleep 60",
                pid_file.display()
            ),
            url: format!("http://127.0.0.1:{port}/"),
            timeout: Duration::from_secs(60),
            reuse_existing: false,
            cwd: dir.path().to_owned(),
            env: BTreeMap::new(),
        };
        let mut host = host(&settings);
        let started = WebServers::start(&[server], &[], host.handle(), &host.cancel, None);
        host.web_servers = Some(started.expect("the web server starts"));
        let pid: u32 = std::fs::read_to_string(&pid_file)
            .expect("the server wrote its pid")
            .trim()
            .parse()
            .expect("a pid");
        assert!(runs(pid), "the web server runs while the host lives");
        drop(host);
        assert!(!runs(pid), "the host's destructor stopped the web server");
        stop.store(true, Ordering::SeqCst);
        answering.join().expect("the answering thread ends");
    }

    #[test]
    fn a_base_url_a_local_browser_opens_and_no_web_server_starts_is_probed() {
        let url = Some("http://127.0.0.1:3000/");
        assert_eq!(base_url_to_probe(url, false, false), url);
    }

    #[test]
    fn no_base_url_leaves_nothing_to_probe() {
        assert_eq!(base_url_to_probe(None, false, false), None);
    }

    #[test]
    fn a_remote_browser_may_reach_what_this_machine_cannot() {
        assert_eq!(
            base_url_to_probe(Some("http://app:3000/"), true, false),
            None
        );
    }

    #[test]
    fn a_web_server_of_the_run_is_not_up_yet_and_checks_itself() {
        assert_eq!(
            base_url_to_probe(Some("http://127.0.0.1:3000/"), false, true),
            None
        );
    }
}
