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
//! and a busy machine widens that gap. So when step code last acted on a page (a click, a
//! fill, a navigation, its own JavaScript) less than [`ACTED_FLOOR`] ago, a settle also lets
//! that much time pass since the act, and then asks the round trips again if anything was
//! heard meanwhile. A test that ends on checks, read after its last act, does not wait at all,
//! and a busy page does not make the floor longer.
//!
//! While a settle runs, it follows only the requests that the step can have caused: those
//! that started before the settle, within [`ACTED_FLOOR`] of an act, during its first round
//! trips, or during the round trip after a followed request ended (what the page does with an
//! answer, it does before the next barrier answers). A request the page starts on its own
//! timer later than that (an app that polls its server) is still routed and judged like every
//! other, but its start and end do not ask for more round trips, so the app's poll rate does
//! not set how long a settle takes.
use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// How many round trips in a row must pass with no traffic before a settle ends.
const CALM_ROUND_TRIPS: u32 = 2;

/// How many round trips, begun after a followed request ended, a request that starts is
/// followed as the end's possible consequence: the page handles an answer before the next
/// barrier through it answers.
const FOLLOW_ROUND_TRIPS: u64 = 1;

/// How long after step code's last act on a page a settle ends at the earliest: the quiet wait
/// the guard held to before it had the barrier, kept only for the moments just after an act.
pub(crate) const ACTED_FLOOR: Duration = Duration::from_millis(150);

/// The requests of one context, and a count of every change.
pub(crate) struct Traffic {
    state: Mutex<State>,
    changed: Notify,
}

#[derive(Default)]
struct State {
    /// Requests (by protocol id) that started and were not answered, refused or failed yet.
    open: HashMap<String, Open>,
    /// Requests whose end was heard before their start: the driver's events arrive in order,
    /// but playwright-rs hands each to its handler on a task of its own.
    ended_early: HashSet<String>,
    /// Bumped by every followed request that starts or ends, every route, socket and refused
    /// connection.
    version: u64,
    /// How many executions of step code started (see [`Traffic::mark`]).
    execution: u64,
    /// When step code last acted on a page (see [`Traffic::acted`]).
    acted_at: Option<Instant>,
    /// How many round trips settles have begun and finished, counted over the context's life.
    trips_begun: u64,
    trips_done: u64,
    /// While a settle runs, the number `trips_done` must reach before a request that starts is
    /// no longer followed for being near the settle's start or a followed request's end;
    /// `None` when no settle runs, and then every request is followed.
    follow_until: Option<u64>,
}

/// A request that started and has not ended.
struct Open {
    /// The execution of step code during which it started.
    execution: u64,
    /// Whether the step can have caused it, so that its end asks for more round trips (see
    /// the module's header).
    followed: bool,
}

impl State {
    /// Whether a request that starts now is followed.
    fn follows_new(&self, now: Instant) -> bool {
        let Some(until) = self.follow_until else {
            return true;
        };
        self.trips_done < until || self.acted_at.is_some_and(|at| now < at + ACTED_FLOOR)
    }

    /// Notes a change of a followed request: a settle needs calm round trips again, and what
    /// starts during the next round trip may be the change's consequence.
    fn followed_change(&mut self) {
        self.version += 1;
        if let Some(until) = self.follow_until {
            self.follow_until = Some(until.max(self.trips_begun + FOLLOW_ROUND_TRIPS));
        }
    }
}

/// Clears a settle's follow window however the settle ends.
struct Following<'a>(&'a Traffic);

impl Drop for Following<'_> {
    fn drop(&mut self) {
        self.0.lock().follow_until = None;
    }
}

