//! `[browser] isolation = "reuse"`: one browser context per worker, reset between tests by the
//! driver, through the protocol calls Playwright Test's reuse mode makes
//! (`Browser.newContextForReuse`, `Browser.disconnectFromReusedContext`). playwright-rs has no
//! API for them: they are sent on the browser's channel, as its own `newContext` is.
//!
//! What the driver resets (playwright-core 1.64, `BrowserContext.resetForReuse`): every page but
//! the first is closed and the first goes to `about:blank`; cookies, the HTTP cache, and in every
//! origin the context visited localStorage, sessionStorage, IndexedDB and service workers are
//! cleared; viewport, media and extra headers are restored. Disconnecting disposes the context's
//! protocol objects: its routes, its dialog, page and download listeners go with them, and the
//! next test gets new ones. The driver leaves permissions, which [`open_reused`] clears, the
//! kept page's history, which [`scrub`] removes, and storage it does not know of, which
//! [`release_reused`] clears (Chromium only: reuse is refused for the other engines). What a
//! test could still carry over is listed in `docs/configuration.md`.
//!
//! Main functions: [`open_reused`], [`scrub`] and [`release_reused`].

use std::future::Future;
use std::time::Duration;

use playwright_rs::protocol::{
    Browser, BrowserContext, BrowserContextOptions, CDPSession, Dialog, GotoOptions, Page,
    Viewport, WaitUntil,
};
use playwright_rs::server::channel_owner::ChannelOwner;
use playwright_rs::server::connection::ConnectionExt;
use serde::Deserialize;
use serde_json::json;

/// How long a test's page may take to leave its document at the test's end.
const BLANK_LIMIT: Duration = Duration::from_secs(5);

/// Playwright's default viewport.
const DEFAULT_VIEWPORT: Viewport = Viewport {
    width: 1280,
    height: 720,
};

/// The driver's answer to `newContextForReuse`.
#[derive(Deserialize)]
struct Reused {
    context: GuidRef,
}

#[derive(Deserialize)]
struct GuidRef {
    guid: String,
}

/// The worker's reused context, reset for a new test, and its kept page (`None` the first time,
/// or when the last test's page crashed or was closed: the caller opens one).
///
/// The context is a new protocol object each time (the last test's was disposed), with the
/// same guid; its kept page is announced as it is created, before the answer, so it is already
/// in the connection's registry when the answer arrives.
pub(crate) async fn open_reused(
    browser: &Browser,
    options: &BrowserContextOptions,
) -> Result<(BrowserContext, Option<Page>), playwright_rs::Error> {
    let mut options = options.clone();
    if options.viewport.is_none() && options.no_viewport != Some(true) {
        // The driver gives a new context this viewport when none is asked for, but a reset
        // takes the options as sent: without it, the last test's `setViewportSize` would stay.
        options.viewport = Some(DEFAULT_VIEWPORT);
    }
    let params = serde_json::to_value(&options).map_err(|err| {
        playwright_rs::Error::ProtocolError(format!("cannot serialize context options: {err}"))
    })?;
    let reused: Reused = browser.channel().send("newContextForReuse", params).await?;
    let connection = browser.connection();
    let context: BrowserContext = connection
        .wait_for_typed::<BrowserContext>(&reused.context.guid)
        .await?;
    // The driver keeps permissions granted in the context across resets.
    context
        .channel()
        .send_no_result("clearPermissions", json!({}))
        .await?;
    if let Err(err) = connection
        .selectors()
        .add_context(context.channel().clone())
        .await
    {
        tracing::debug!("cannot register a reused context with the selectors: {err}");
    }
    let page = connection
        .all_objects_sync()
        .into_iter()
        .filter(|object| {
            object.type_name() == "Page"
                && object
                    .parent()
                    .is_some_and(|parent| parent.guid() == context.guid())
        })
        .filter_map(|object| object.as_any().downcast_ref::<Page>().cloned())
        .find(|page| !page.is_closed());
    match &page {
        Some(_) => {
            tracing::debug!("reset the worker's browser context for another test, its page kept")
        }
        None => tracing::debug!("opened the worker's browser context for reuse"),
    }
    Ok((context, page))
}

/// What the driver's reset leaves in the kept page (or the context's new one), removed through
/// Chromium's DevTools protocol: its session history (the last test's pages, and the driver's
/// own navigations while it reset the context, which `history.back()` would reach) and its
/// `window.name`.
pub(crate) async fn scrub(
    context: &BrowserContext,
    page: &Page,
) -> Result<(), playwright_rs::Error> {
    devtools(context, page, |session| async move {
        session.send("Page.resetNavigationHistory", None).await?;
        // The name of the tab's window outlives its documents.
        let unname = json!({ "expression": "window.name = ''" });
        session.send("Runtime.evaluate", Some(unname)).await?;
        Ok(())
    })
    .await
}

