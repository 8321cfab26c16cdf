//! One test's page. It owns a browser context that is closed when the test ends, or with
//! `isolation = "reuse"` released for the driver to reset, and it holds the lifelines of the
//! driver and browser behind it.
//!
//! Main type: [`TestPage`]. Every call it makes on its own account is bounded: it gives up when
//! the driver or the browser goes away, and after [`CLOSE_LIMIT`] at most, and says which as a
//! [`CallError`].

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use playwright_rs::protocol::{
    Browser, BrowserContext, Frame, Page, TracingStartOptions, TracingStopOptions,
};

use crate::driver::reuse::release_reused;
use crate::driver::{ContextEvents, Lifeline, LifelineCut, Loss, OriginGuard, SavedState};

/// The longest a test's context may take to close (or a trace to be written) before the test
/// moves on without it.
pub(crate) const CLOSE_LIMIT: Duration = Duration::from_secs(30);

/// Why a call a test page made on its own account (a trace, its storage state) did not finish.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CallError {
    /// The driver or the browser went away first.
    #[error(transparent)]
    Lost(#[from] Loss),
    /// The driver gave no answer within the limit.
    #[error("no answer within {} s", .0.as_secs())]
    NoAnswer(Duration),
    /// The driver answered with an error.
    #[error(transparent)]
    Driver(Box<playwright_rs::Error>),
}

/// What becomes of a test's context when it ends.
#[derive(Clone)]
pub(crate) enum Release {
    /// Closed, with every page it opened.
    Close,
    /// Released to `browser`, which resets it for the next test (`isolation = "reuse"`). When
    /// the release fails, `spend` marks the browser as spent.
    Disconnect {
        browser: Box<Browser>,
        spend: LifelineCut,
    },
}

/// One test's page: its own browser context, closed when the test ends.
#[derive(Clone)]
pub(crate) struct TestPage {
    pub(crate) context: BrowserContext,
    pub(crate) page: Page,
    pub(crate) frame: Frame,
    pub(crate) events: Arc<ContextEvents>,
    /// The guard of `[browser] allowed_origins`, or `None` when every origin is allowed.
    pub(crate) origins: Option<Arc<OriginGuard>>,
    pub(crate) release: Release,
    pub(crate) accept_dialogs: bool,
    pub(crate) base_url: Option<String>,
    pub(crate) project_dir: PathBuf,
    /// Cut when the Playwright driver process exits.
    pub(crate) driver: Lifeline,
    /// Cut when the test's browser disconnects (Chromium crashed or was killed).
    pub(crate) browser: Lifeline,
    /// Set once [`TestPage::close`] has been called, at the test's end or at its deadline.
    pub(crate) closing: Arc<AtomicBool>,
    /// The time the test's navigations took.
    pub(crate) navigation: NavigationClock,
}

/// Sums the time a test's navigations (`goto`, `reload`, `goBack`, `goForward`) took, for the
/// per-phase timings in `--events`.
#[derive(Clone, Default)]
pub(crate) struct NavigationClock(Arc<AtomicU64>);

impl NavigationClock {
    /// Runs `work`, adding the time it took.
    pub(crate) async fn time<T>(self, work: impl Future<Output = T>) -> T {
        let started = Instant::now();
        let out = work.await;
        let micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.0.fetch_add(micros, Ordering::Relaxed);
        out
    }

    pub(crate) fn total(&self) -> Duration {
        Duration::from_micros(self.0.load(Ordering::Relaxed))
    }
}

impl TestPage {
    /// Returns the time the test's navigations took so far.
    pub(crate) fn navigation(&self) -> &NavigationClock {
        &self.navigation
    }

    pub(crate) fn page(&self) -> &Page {
        &self.page
    }

    pub(crate) fn main_frame(&self) -> &Frame {
        &self.frame
    }

    /// Pages, dialogs, downloads and crashes the context produced.
    pub(crate) fn events(&self) -> &ContextEvents {
        &self.events
    }

    /// The guard of `[browser] allowed_origins`; `None` when every origin is allowed.
    pub(crate) fn origins(&self) -> Option<&OriginGuard> {
        self.origins.as_deref()
    }

    /// Returns `[browser] accept_dialogs`, which decides what the resolver of last resort does
    /// with dialogs that step code did not handle.
    pub(crate) fn accept_dialogs(&self) -> bool {
        self.accept_dialogs
    }