/// How a settle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Settled {
    /// Round trips through the pages saw nothing new and nothing open.
    Calm,
    /// The cap passed first: a page that streams, polls without pause or hangs.
    Capped,
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

    /// Notes that step code is about to act on a page: what the act sets going may be handed
    /// to the network only a while later.
    pub(crate) fn acted(&self) {
        self.lock().acted_at = Some(Instant::now());
    }

    pub(crate) fn started(&self, id: &str) {
        let mut state = self.lock();
        let followed = state.follows_new(Instant::now());
        if !state.ended_early.remove(id) {
            let execution = state.execution;
            state.open.insert(
                id.to_owned(),
                Open {
                    execution,
                    followed,
                },
            );
        }
        if followed {
            state.version += 1;
        }
        drop(state);
        self.changed.notify_waiters();
    }

    pub(crate) fn ended(&self, id: &str) {
        let mut state = self.lock();
        match state.open.remove(id) {
            Some(Open {
                followed: false, ..
            }) => {}
            Some(_) => state.followed_change(),
            None => {
                // Whether it was followed is known only at its start: follow it.
                state.ended_early.insert(id.to_owned());
                state.followed_change();
            }
        }
        drop(state);
        self.changed.notify_waiters();
    }

    /// Notes traffic that is not a request's start or end (a route, a socket, a connection
    /// the proxy refused): a settle in progress needs another calm round trip.
    pub(crate) fn touched(&self) {
        self.lock().version += 1;
        self.changed.notify_waiters();
    }

    /// Waits until nothing the pages started is still unseen: `round_trip` (a barrier through
    /// every page) passes [`CALM_ROUND_TRIPS`] times in a row with no followed request
    /// starting or ending meanwhile, and no followed request the current execution started is
    /// still open. Requests that earlier executions left open (a stream, a long poll) do not
    /// hold it: what they become is judged when it happens. It gives up after `cap`.
    pub(crate) async fn settle<R, F>(&self, round_trip: R, cap: Duration) -> Settled
    where
        R: Fn(Duration) -> F,
        F: Future<Output = ()>,
    {
        let floor_ends = {
            let mut state = self.lock();
            state.follow_until = Some(state.trips_begun + u64::from(CALM_ROUND_TRIPS));
            state.acted_at.map(|at| at + ACTED_FLOOR)
        };
        let _following = Following(self);
        let start = Instant::now();
        let mut calm = 0;
        loop {
            let left = cap.saturating_sub(start.elapsed());
            if left.is_zero() {
                return Settled::Capped;
            }
            let before = {
                let mut state = self.lock();
                state.trips_begun += 1;
                state.version
            };
            round_trip(left).await;
            // Handlers of the events that came before the barrier's answer were spawned
            // before it was read: let them run.
            tokio::task::yield_now().await;
            let (version, open) = {
                let mut state = self.lock();
                state.trips_done += 1;
                let current = state.execution;
                (
                    state.version,
                    state
                        .open
                        .values()
                        .filter(|o| o.followed && o.execution == current)
                        .count(),
                )
            };
            if version == before && open == 0 {
                calm += 1;
                if calm < CALM_ROUND_TRIPS {
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
                let _ = tokio::time::timeout(left, self.changed.notified()).await;
            }
        }
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
            .settle(barrier(&trips), Duration::from_secs(5))
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
            .settle(barrier(&trips), Duration::from_secs(5))
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
            traffic.settle(round_trip, Duration::from_secs(5)).await,
            Settled::Calm
        );
        assert_eq!(trips.load(Ordering::SeqCst), 1 + CALM_ROUND_TRIPS);
    }

    #[tokio::test]
    async fn just_after_an_act_the_floor_is_waited_for_and_traffic_starts_it_again() {
        let traffic = Arc::new(Traffic::default());
        traffic.acted();
        let acted = Instant::now();
        let trips = AtomicU32::new(0);
        let settled = traffic
            .settle(barrier(&trips), Duration::from_secs(5))
            .await;
        assert_eq!(settled, Settled::Calm);
        assert!(acted.elapsed() >= ACTED_FLOOR);
        assert_eq!(trips.load(Ordering::SeqCst), CALM_ROUND_TRIPS);
        // A request heard of during the floor asks for calm round trips again, and no more
        // floor.
        traffic.acted();
        let toucher = Arc::clone(&traffic);
        let touch = tokio::spawn(async move {
            tokio::time::sleep(ACTED_FLOOR / 2).await;
            toucher.touched();
        });
        let trips = AtomicU32::new(0);
        let settled = traffic
            .settle(barrier(&trips), Duration::from_secs(5))
            .await;
        touch.await.unwrap();
        assert_eq!(settled, Settled::Calm);
        assert!(trips.load(Ordering::SeqCst) > CALM_ROUND_TRIPS);
        // Long after the act, round trips alone decide.
        let trips = AtomicU32::new(0);
        let start = Instant::now();
        traffic
            .settle(barrier(&trips), Duration::from_secs(5))
            .await;
        assert_eq!(trips.load(Ordering::SeqCst), CALM_ROUND_TRIPS);
        assert!(start.elapsed() < ACTED_FLOOR);
    }

    #[tokio::test]
    async fn an_app_poll_after_the_follow_window_does_not_ask_for_more_round_trips() {
        let traffic = Arc::new(Traffic::default());
        traffic.mark();
        let trips = AtomicU32::new(0);
        let poller = Arc::clone(&traffic);
        // The first round trip hears a request start and end (followed: it may be the step's);
        // from the third on, every other round trip hears one of the app's polls.
        let round_trip = |_left: Duration| {
            let n = trips.fetch_add(1, Ordering::SeqCst) + 1;
            let poller = Arc::clone(&poller);
            async move {
                if n == 1 || (n >= 3 && n % 2 == 1) {
                    let id = format!("poll{n}");
                    poller.started(&id);
                    poller.ended(&id);
                }
            }
        };
        assert_eq!(
            traffic.settle(round_trip, Duration::from_secs(5)).await,
            Settled::Calm
        );
        assert_eq!(trips.load(Ordering::SeqCst), 3);
        // Between settles every request is followed again.
        traffic.started("next");
        assert!(traffic.lock().open.values().all(|o| o.followed));
    }

    #[tokio::test]
    async fn a_request_that_starts_just_after_a_followed_one_ended_is_followed() {
        let traffic = Arc::new(Traffic::default());
        traffic.mark();
        traffic.started("answer");
        let answered = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let followed_up = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (ender, flag) = (Arc::clone(&traffic), Arc::clone(&answered));
        let answer = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            flag.store(true, Ordering::SeqCst);
            ender.ended("answer");
        });
        // The first round trip after the answer hears the request its handler started, which
        // stays open for a while.
        let chain = Arc::clone(&traffic);
        let (asked, done) = (Arc::clone(&answered), Arc::clone(&followed_up));
        let started = std::sync::atomic::AtomicBool::new(false);
        let round_trip = |_left: Duration| {
            if asked.load(Ordering::SeqCst) && !started.swap(true, Ordering::SeqCst) {
                chain.started("follow-up");
                let (chain, done) = (Arc::clone(&chain), Arc::clone(&done));
                tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    done.store(true, Ordering::SeqCst);
                    chain.ended("follow-up");
                });
            }
            tokio::time::sleep(Duration::from_millis(5))
        };
        assert_eq!(
            traffic.settle(round_trip, Duration::from_secs(5)).await,
            Settled::Calm
        );
        answer.await.unwrap();
        assert!(
            followed_up.load(Ordering::SeqCst),
            "it returned before the follow-up ended"
        );
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
                .settle(barrier(&trips), Duration::from_secs(5))
                .await,
            Settled::Calm
        );
        traffic.started("poll");
        let capped = traffic
            .settle(barrier(&trips), Duration::from_millis(100))
            .await;
        assert_eq!(capped, Settled::Capped);
    }
}
