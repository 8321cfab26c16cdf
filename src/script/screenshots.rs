//! `expect(page).toHaveScreenshot()` and `expect(locator).toHaveScreenshot()`: the comparison is
//! the driver's own (`Page.expectScreenshot`, the protocol call Playwright Test makes), which
//! waits for two identical screenshots in a row and compares the last with the baseline.
//!
//! Baselines are files of the cache ([`Baselines`]): the first run writes one, later runs
//! compare with it, `--update-snapshots` rewrites the ones that no longer match, and strict
//! replay never writes one. A mismatch writes the expected, actual and diff images to the run's
//! output directory and fails as [`FailureKind::VisualMismatch`]: evidence, never healed.
//!
//! Main types: [`Screenshots`] (one test's baselines and where its failure images go),
//! [`SnapshotMode`] and [`VisualDiff`] (the images of a mismatch).

use std::path::{Path, PathBuf};

use base64::Engine as _;
use playwright_rs::server::channel_owner::ChannelOwner;
use serde_json::{Map, Value, json};

use crate::cache::BaselineName;
use crate::driver::diff_images;
use crate::script::binding::{HostResult, Outcome, StepHost};
use crate::script::driver_error::HostError;
use crate::script::page_slot::PageSlot;
use crate::script::snapshot_settings::{Screenshots, SnapshotMode};
use crate::script::visual_diff::VisualDiff;
use crate::script::{FailureKind, ProofMode};

/// The protocol parameters the prelude leaves to the binding: the baseline's name and the
/// elements (by selector, in the page's main frame) of the shot and its masks.
struct Request {
    name: Option<String>,
    selector: Option<String>,
    masks: Vec<String>,
    is_not: bool,
    /// Everything else, passed to the driver as the prelude built it.
    options: Map<String, Value>,
}

impl Request {
    fn read(params: Value) -> Result<Self, HostError> {
        let Value::Object(mut options) = params else {
            return Err(HostError::script(
                "toHaveScreenshot: bad parameters".to_owned(),
            ));
        };
        let text = |value: Option<Value>| match value {
            Some(Value::String(text)) => Some(text),
            _ => None,
        };
        let name = text(options.remove("name"));
        let selector = text(options.remove("selector"));
        let masks = match options.remove("mask") {
            Some(Value::Array(items)) => items.into_iter().filter_map(|v| text(Some(v))).collect(),
            _ => Vec::new(),
        };
        let is_not = options.get("isNot").and_then(Value::as_bool) == Some(true);
        Ok(Self {
            name,
            selector,
            masks,
            is_not,
            options,
        })
    }

    /// `Page.expectScreenshot`'s parameters, compared with `expected` when given.
    fn protocol(&self, frame: &str, expected: Option<&[u8]>) -> Value {
        let mut params = self.options.clone();
        let frame = json!({ "guid": frame });
        if let Some(selector) = &self.selector {
            params.insert(
                "locator".into(),
                json!({ "frame": frame, "selector": selector }),
            );
        }
        if !self.masks.is_empty() {
            let masks: Vec<Value> = self
                .masks
                .iter()
                .map(|selector| json!({ "frame": frame, "selector": selector }))
                .collect();
            params.insert("mask".into(), Value::Array(masks));
        }
        if let Some(png) = expected {
            let encoded = base64::engine::general_purpose::STANDARD.encode(png);
            params.insert("expected".into(), Value::String(encoded));
        } else {
            // The driver's "not" needs an expected image: the first shot is a plain one.
            params.insert("isNot".into(), Value::Bool(false));
        }
        Value::Object(params)
    }

    /// The comparator's options, for the diff image.
    fn comparison(&self) -> Value {
        let keep = ["threshold", "maxDiffPixels", "maxDiffPixelRatio"];
        Value::Object(
            self.options
                .iter()
                .filter(|(key, _)| keep.contains(&key.as_str()))
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect(),
        )
    }
}

/// How one `Page.expectScreenshot` call ended.
enum Shot {
    /// The page matched (or, without an expected image, this stable screenshot was taken).
    Taken(Option<Vec<u8>>),
    /// The page, stable, did not match the expected image: the driver's message.
    Mismatch(String),
    /// The page gave no two identical screenshots in a row (or none at all) before the
    /// timeout: the driver's message. Nothing was compared, so this is no evidence of a
    /// changed look.
    Unstable(String),
}

