//! The switches every local Chromium is launched with, before those that depend on the run's
//! settings (`runtime.rs`, `chromium_launch_args`).
//!
//! Main function: [`base_args`].

/// Chromium flags for a closed network. Without the background-networking flags, Chromium
/// floods the refused network with connection attempts at every start.
const CHROMIUM_ARGS: &[&str] = &[
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-gpu",
];

/// The features the pinned Playwright driver turns off (`disabledFeatures` of its
/// `chromiumSwitches.ts`). Chromium keeps only the last `--disable-features` switch of a
/// command line and the driver puts a launch's own switches after its own, so prettyplay's
/// switch must name these again or they would be turned back on.
const PLAYWRIGHT_DISABLED_FEATURES: &[&str] = &[
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "DialMediaRouteProvider",
    "GlobalMediaControls",
    "HttpsUpgrades",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "BlockOriginHeaderModificationOnRedirect",
    "Translate",
    "AutoDeElevate",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
];

/// The features prettyplay turns off besides. On a page with a password form Chromium asks
/// Google's autofill server about the form, through the test's context: with `allowed_origins`
/// on, the context's proxy refuses and logs each such connection, and with every origin allowed
/// it would leave the machine with a description of the app's form.
const OWN_DISABLED_FEATURES: &[&str] = &["AutofillServerCommunication"];

/// The switches of every local Chromium: the closed-network flags and one `--disable-features`.
pub(crate) fn base_args() -> Vec<String> {
    let mut args: Vec<String> = CHROMIUM_ARGS.iter().map(|a| (*a).to_owned()).collect();
    let features: Vec<&str> = PLAYWRIGHT_DISABLED_FEATURES
        .iter()
        .chain(OWN_DISABLED_FEATURES)
        .copied()
        .collect();
    args.push(format!("--disable-features={}", features.join(",")));
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_disable_features_switch_names_the_driver_s_features_and_prettyplay_s() {
        let args = base_args();
        let switches: Vec<&String> = args
            .iter()
            .filter(|a| a.starts_with("--disable-features="))
            .collect();
        assert_eq!(switches.len(), 1, "{args:?}");
        let named: Vec<&str> = switches[0]["--disable-features=".len()..]
            .split(',')
            .collect();
        for feature in PLAYWRIGHT_DISABLED_FEATURES
            .iter()
            .chain(OWN_DISABLED_FEATURES)
        {
            assert!(named.contains(feature), "{feature} missing from {named:?}");
        }
        assert!(args.contains(&"--disable-background-networking".to_owned()));
    }
}
