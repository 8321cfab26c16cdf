//! The requests of one test's context that are under way, so that a step is judged only once
//! what it set going has been routed, refused or answered: [`Traffic::settle`] ends as soon as
//! the evidence says nothing the pages started is still unseen, not after a fixed wait.
//!
//! Main type: [`Traffic`]. The evidence is a round trip through every page's renderer (a
//! barrier: whatever the page's code did before it answers has been handed to the network)
//! during which no request started or ended and none the current step started is still open.
//! The driver's events reach the guard by the same way back as the barrier's answer, so a
//! request started before the barrier is, in practice, heard of before it returns; a second
//! calm round trip leaves a whole round trip more for the rare event that is not. The barrier
//! is not an ordering guarantee, though: a page may hand a request to the network a task or
//! more after the call that caused it (Chromium schedules an inserted script's load, for one),
//! and a busy machine widens that gap, and a timer step code left fires after any barrier. So
//! when step code last made a call whose consequences may fail the test and come late (its own
//! JavaScript unless it only reads, a user's act; see `StepReach::may_answer_late`) less than
//! [`ACTED_FLOOR`] ago, a settle also lets that much time pass since the call, and then asks
//! the round trips again if anything was heard meanwhile. A busy page does not make the floor
//! longer.
//!
//! At a test's end ([`Floor::UnlessChecked`]) the floor after a user's act is dropped when step
//! code made another call after it (a check that passed has verified what the test claims)
//! and nothing the floor guards is in play (the guard decides; see `OriginGuard::settle`):
//! between steps a late request is routed and judged whenever it comes, but the context's
//! close cuts off whatever comes after the end. Such an end also needs only one calm round
//! trip, since the second one waits for the same late event as the floor.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// How many round trips in a row must pass with no traffic before a settle ends, unless it is
/// a test's end that keeps no floor (see [`calm_round_trips`]).
const CALM_ROUND_TRIPS: u32 = 2;

/// How long after step code's last call whose consequences may come late a settle ends at the
/// earliest: the quiet wait the guard held to before it had the barrier, kept only for the
/// moments just after such a call.
pub(crate) const ACTED_FLOOR: Duration = Duration::from_millis(150);

/// What kind of call of step code may have consequences that come late (see
/// `StepReach::may_answer_late`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Late {
    /// Step code's own JavaScript, or a timer it left that fired: the floor after it is always
    /// kept.
    Code,
    /// A user's act (or a navigation): at a test's end the floor after it is kept only when
    /// it was step code's last call or the guard says something it guards is in play.
    Act,
}

/// Which floors a settle keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Floor {
    /// After every late call: the settles between steps.
    Always,
    /// After step code's own JavaScript, and after a user's act only when no call of step
    /// code followed it: a test's end when nothing the floor guards is in play.
    UnlessChecked,
}

/// Where a settle is asked, which decides the floors it keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SettleAt {
    /// Before a step's code is kept, or a failed candidate's blocks are forgiven.
    Step,
    /// At the test's end, before its context closes.
    TestEnd,
}

impl SettleAt {
    /// The floors a settle asked here keeps, `guarded` when something the floor guards is in
    /// play. Between steps every floor is kept: it changes no verdict, since a late request is
    /// judged whenever it comes while the context lives, but it decides which step is blamed.
    /// At the test's end the close cuts off what comes later, and the floor after a user's act
    /// is kept only for what the checks after it have not verified: a request that may carry a
    /// secret step code typed, go to a host step code put into a page, or be answered by step
    /// code's own JavaScript. What the app does later on its own is judged as the app's.
    pub(crate) fn floor(self, guarded: bool) -> Floor {
        match self {
            SettleAt::Step => Floor::Always,
            SettleAt::TestEnd if guarded => Floor::Always,
            SettleAt::TestEnd => Floor::UnlessChecked,
        }
    }
}