impl StepHost {
    /// `page.expectScreenshot`: compares the page (or an element) with its baseline, writing or
    /// rewriting the baseline as the run's [`SnapshotMode`] allows.
    pub(super) fn expect_screenshot(&self, params: Value, slot: PageSlot) -> Outcome {
        Outcome::Done(self.screenshot_check(params, slot))
    }

    fn screenshot_check(&self, params: Value, slot: PageSlot) -> HostResult {
        let shots = self.screenshots.as_ref().ok_or_else(|| {
            HostError::script("toHaveScreenshot is not available in this run".to_owned())
        })?;
        let request = Request::read(params)?;
        let name = shots.name_of(request.name.clone());
        let baseline = BaselineName {
            test: &shots.test,
            step: shots.step.get(),
            name: name.as_deref(),
            project: &shots.project,
        };
        let path = shots.baselines.path(&baseline);
        let expected = shots
            .baselines
            .read(&baseline)
            .map_err(|err| HostError::script(format!("toHaveScreenshot: {err}")))?;
        // A proof run re-executes the check under a mutation: it never writes anything.
        let writes = self.proof.get() == ProofMode::Off;
        let Some(expected) = expected else {
            if shots.mode == SnapshotMode::Never || !writes {
                return Err(missing_baseline(&path, &shots.scenario));
            }
            if request.is_not {
                return Err(HostError::script(
                    "toHaveScreenshot: \"not\" needs a baseline to differ from".to_owned(),
                ));
            }
            return self.write_baseline(shots, &baseline, &request, &slot, "written");
        };
        match self.shoot(&slot, &request, Some(&expected))? {
            Shot::Taken(_) => Ok(Value::Null),
            Shot::Unstable(message) => Err(unstable(&message)),
            Shot::Mismatch(message) if !writes => Err(HostError {
                kind: FailureKind::FailedCheck,
                message,
                log: Vec::new(),
                received: None,
            }),
            Shot::Mismatch(_) if shots.mode == SnapshotMode::Changed && !request.is_not => {
                self.write_baseline(shots, &baseline, &request, &slot, "rewritten")
            }
            Shot::Mismatch(message) => {
                let images = self.failure_images(shots, &baseline, &request, &slot, &expected);
                let text = mismatch_message(&message, &path, &images);
                shots.last.replace(Some(images));
                Err(HostError {
                    kind: FailureKind::VisualMismatch,
                    message: text,
                    log: Vec::new(),
                    received: None,
                })
            }
        }
    }

    /// Takes a stable screenshot and writes it as the baseline.
    fn write_baseline(
        &self,
        shots: &Screenshots,
        baseline: &BaselineName<'_>,
        request: &Request,
        slot: &PageSlot,
        how: &str,
    ) -> HostResult {
        let png = match self.shoot(slot, request, None)? {
            Shot::Taken(Some(png)) => png,
            Shot::Taken(None) => {
                return Err(HostError::script(
                    "toHaveScreenshot: the driver returned no screenshot".to_owned(),
                ));
            }
            // Without an expected image the driver compares only consecutive screenshots.
            Shot::Mismatch(message) | Shot::Unstable(message) => return Err(unstable(&message)),
        };
        let path = shots
            .baselines
            .write(baseline, &png)
            .map_err(|err| HostError::script(format!("toHaveScreenshot: {err}")))?;
        self.push_log(
            "info",
            &format!("screenshot baseline {how}: {}", path.display()),
        );
        Ok(Value::Null)
    }