/// Clears every kind of storage of `origins` (the ones the test's frames loaded documents
/// from) through Chromium's DevTools protocol: the driver's reset clears cookies,
/// localStorage, sessionStorage, IndexedDB and service workers, but not CacheStorage, the
/// origin-private file system or storage buckets. Done at the test's end, before the reset
/// applies the next test's storage state.
async fn clear_storage(
    context: &BrowserContext,
    page: &Page,
    origins: Vec<String>,
) -> Result<(), playwright_rs::Error> {
    if origins.is_empty() {
        return Ok(());
    }
    devtools(context, page, |session| async move {
        for origin in origins {
            let params = json!({ "origin": origin, "storageTypes": LEFT_BY_THE_RESET });
            session
                .send("Storage.clearDataForOrigin", Some(params))
                .await?;
        }
        Ok(())
    })
    .await
}

/// The storage types the driver's reset does not clear (it clears cookies, localStorage,
/// sessionStorage, IndexedDB and service workers itself), as `Storage.clearDataForOrigin`
/// names them. Fewer than `"all"`: clearing everything again is what made a reused context's
/// end slower than Playwright Test's reuse mode.
const LEFT_BY_THE_RESET: &str =
    "cache_storage,file_systems,storage_buckets,shared_storage,interest_groups,websql";

/// Runs `work` in a DevTools session of `page`, detached after.
async fn devtools<F, Fut>(
    context: &BrowserContext,
    page: &Page,
    work: F,
) -> Result<(), playwright_rs::Error>
where
    F: FnOnce(CDPSession) -> Fut,
    Fut: Future<Output = Result<(), playwright_rs::Error>>,
{
    let session = context.new_cdp_session(page).await?;
    let done = work(session.clone()).await;
    if let Err(err) = session.detach().await {
        tracing::debug!("detaching from a page's DevTools session: {err}");
    }
    done
}

/// Ends a test in the reused context: its page is sent to `about:blank` (when it does not get
/// there within [`BLANK_LIMIT`], the context is closed instead), the storage of the `visited`
/// origins is cleared ([`clear_storage`]), then the driver stops what is still running in the
/// context (a step past its deadline) and disposes its protocol objects; the context and its
/// first page stay in the browser for the next test, which resets them.
///
/// The page leaves its document here, not in the driver's reset, whose navigation has no time
/// limit: a dialog the page opens while it unloads (a timer's `alert` after the `beforeunload`
/// prompt) cancels that navigation, and the reset would then wait forever. So from here on the
/// driver closes every new dialog itself (`beforeunload` accepted, the others dismissed), and
/// the ones already announced to prettyplay are resolved the same way first.
pub(crate) async fn release_reused(
    browser: &Browser,
    context: &BrowserContext,
    page: &Page,
    visited: Vec<String>,
    reason: &str,
) -> Result<(), playwright_rs::Error> {
    let connection = browser.connection();
    connection.selectors().remove_context(context.channel());
    context
        .channel()
        .update_subscription("dialog", false)
        .await?;
    let open = connection.all_objects_sync().into_iter().filter(|object| {
        object.type_name() == "Dialog"
            && object
                .parent()
                .and_then(|page| page.parent())
                .is_some_and(|owner| owner.guid() == context.guid())
    });
    for object in open {
        let Some(dialog) = object.as_any().downcast_ref::<Dialog>() else {
            continue;
        };
        let resolved = if dialog.type_() == "beforeunload" {
            dialog.accept(None).await
        } else {
            dialog.dismiss().await
        };
        if let Err(err) = resolved {
            // Most often resolved already, by the step or the resolver of last resort.
            tracing::trace!("resolving a dialog left at a test's end: {err}");
        }
    }
    let blank = GotoOptions::new()
        .timeout(BLANK_LIMIT)
        .wait_until(WaitUntil::Commit);
    if let Err(err) = page.goto("about:blank", blank).await {
        // Stuck in a navigation: the context is closed instead, and the next test gets a new
        // one (the driver makes one when the context it kept is closed).
        tracing::debug!(
            "closing the reused browser context, whose page would not leave its document: {err}"
        );
        return context.close().await;
    }
    clear_storage(context, page, visited).await?;
    browser
        .channel()
        .send_no_result("disconnectFromReusedContext", json!({ "reason": reason }))
        .await
}