/// When a settle that keeps `floor` may end at the earliest: [`ACTED_FLOOR`] after the last
/// late call (`last`), unless `floor` drops it because a call followed that act.
fn floor_ends(last: Option<(Instant, Late)>, called_since: bool, floor: Floor) -> Option<Instant> {
    let (at, late) = last?;
    let kept = match (late, floor) {
        (Late::Code, _) | (Late::Act, Floor::Always) => true,
        (Late::Act, Floor::UnlessChecked) => !called_since,
    };
    kept.then_some(at + ACTED_FLOOR)
}

/// How many calm round trips in a row end a settle that keeps `floor`, when the floor it keeps
/// ends at `floor_ends`. The second round trip only leaves time for a request the page started
/// before the barrier but handed to the network after it, the same late event the floor waits
/// for. A test's end that drops the floor has judged such an event as the app's own: nothing
/// step code could have caused is in play, and an assertion after the last act verified what
/// the test claims. So one calm round trip ends it: every route the driver announced before
/// the barrier's answer is still waited for and judged. Wherever a floor is kept, both round
/// trips are kept too.
fn calm_round_trips(floor: Floor, floor_ends: Option<Instant>) -> u32 {
    match (floor, floor_ends) {
        (Floor::UnlessChecked, None) => 1,
        (Floor::UnlessChecked, Some(_)) | (Floor::Always, _) => CALM_ROUND_TRIPS,
    }
}

/// The requests of one context, and a count of every change.
pub(crate) struct Traffic {
    state: Mutex<State>,
    changed: Notify,
}

#[derive(Default)]
struct State {
    /// Requests (by protocol id) that started and were not answered, refused or failed yet,
    /// with the execution of step code during which they started.
    open: HashMap<String, u64>,
    /// Requests whose end was heard before their start: the driver's events arrive in order,
    /// but playwright-rs hands each to its handler on a task of its own.
    ended_early: HashSet<String>,
    /// Bumped by every request that starts or ends, every route, socket and refused
    /// connection.
    version: u64,
    /// How many executions of step code started (see [`Traffic::mark`]).
    execution: u64,
    /// When step code last made a call whose consequences may come late, and its kind (see
    /// [`Traffic::acted`]).
    acted: Option<(Instant, Late)>,
    /// Whether step code made a call since that one (see [`Traffic::called`]).
    called_since: bool,
    /// Routed requests the guard is still judging (see [`Traffic::judging`]).
    judging: usize,
}

/// A routed request that the guard is judging; dropped once the judgement is recorded.
pub(crate) struct Judging<'a>(&'a Traffic);

impl Drop for Judging<'_> {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.judging -= 1;
        state.version += 1;
        drop(state);
        self.0.changed.notify_waiters();
    }
}

/// How a settle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Settled {
    /// Round trips through the pages saw nothing new and nothing open.
    Calm,
    /// The cap passed first: a page that streams, polls without pause or hangs.
    Capped,
    /// This many timers step code left in the pages were still pending when the bound of the
    /// wait for them passed (see `step_timers.rs`); the guard recorded the step's failure.
    TimersPending(u64),
}

impl Default for Traffic {
    fn default() -> Self {
        Traffic {
            state: Mutex::default(),
            changed: Notify::new(),
        }
    }
}

impl Traffic {
    /// Notes that an execution of step code starts: the requests open from now on are its.
    pub(crate) fn mark(&self) {
        self.lock().execution += 1;
    }

    /// Notes that step code is about to make a call of kind `late` whose consequences may fail
    /// the test and be handed to the network only a while later.
    pub(crate) fn acted(&self, late: Late) {
        let mut state = self.lock();
        state.acted = Some((Instant::now(), late));
        state.called_since = false;
    }

    /// Notes that the call of the last [`Traffic::acted`] returned: its floor counts from now.
    /// A check made while the call was parked (by a listener) came before its end, not after.
    pub(crate) fn returned(&self) {
        let mut state = self.lock();
        if let Some((at, _)) = &mut state.acted {
            *at = Instant::now();
            state.called_since = false;
        }
    }