    pub(crate) fn base_url(&self) -> Option<&str> {
        self.base_url.as_deref()
    }

    /// The project root, where step code's file paths (`setInputFiles`) resolve.
    pub(crate) fn project_dir(&self) -> &Path {
        &self.project_dir
    }

    /// Returns why the driver or the browser behind this page went away, or `None` while both
    /// are there.
    pub(crate) fn lost(&self) -> Option<Loss> {
        self.driver.loss().or_else(|| self.browser.loss())
    }

    /// Resolves with the reason when the driver or the browser goes away.
    pub(crate) async fn until_lost(&self) -> String {
        tokio::select! {
            reason = self.driver.until_lost() => reason,
            reason = self.browser.until_lost() => reason,
        }
    }

    /// Returns whether prettyplay closed the context or is closing it.
    pub(crate) fn is_closing(&self) -> bool {
        self.closing.load(Ordering::SeqCst)
    }

    /// Runs `work` unless the driver or browser goes away first, in which case it returns the
    /// loss as the error.
    pub(crate) async fn unless_lost<T>(&self, work: impl Future<Output = T>) -> Result<T, Loss> {
        if let Some(loss) = self.lost() {
            return Err(loss);
        }
        tokio::select! {
            biased;
            out = work => Ok(out),
            loss = self.driver.until_loss() => Err(loss),
            loss = self.browser.until_loss() => Err(loss),
        }
    }

    /// Closes the test's browser context and every page it opened, or with `isolation =
    /// "reuse"` releases it. It gives up when the browser side is gone or after
    /// [`CLOSE_LIMIT`].
    pub(crate) async fn close(&self) {
        let again = self.closing.swap(true, Ordering::SeqCst);
        if let Some(guard) = &self.origins {
            guard.context_closing();
        }
        let (what, closed) = match &self.release {
            // The context was released at the deadline and may serve another test by now.
            Release::Disconnect { .. } if again => return,
            Release::Close => ("closing", self.bounded(self.context.close()).await),
            Release::Disconnect { browser, spend } => {
                let closed = self
                    .bounded(release_reused(
                        browser,
                        &self.context,
                        &self.page,
                        self.events.visited_origins(),
                        "Test ended.",
                    ))
                    .await;
                if let Err(err) = &closed
                    && self.lost().is_none()
                {
                    spend.cut(&format!(
                        "the reused browser context could not be let go ({err})"
                    ));
                }
                ("letting go of", closed)
            }
        };
        if let Err(err) = closed {
            tracing::debug!("{what} a test's browser context: {err}");
        }
    }

    /// Starts a Playwright trace of the test (screenshots and DOM snapshots).
    pub(crate) async fn start_tracing(&self, name: &str) -> Result<(), CallError> {
        let start = async {
            let tracing = self.context.tracing().await?;
            let options = TracingStartOptions::default()
                .name(name)
                .screenshots(true)
                .snapshots(true);
            tracing.start(options).await
        };
        self.bounded(start).await
    }

    /// Stops the trace and writes it to `path` as a zip for Playwright's trace viewer, or
    /// discards it when `path` is `None`.
    pub(crate) async fn stop_tracing(&self, path: Option<&Path>) -> Result<(), CallError> {
        let stop = async {
            let tracing = self.context.tracing().await?;
            let options = match path {
                Some(path) => TracingStopOptions::default().path(path.display().to_string()),
                None => TracingStopOptions::default(),
            };
            tracing.stop(options).await
        };
        self.bounded(stop).await
    }

    /// Returns the context's storage state (cookies, and localStorage of every origin) for the
    /// tests that start from it.
    pub(crate) async fn save_state(&self) -> Result<SavedState, CallError> {
        self.bounded(self.context.storage_state(None))
            .await
            .map(SavedState)
    }

    /// Runs `work` within [`CLOSE_LIMIT`], unless the browser side goes away first.
    async fn bounded<T>(
        &self,
        work: impl Future<Output = Result<T, playwright_rs::Error>>,
    ) -> Result<T, CallError> {
        match tokio::time::timeout(CLOSE_LIMIT, self.unless_lost(work)).await {
            Ok(Ok(result)) => result.map_err(|err| CallError::Driver(Box::new(err))),
            Ok(Err(loss)) => Err(CallError::Lost(loss)),
            Err(_) => Err(CallError::NoAnswer(CLOSE_LIMIT)),
        }
    }
}
