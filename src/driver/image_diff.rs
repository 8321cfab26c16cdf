//! The diff image of a screenshot mismatch, drawn by the pinned playwright-core's own image
//! comparator (the one the driver's `Page.expectScreenshot` compares with), run by the driver's
//! Node.js. playwright-rs keeps the driver's error details (where the driver puts its diff)
//! from its callers, so the diff is drawn again from the two images.
//!
//! Main function: [`diff_images`].

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// Loads the comparator from the driver's bundle and writes the diff; prints whether the
/// images differ by the options given.
const DIFF_SCRIPT: &str = r#"
const fs = require('fs');
const path = require('path');
const [cliJs, expected, actual, diff, options] = process.argv.slice(1);
const bundle = require(path.join(path.dirname(cliJs), 'lib', 'coreBundle.js'));
const compare = bundle.utils.getComparator('image/png');
const result = compare(fs.readFileSync(actual), fs.readFileSync(expected), JSON.parse(options));
if (result && result.diff) fs.writeFileSync(diff, result.diff);
process.stdout.write(JSON.stringify({ differ: !!result, diff: !!(result && result.diff) }));
"#;

/// Writes the diff of `expected` and `actual` to `diff` with the comparator's `options`
/// (`threshold`, `maxDiffPixels`, `maxDiffPixelRatio`). `Some(())` when a diff image was written;
/// `None` when the comparator drew none (the images match now, or their sizes differ).
///
/// The driver's location is the one exported for playwright-rs (`PLAYWRIGHT_NODE_EXE`,
/// `PLAYWRIGHT_CLI_JS`), so the comparator is the running driver's.
pub(crate) fn diff_images(
    expected: &Path,
    actual: &Path,
    diff: &Path,
    options: &Value,
) -> Result<Option<()>, String> {
    let node = std::env::var_os("PLAYWRIGHT_NODE_EXE").ok_or("the driver's Node.js is unknown")?;
    let cli_js = std::env::var_os("PLAYWRIGHT_CLI_JS").ok_or("the driver's cli.js is unknown")?;
    let output = Command::new(node)
        .arg("-e")
        .arg(DIFF_SCRIPT)
        .arg(cli_js)
        .arg(expected)
        .arg(actual)
        .arg(diff)
        .arg(options.to_string())
        .output()
        .map_err(|err| format!("cannot run the driver's Node.js: {err}"))?;
    if !output.status.success() {
        return Err(format!(
            "the driver's comparator failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let answer: Value = serde_json::from_slice(&output.stdout)
        .map_err(|err| format!("the comparator's answer is not JSON: {err}"))?;
    Ok((answer.get("diff") == Some(&Value::Bool(true))).then_some(()))
}
