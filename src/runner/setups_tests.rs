//! Unit tests of `setups.rs`: which setups a selection needs and the order tests start in.

use super::*;
use crate::runner::with_setups;
use crate::scenario::parse;

fn scenarios(files: &[(&str, &str)]) -> Vec<Scenario> {
    files
        .iter()
        .map(|(name, source)| {
            let parsed = parse(name, source.as_bytes()).expect("parses");
            Scenario {
                path: (*name).into(),
                rel_path: (*name).to_owned(),
                background: parsed.background,
                tests: parsed.tests,
            }
        })
        .collect()
}

fn project() -> Vec<Scenario> {
    scenarios(&[
        (
            "auth.steps",
            "test: sign in [saves=user]\n  sign in\n\
             test: become admin [state=user] [saves=admin]\n  promote\n\
             test: plain\n  look\n",
        ),
        (
            "shop.steps",
            "test: order [state=admin]\n  order\ntest: browse\n  browse\n\
             test: cart [state=user]\n  cart\n",
        ),
    ])
}

fn state() -> Arc<SavedState> {
    Arc::new(SavedState::from_json(r#"{"cookies": [], "origins": []}"#).expect("a state"))
}

fn never() -> bool {
    false
}

#[test]
fn a_selection_gets_the_setups_it_needs_in_front_and_transitively() {
    let scenarios = project();
    // `order` needs admin, which needs user.
    assert_eq!(
        with_setups(&scenarios, vec![(1, 0)]),
        [(0, 0), (0, 1), (1, 0)]
    );
    // A setup selected anyway keeps its place; nothing is added twice.
    assert_eq!(
        with_setups(&scenarios, vec![(1, 2), (0, 0)]),
        [(1, 2), (0, 0)]
    );
    assert_eq!(with_setups(&scenarios, vec![(1, 1)]), [(1, 1)]);
}

#[test]
fn setups_start_first_and_dependents_wait_for_their_state() {
    let scenarios = project();
    let selected = with_setups(&scenarios, vec![(1, 0), (1, 1), (1, 2)]);
    let schedule = Schedule::new(&scenarios, &selected);
    let Next::Run(first, None) = schedule.next(&never) else {
        panic!("the first setup runs first");
    };
    assert_eq!(first, (0, 0));
    // `become admin` waits on `user`: the next ready test is `browse`.
    let Next::Run(second, None) = schedule.next(&never) else {
        panic!("a test without state");
    };
    assert_eq!(second, (1, 1));
    schedule.finished(first, Ok(state()));
    let Next::Run(third, Some(_)) = schedule.next(&never) else {
        panic!("become admin, with the user state");
    };
    assert_eq!(third, (0, 1));
    let Next::Run(fourth, Some(_)) = schedule.next(&never) else {
        panic!("cart, with the user state");
    };
    assert_eq!(fourth, (1, 2));
    // `order` waits for `admin`: with tests still running, a stopping run ends the wait.
    assert!(matches!(schedule.next(&|| true), Next::Done));
    schedule.finished(third, Err(true));
    let Next::SetupFailed(at, failed) = schedule.next(&never) else {
        panic!("order does not run");
    };
    assert_eq!(at, (1, 0));
    assert_eq!(failed.state, "admin");
    assert!(failed.infrastructure);
    assert_eq!(
        failed.message(),
        "setup failed: `auth.steps › become admin` (line 3), which saves state `admin`, did \
         not pass; this test did not run"
    );
    assert!(matches!(schedule.next(&never), Next::Done));
    assert_eq!(schedule.left(), 0);
}

#[test]
fn a_waiting_worker_is_woken_when_the_setup_finishes() {
    let scenarios = project();
    let selected = with_setups(&scenarios, vec![(1, 2)]);
    let schedule = Schedule::new(&scenarios, &selected);
    let Next::Run(setup, None) = schedule.next(&never) else {
        panic!("the setup");
    };
    std::thread::scope(|scope| {
        let waiter = scope.spawn(|| schedule.next(&never));
        std::thread::sleep(Duration::from_millis(50));
        schedule.finished(setup, Ok(state()));
        assert!(matches!(
            waiter.join().expect("joined"),
            Next::Run((1, 2), Some(_))
        ));
    });
}

#[test]
fn a_state_no_test_of_the_run_saves_fails_its_tests_without_running_them() {
    let scenarios = project();
    let schedule = Schedule::new(&scenarios, &[(1, 2)]);
    let Next::SetupFailed(_, failed) = schedule.next(&never) else {
        panic!("not run");
    };
    assert_eq!(failed.setup, None);
    assert!(
        failed
            .message()
            .contains("no test of this run saves state `user`")
    );
}

#[test]
fn state_files_are_written_whole_and_private() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = write_state(&dir.path().join("state"), "user", &state()).expect("written");
    assert_eq!(path, dir.path().join("state/user.json"));
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(SavedState::from_json(&text).is_ok(), "{text}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let names: Vec<_> = std::fs::read_dir(dir.path().join("state"))
        .expect("list")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names, ["user.json"], "no temporary file left");
}

#[test]
fn a_setup_that_cannot_run_fails_the_tests_of_its_own_state_too() {
    let scenarios = project();
    // `order` needs admin, saved by `become admin`, which needs user.
    let selected = with_setups(&scenarios, vec![(1, 0)]);
    let schedule = Schedule::new(&scenarios, &selected);
    let Next::Run(sign_in, None) = schedule.next(&never) else {
        panic!("sign in first");
    };
    schedule.finished(sign_in, Err(false));
    let Next::SetupFailed((0, 1), _) = schedule.next(&never) else {
        panic!("become admin does not run");
    };
    let Next::SetupFailed((1, 0), failed) = schedule.next(&never) else {
        panic!("order does not run either, rather than wait");
    };
    assert_eq!(failed.state, "admin");
    assert_eq!(
        failed.setup.map(|s| s.name).as_deref(),
        Some("become admin")
    );
    assert!(matches!(schedule.next(&never), Next::Done));
}