    /// Notes that step code is about to make a call whose consequences come at once (a read,
    /// a check): at a test's end, an act before it needs no floor (see [`Floor`]).
    pub(crate) fn called(&self) {
        self.lock().called_since = true;
    }

    pub(crate) fn started(&self, id: &str) {
        let mut state = self.lock();
        if !state.ended_early.remove(id) {
            let execution = state.execution;
            state.open.insert(id.to_owned(), execution);
        }
        state.version += 1;
        drop(state);
        self.changed.notify_waiters();
    }

    pub(crate) fn ended(&self, id: &str) {
        let mut state = self.lock();
        if state.open.remove(id).is_none() {
            state.ended_early.insert(id.to_owned());
        }
        state.version += 1;
        drop(state);
        self.changed.notify_waiters();
    }

    /// Notes traffic that is not a request's start or end (a route, a socket, a connection
    /// the proxy refused): a settle in progress needs another calm round trip.
    pub(crate) fn touched(&self) {
        self.lock().version += 1;
        self.changed.notify_waiters();
    }

    /// Notes that the guard starts judging a routed request: until the returned value is
    /// dropped, a settle waits, because the judgement may need to wait for other events and
    /// a step must not be judged before it.
    pub(crate) fn judging(&self) -> Judging<'_> {
        let mut state = self.lock();
        state.judging += 1;
        state.version += 1;
        drop(state);
        self.changed.notify_waiters();
        Judging(self)
    }

    /// Waits until no routed request is being judged, for at most `cap`, so that every
    /// judgement begun so far is recorded.
    pub(crate) async fn judged(&self, cap: Duration) {
        let deadline = tokio::time::Instant::now() + cap;
        loop {
            // Made before the count is read, so that a change after the read still wakes it.
            let changed = self.changed.notified();
            if self.lock().judging == 0 {
                return;
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                return;
            }
        }
    }

    /// Waits until nothing the pages started is still unseen: `round_trip` (a barrier through
    /// every page) passes [`CALM_ROUND_TRIPS`] times in a row (once at a test's end that keeps
    /// no floor, see [`calm_round_trips`]) with no request starting or
    /// ending meanwhile, no request the current execution started still open, and `unheard`
    /// (the routes the driver announced before the barrier's answer whose handler has not
    /// started) at zero. Requests that earlier executions left open (a stream, a long poll) do
    /// not hold it: what they become is judged when it happens. It ends no earlier than the
    /// `floor` it keeps, and gives up after `cap`.
    pub(crate) async fn settle<R, F, U>(
        &self,
        round_trip: R,
        unheard: U,
        cap: Duration,
        floor: Floor,
    ) -> Settled
    where
        R: Fn(Duration) -> F,
        F: Future<Output = ()>,
        U: Fn() -> usize,
    {
        let start = Instant::now();
        let mut calm = 0;
        let floor_ends = self.floor_ends(floor);
        let calm_needed = calm_round_trips(floor, floor_ends);
        loop {
            let left = cap.saturating_sub(start.elapsed());
            if left.is_zero() {
                return Settled::Capped;
            }
            let before = self.lock().version;
            round_trip(left).await;
            // Handlers of the events that came before the barrier's answer were spawned
            // before it was read: let them run. A handler that has not started by the time
            // the lock is taken is still counted by `unheard`, which is read after the
            // barrier's answer and so covers every route announced before it.
            tokio::task::yield_now().await;
            // Made before the state is read, so that a change after the read still wakes it.
            let changed = self.changed.notified();
            let unheard = unheard();
            let (version, open) = {
                let state = self.lock();
                let current = state.execution;
                (
                    state.version,
                    unheard
                        + state.judging
                        + state.open.values().filter(|e| **e == current).count(),
                )
            };
            if version == before && open == 0 {
                calm += 1;
                if calm < calm_needed {
                    continue;
                }
                let now = Instant::now();
                match floor_ends {
                    Some(ends) if ends > now => {
                        let until = ends.min(start + cap);
                        tokio::time::sleep(until - now).await;
                        if self.lock().version == version {
                            return Settled::Calm;
                        }
                    }
                    _ => return Settled::Calm,
                }
            }
            calm = 0;
            if open > 0 {
                // Something is on its way: wait for it to change rather than spin.
                let left = cap.saturating_sub(start.elapsed());
                let _ = tokio::time::timeout(left, changed).await;
            }
        }
    }

    /// When a settle that keeps `floor` may end at the earliest, if a floor is kept.
    fn floor_ends(&self, floor: Floor) -> Option<Instant> {
        let state = self.lock();
        floor_ends(state.acted, state.called_since, floor)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while the lock was held leaves plain data behind, so the data is still used.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;

    /// A round trip that takes 5 ms and counts itself.
    fn barrier(count: &AtomicU32) -> impl Fn(Duration) -> tokio::time::Sleep + '_ {
        move |_| {
            count.fetch_add(1, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(5))
        }
    }

    #[tokio::test]
    async fn a_quiet_context_settles_after_two_calm_round_trips() {
        let traffic = Traffic::default();
        let trips = AtomicU32::new(0);
        let settled = traffic
            .settle(barrier(&trips), || 0, Duration::from_secs(5), Floor::Always)
            .await;
        assert_eq!(settled, Settled::Calm);
        assert_eq!(trips.load(Ordering::SeqCst), CALM_ROUND_TRIPS);
    }

    #[tokio::test]
    async fn an_end_heard_before_its_start_leaves_nothing_open() {
        let traffic = Traffic::default();
        traffic.ended("a");
        traffic.started("a");
        assert!(traffic.lock().open.is_empty() && traffic.lock().ended_early.is_empty());
    }

    #[tokio::test]
    async fn a_request_of_this_execution_holds_it_until_it_ends() {
        let traffic = Arc::new(Traffic::default());
        traffic.mark();
        traffic.started("b");
        let ended = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (ender, flag) = (Arc::clone(&traffic), Arc::clone(&ended));
        let end = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            flag.store(true, Ordering::SeqCst);
            ender.ended("b");
        });
        let trips = AtomicU32::new(0);
        let settled = traffic
            .settle(barrier(&trips), || 0, Duration::from_secs(5), Floor::Always)
            .await;
        assert_eq!(settled, Settled::Calm);
        assert!(
            ended.load(Ordering::SeqCst),
            "it returned before the request ended"
        );
        end.await.unwrap();
    }

    #[tokio::test]
    async fn traffic_during_a_round_trip_asks_for_more_round_trips() {
        let traffic = Arc::new(Traffic::default());
        let trips = AtomicU32::new(0);
        let toucher = Arc::clone(&traffic);
        // The first round trip sees a route, so two more calm ones are needed.
        let round_trip = |_left: Duration| {
            let n = trips.fetch_add(1, Ordering::SeqCst);
            let toucher = Arc::clone(&toucher);
            async move {
                if n == 0 {
                    toucher.touched();
                }
            }
        };
        assert_eq!(
            traffic
                .settle(round_trip, || 0, Duration::from_secs(5), Floor::Always)
                .await,
            Settled::Calm
        );
        assert_eq!(trips.load(Ordering::SeqCst), 1 + CALM_ROUND_TRIPS);
    }

    #[tokio::test]
    async fn just_after_an_act_the_floor_is_waited_for_and_traffic_starts_it_again() {
        let traffic = Arc::new(Traffic::default());
        traffic.acted(Late::Act);
        let acted = Instant::now();
        let trips = AtomicU32::new(0);
        let settled = traffic
            .settle(barrier(&trips), || 0, Duration::from_secs(5), Floor::Always)
            .await;
        assert_eq!(settled, Settled::Calm);
        assert!(acted.elapsed() >= ACTED_FLOOR);
        assert_eq!(trips.load(Ordering::SeqCst), CALM_ROUND_TRIPS);
        // A request heard of during the floor asks for calm round trips again, and no more
        // floor.
        traffic.acted(Late::Act);
        let toucher = Arc::clone(&traffic);
        let touch = tokio::spawn(async move {
            tokio::time::sleep(ACTED_FLOOR / 2).await;
            toucher.touched();
        });
        let trips = AtomicU32::new(0);
        let settled = traffic
            .settle(barrier(&trips), || 0, Duration::from_secs(5), Floor::Always)
            .await;
        touch.await.unwrap();
        assert_eq!(settled, Settled::Calm);
        assert!(trips.load(Ordering::SeqCst) > CALM_ROUND_TRIPS);
        // Long after the act, round trips alone decide.
        let trips = AtomicU32::new(0);
        let start = Instant::now();
        traffic
            .settle(barrier(&trips), || 0, Duration::from_secs(5), Floor::Always)
            .await;
        assert_eq!(trips.load(Ordering::SeqCst), CALM_ROUND_TRIPS);
        assert!(start.elapsed() < ACTED_FLOOR);
    }

    /// A judgement of 50 ms begun on `traffic`, and the flag it sets when it is recorded.
    async fn judgement_under_way(
        traffic: &Arc<Traffic>,
    ) -> (
        Arc<std::sync::atomic::AtomicBool>,
        tokio::task::JoinHandle<()>,
    ) {
        let judged = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (judge, flag) = (Arc::clone(traffic), Arc::clone(&judged));
        let (begun_tx, begun_rx) = tokio::sync::oneshot::channel();
        let judgement = tokio::spawn(async move {
            let judging = judge.judging();
            let _ = begun_tx.send(());
            tokio::time::sleep(Duration::from_millis(50)).await;
            flag.store(true, Ordering::SeqCst);
            drop(judging);
        });
        begun_rx.await.unwrap();
        (judged, judgement)
    }

    #[tokio::test]
    async fn a_request_being_judged_holds_it_until_the_judgement_is_recorded() {
        let traffic = Arc::new(Traffic::default());
        let (judged, judgement) = judgement_under_way(&traffic).await;
        let trips = AtomicU32::new(0);
        let settled = traffic
            .settle(barrier(&trips), || 0, Duration::from_secs(5), Floor::Always)
            .await;
        assert_eq!(settled, Settled::Calm);
        assert!(
            judged.load(Ordering::SeqCst),
            "it returned before the judgement"
        );
        judgement.await.unwrap();
    }

    #[tokio::test]
    async fn judged_waits_for_the_judgements_under_way() {
        let traffic = Arc::new(Traffic::default());
        traffic.judged(Duration::from_secs(5)).await;
        let (judged, judgement) = judgement_under_way(&traffic).await;
        traffic.judged(Duration::from_secs(5)).await;
        assert!(
            judged.load(Ordering::SeqCst),
            "it returned before the judgement"
        );
        judgement.await.unwrap();
    }

    #[tokio::test]
    async fn a_route_announced_but_not_heard_holds_it_until_its_handler_starts() {
        let traffic = Arc::new(Traffic::default());
        let unheard = Arc::new(AtomicU32::new(1));
        let (judge, count) = (Arc::clone(&traffic), Arc::clone(&unheard));
        let handler = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            // A handler counts its judgement before it is heard of, as `on_route` does.
            let judging = judge.judging();
            count.store(0, Ordering::SeqCst);
            drop(judging);
        });
        let trips = AtomicU32::new(0);
        let settled = traffic
            .settle(
                barrier(&trips),
                || unheard.load(Ordering::SeqCst) as usize,
                Duration::from_secs(5),
                Floor::Always,
            )
            .await;
        assert_eq!(settled, Settled::Calm);
        assert_eq!(unheard.load(Ordering::SeqCst), 0, "it returned unheard");
        handler.await.unwrap();
        // One that is never heard of holds it to the cap.
        let capped = traffic
            .settle(
                barrier(&trips),
                || 1,
                Duration::from_millis(100),
                Floor::Always,
            )
            .await;
        assert_eq!(capped, Settled::Capped);
    }

    #[tokio::test]
    async fn what_an_earlier_execution_left_open_does_not_hold_it_but_the_cap_does() {
        let traffic = Traffic::default();
        traffic.mark();
        traffic.started("stream");
        traffic.mark();
        let trips = AtomicU32::new(0);
        assert_eq!(
            traffic
                .settle(barrier(&trips), || 0, Duration::from_secs(5), Floor::Always)
                .await,
            Settled::Calm
        );
        traffic.started("poll");
        let capped = traffic
            .settle(
                barrier(&trips),
                || 0,
                Duration::from_millis(100),
                Floor::Always,
            )
            .await;
        assert_eq!(capped, Settled::Capped);
    }

    #[test]
    fn only_a_tests_end_with_nothing_guarded_in_play_drops_an_acts_floor() {
        assert_eq!(SettleAt::Step.floor(false), Floor::Always);
        assert_eq!(SettleAt::Step.floor(true), Floor::Always);
        assert_eq!(SettleAt::TestEnd.floor(true), Floor::Always);
        assert_eq!(SettleAt::TestEnd.floor(false), Floor::UnlessChecked);
    }

    #[test]
    fn which_floor_a_settle_keeps() {
        let at = Instant::now();
        let ends = Some(at + ACTED_FLOOR);
        // (last late call, a call since, floor kept) -> floor end
        let rows = [
            (None, false, Floor::Always, None),
            (None, true, Floor::UnlessChecked, None),
            (Some(Late::Code), true, Floor::Always, ends),
            (Some(Late::Code), true, Floor::UnlessChecked, ends),
            (Some(Late::Code), false, Floor::UnlessChecked, ends),
            (Some(Late::Act), true, Floor::Always, ends),
            (Some(Late::Act), false, Floor::Always, ends),
            (Some(Late::Act), false, Floor::UnlessChecked, ends),
            (Some(Late::Act), true, Floor::UnlessChecked, None),
        ];
        for (late, called_since, floor, expected) in rows {
            assert_eq!(
                floor_ends(late.map(|late| (at, late)), called_since, floor),
                expected,
                "{late:?} {called_since} {floor:?}"
            );
        }
    }

    #[test]
    fn a_check_after_an_act_drops_the_floor_only_at_a_tests_end_and_a_later_act_restores_it() {
        let traffic = Traffic::default();
        traffic.acted(Late::Act);
        assert!(traffic.floor_ends(Floor::UnlessChecked).is_some());
        traffic.called();
        assert!(traffic.floor_ends(Floor::Always).is_some());
        assert_eq!(traffic.floor_ends(Floor::UnlessChecked), None);
        // The test ends on a new act: its floor is kept again.
        traffic.acted(Late::Act);
        assert!(traffic.floor_ends(Floor::UnlessChecked).is_some());
        // Step code's own JavaScript keeps its floor whatever follows.
        traffic.acted(Late::Code);
        traffic.called();
        assert!(traffic.floor_ends(Floor::UnlessChecked).is_some());
    }

    #[tokio::test]
    async fn a_test_that_ends_on_its_act_waits_for_the_floor() {
        let traffic = Traffic::default();
        traffic.called();
        traffic.acted(Late::Act);
        let acted = Instant::now();
        let trips = AtomicU32::new(0);
        let settled = traffic
            .settle(
                barrier(&trips),
                || 0,
                Duration::from_secs(5),
                Floor::UnlessChecked,
            )
            .await;
        assert_eq!(settled, Settled::Calm);
        assert!(acted.elapsed() >= ACTED_FLOOR);
    }

    #[test]
    fn only_a_tests_end_that_keeps_no_floor_ends_on_one_calm_round_trip() {
        let ends = Some(Instant::now() + ACTED_FLOOR);
        // (floor kept, when the floor ends) -> calm round trips needed
        let rows = [
            (Floor::Always, None, CALM_ROUND_TRIPS),
            (Floor::Always, ends, CALM_ROUND_TRIPS),
            (Floor::UnlessChecked, ends, CALM_ROUND_TRIPS),
            (Floor::UnlessChecked, None, 1),
        ];
        for (floor, floor_ends, expected) in rows {
            assert_eq!(
                calm_round_trips(floor, floor_ends),
                expected,
                "{floor:?} {floor_ends:?}"
            );
        }
    }

    #[tokio::test]
    async fn a_checked_end_settles_after_one_calm_round_trip_and_traffic_asks_for_another() {
        let traffic = Arc::new(Traffic::default());
        traffic.acted(Late::Act);
        traffic.called();
        let trips = AtomicU32::new(0);
        let settled = traffic
            .settle(
                barrier(&trips),
                || 0,
                Duration::from_secs(5),
                Floor::UnlessChecked,
            )
            .await;
        assert_eq!(settled, Settled::Calm);
        assert_eq!(trips.load(Ordering::SeqCst), 1);
        // A route heard during the first round trip needs one more calm one.
        let trips = AtomicU32::new(0);
        let toucher = Arc::clone(&traffic);
        let round_trip = |_left: Duration| {
            let n = trips.fetch_add(1, Ordering::SeqCst);
            let toucher = Arc::clone(&toucher);
            async move {
                if n == 0 {
                    toucher.touched();
                }
            }
        };
        let settled = traffic
            .settle(
                round_trip,
                || 0,
                Duration::from_secs(5),
                Floor::UnlessChecked,
            )
            .await;
        assert_eq!(settled, Settled::Calm);
        assert_eq!(trips.load(Ordering::SeqCst), 2);
        // A route announced but not heard holds it, as between steps.
        let capped = traffic
            .settle(
                barrier(&AtomicU32::new(0)),
                || 1,
                Duration::from_millis(100),
                Floor::UnlessChecked,
            )
            .await;
        assert_eq!(capped, Settled::Capped);
        // Step code's own JavaScript keeps the floor, and both round trips with it.
        traffic.acted(Late::Code);
        traffic.called();
        let trips = AtomicU32::new(0);
        traffic
            .settle(
                barrier(&trips),
                || 0,
                Duration::from_secs(5),
                Floor::UnlessChecked,
            )
            .await;
        assert_eq!(trips.load(Ordering::SeqCst), CALM_ROUND_TRIPS);
    }

    #[tokio::test]
    async fn the_floor_counts_from_when_the_act_returned() {
        let traffic = Traffic::default();
        traffic.acted(Late::Act);
        // The act took 100 ms (a click waiting for its target), and set a request going as it
        // returned: the floor is the whole of it after the return.
        tokio::time::sleep(Duration::from_millis(100)).await;
        traffic.returned();
        let returned = Instant::now();
        let trips = AtomicU32::new(0);
        let settled = traffic
            .settle(barrier(&trips), || 0, Duration::from_secs(5), Floor::Always)
            .await;
        assert_eq!(settled, Settled::Calm);
        assert!(returned.elapsed() >= ACTED_FLOOR);
    }

    #[test]
    fn a_check_made_while_the_act_was_parked_does_not_drop_its_floor() {
        let traffic = Traffic::default();
        traffic.acted(Late::Act);
        // A listener's assertion ran while the act was parked; the act returned after it.
        traffic.called();
        traffic.returned();
        assert!(traffic.floor_ends(Floor::UnlessChecked).is_some());
        // An assertion after the act's return drops it at a test's end.
        traffic.called();
        assert_eq!(traffic.floor_ends(Floor::UnlessChecked), None);
    }
}