    /// One `Page.expectScreenshot` call.
    fn shoot(
        &self,
        slot: &PageSlot,
        request: &Request,
        expected: Option<&[u8]>,
    ) -> Result<Shot, HostError> {
        let params = request.protocol(slot.frame.guid(), expected);
        let page = slot.page.clone();
        let answer = self.run(async move {
            page.channel()
                .send::<Value, Value>("expectScreenshot", params)
                .await
        })?;
        match answer {
            Ok(result) => {
                let actual = result
                    .get("actual")
                    .and_then(Value::as_str)
                    .and_then(|b64| base64::engine::general_purpose::STANDARD.decode(b64).ok());
                Ok(Shot::Taken(actual))
            }
            // The driver ends a comparison of a stable page that does not match as a failed
            // assertion, and a page that never held still as a timed-out one.
            Err(playwright_rs::Error::AssertionFailed(message)) => Ok(Shot::Mismatch(message)),
            Err(playwright_rs::Error::AssertionTimeout(message)) => Ok(Shot::Unstable(message)),
            Err(err) => Err(HostError::from_playwright(err, true)),
        }
    }

    /// Writes the expected, actual and diff images of a mismatch to the run's output directory.
    /// The actual image is a new stable screenshot (the driver's mismatch carries none through
    /// playwright-rs), and the diff is drawn by the driver's own comparator.
    fn failure_images(
        &self,
        shots: &Screenshots,
        baseline: &BaselineName<'_>,
        request: &Request,
        slot: &PageSlot,
        expected: &[u8],
    ) -> VisualDiff {
        let stem = format!(
            "{}-{}",
            crate::cache::slug(&shots.scenario),
            baseline.file_name().trim_end_matches(".png")
        );
        let write = |suffix: &str, png: &[u8]| -> Option<PathBuf> {
            let path = shots.output.join(format!("{stem}-{suffix}.png"));
            std::fs::create_dir_all(&shots.output)
                .and_then(|()| std::fs::write(&path, png))
                .inspect_err(|err| tracing::warn!("cannot write {}: {err}", path.display()))
                .ok()
                .map(|()| path)
        };
        let expected_path =
            write("expected", expected).unwrap_or_else(|| shots.baselines.path(baseline));
        let actual = match self.shoot(slot, request, None) {
            Ok(Shot::Taken(Some(png))) => write("actual", &png),
            _ => None,
        };
        let diff = actual.as_ref().and_then(|actual| {
            let path = shots.output.join(format!("{stem}-diff.png"));
            diff_images(&expected_path, actual, &path, &request.comparison())
                .inspect_err(|err| tracing::warn!("no diff image: {err}"))
                .ok()
                .flatten()
                .map(|()| path)
        });
        VisualDiff {
            baseline: shots.baselines.path(baseline),
            expected: expected_path,
            actual,
            diff,
        }
    }
}

/// A baseline strict replay (or a proof run) may not write.
fn missing_baseline(path: &Path, scenario: &str) -> HostError {
    HostError {
        kind: FailureKind::Misconfigured,
        message: format!(
            "CONFIGURATION ERROR: no screenshot baseline {}; `replay --strict` never writes one: \
             run `prettyplay run {scenario}` to create it, then commit it",
            path.display()
        ),
        log: Vec::new(),
        received: None,
    }
}

/// A page that never held still for the comparison: a timeout, so the settle window may take
/// the shot again, and never a mismatch, because no image was compared with the baseline.
fn unstable(driver: &str) -> HostError {
    HostError {
        kind: FailureKind::Timeout,
        message: format!(
            "toHaveScreenshot: the page was not stable in time: {}\nno two screenshots in a row \
             were identical before the timeout, so nothing was compared with the baseline: mask \
             a changing region (`mask`) or stop its animation, or raise the timeout for a slow \
             page",
            driver.trim()
        ),
        log: Vec::new(),
        received: None,
    }
}

/// The driver's message with the images to look at and how to accept the new look.
fn mismatch_message(driver: &str, baseline: &Path, images: &VisualDiff) -> String {
    let mut lines = vec![driver.trim().to_owned(), String::new()];
    lines.push(format!("Baseline: {}", baseline.display()));
    lines.push(format!("Expected: {}", images.expected.display()));
    if let Some(actual) = &images.actual {
        lines.push(format!("Received: {}", actual.display()));
    }
    if let Some(diff) = &images.diff {
        lines.push(format!("    Diff: {}", diff.display()));
    }
    lines.push(String::new());
    lines.push(
        "a screenshot mismatch is never healed; if the new look is right, accept it with \
         `prettyplay run --update-snapshots` and commit the baseline"
            .to_owned(),
    );
    lines.join("\n")
}
