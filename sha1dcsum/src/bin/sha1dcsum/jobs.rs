//! Many units of work on N threads, results handed back in order.
//!
//! The units come from an iterator, pulled under the claim lock by the
//! thread that needs work (so whatever the iterator does to produce a unit,
//! such as a `stat` of the next files, runs on the worker threads, one at a
//! time, while the others hash). Each thread owns its state (a read buffer
//! and a hasher: constant memory per thread). A thread may run at most
//! `WINDOW` units ahead of the oldest result not yet consumed, so a slow
//! first unit never lets the finished results behind it pile up without
//! bound. The consumer runs on the calling thread and can stop everything
//! (a closed output) by returning `false`.
//!
//! The run counts its threads at work ([`Cores`]), so that one with a large
//! unit may take a second thread for it once a core is free.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Condvar, Mutex};

/// The threads a run may use (`-j`) and the threads at work. A core is
/// free once every unit is claimed and fewer threads are at work than the
/// run may use: the thread with the one large file of a run, or with one
/// of its last files, may then take a second thread for it.
pub struct Cores {
    limit: usize,
    busy: AtomicUsize,
    drained: AtomicBool,
}

impl Cores {
    pub fn new(limit: usize) -> Cores {
        Cores {
            limit,
            busy: AtomicUsize::new(0),
            drained: AtomicBool::new(false),
        }
    }

    /// A second thread for the calling thread's unit, if a core is free
    /// now; it counts as at work until the guard is dropped.
    pub fn second(&self) -> Option<Second<'_>> {
        if !self.drained.load(Ordering::Acquire) {
            return None;
        }
        let mut busy = self.busy.load(Ordering::Acquire);
        while busy < self.limit {
            match self
                .busy
                .compare_exchange(busy, busy + 1, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return Some(Second(self)),
                Err(now) => busy = now,
            }
        }
        None
    }

    /// A thread starts on a unit; `last` when no unit is left after it.
    pub fn start(&self, last: bool) {
        self.busy.fetch_add(1, Ordering::AcqRel);
        if last {
            self.drain();
        }
    }

    /// A thread is done with its unit.
    fn end(&self) {
        self.busy.fetch_sub(1, Ordering::AcqRel);
    }

    /// Every unit is claimed.
    fn drain(&self) {
        self.drained.store(true, Ordering::Release);
    }
}

/// A second thread taken for a unit ([`Cores::second`]).
pub struct Second<'a>(&'a Cores);

impl Drop for Second<'_> {
    fn drop(&mut self) {
        self.0.end();
    }
}

/// Whether `units` yields nothing more (by its upper bound).
fn exhausted<J: Iterator>(units: &J) -> bool {
    units.size_hint().1 == Some(0)
}

/// How far past the oldest unconsumed unit the threads may claim, per thread.
const WINDOW_PER_THREAD: usize = 16;

struct Claims<J> {
    units: J,
    /// The number of the next unit handed out.
    next: usize,
    /// The oldest unit not consumed yet.
    consumed: usize,
    /// Set when the consumer stops or the units run out: claim nothing more.
    stop: bool,
}

/// What the threads share: the claims, and the signal that the consumer
/// moved on (which may open the window to a waiting thread).
struct Shared<J> {
    claims: Mutex<Claims<J>>,
    moved: Condvar,
    window: usize,
}

impl<J: Iterator> Shared<J> {
    /// The next unit and its number, waiting while it is more than the
    /// window past the oldest unconsumed one; `None` when nothing is left
    /// to claim. A unit claimed counts its thread at work in `cores`.
    fn claim(&self, cores: &Cores) -> Option<(usize, J::Item)> {
        let mut c = self.claims.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if c.stop {
                return None;
            }
            if c.next < c.consumed + self.window {
                let unit = match c.units.next() {
                    Some(unit) => unit,
                    None => {
                        c.stop = true;
                        cores.drain();
                        return None;
                    }
                };
                cores.start(exhausted(&c.units));
                c.next += 1;
                return Some((c.next - 1, unit));
            }
            c = self.moved.wait(c).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Records that every unit before `consumed` is consumed, or that the
    /// consumer stopped, and wakes the threads waiting for either.
    fn advance(&self, consumed: usize, stop: bool) {
        let mut c = self.claims.lock().unwrap_or_else(|e| e.into_inner());
        c.consumed = consumed;
        c.stop |= stop;
        drop(c);
        self.moved.notify_all();
    }
}

/// Runs `work(state, unit, cores)` for every unit `units` yields on `jobs`
/// threads (fewer when the iterator's upper bound is lower), each with its
/// own `state` from `init`, and `consume(k, result)` on this thread for the
/// k-th unit, in order of `k`. Stops early when `consume` returns false.
/// `cores` tells `work` when it may take a second thread (up to `jobs` in
/// all).
pub fn run<U, J, S, T, I, W, C>(mut units: J, jobs: usize, init: I, work: W, mut consume: C)
where
    J: Iterator<Item = U> + Send,
    U: Send,
    T: Send,
    I: Fn() -> S + Sync,
    W: Fn(&mut S, U, &Cores) -> T + Sync,
    C: FnMut(usize, T) -> bool,
{
    let cores = Cores::new(jobs);
    let most = units.size_hint().1.unwrap_or(usize::MAX);
    let jobs = jobs.clamp(1, most.max(1));
    if jobs == 1 {
        let mut state = init();
        let mut k = 0;
        while let Some(unit) = units.next() {
            cores.start(exhausted(&units));
            let result = work(&mut state, unit, &cores);
            cores.end();
            if !consume(k, result) {
                return;
            }
            k += 1;
        }
        return;
    }
    let shared = Shared {
        claims: Mutex::new(Claims {
            units,
            next: 0,
            consumed: 0,
            stop: false,
        }),
        moved: Condvar::new(),
        window: jobs * WINDOW_PER_THREAD,
    };
    let (send, receive) = mpsc::channel::<(usize, T)>();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let send = send.clone();
            let (init, work, shared, cores) = (&init, &work, &shared, &cores);
            scope.spawn(move || {
                let mut state = init();
                while let Some((k, unit)) = shared.claim(cores) {
                    let result = work(&mut state, unit, cores);
                    cores.end();
                    if send.send((k, result)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(send);
        deliver(receive, consume, &shared);
    });
}

/// Hands the results to `consume` in the order of their numbers as they
/// arrive, until every thread has hung up; after `consume` stops, the
/// results still arriving are dropped.
fn deliver<J: Iterator, T>(
    receive: mpsc::Receiver<(usize, T)>,
    mut consume: impl FnMut(usize, T) -> bool,
    shared: &Shared<J>,
) {
    let mut pending = BTreeMap::new();
    let mut next = 0;
    let mut stopped = false;
    for (k, result) in receive.iter() {
        if stopped {
            continue;
        }
        pending.insert(k, result);
        while let Some(result) = pending.remove(&next) {
            if !consume(next, result) {
                stopped = true;
                pending.clear();
                break;
            }
            next += 1;
        }
        shared.advance(next, stopped);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A count that threads raise and others wait on: the tests' only
    /// synchronisation (no sleeps, no polling).
    #[derive(Default)]
    struct Count {
        n: Mutex<usize>,
        raised: Condvar,
    }

    impl Count {
        fn raise(&self) {
            *self.n.lock().unwrap() += 1;
            self.raised.notify_all();
        }

        fn wait_for(&self, at_least: usize) {
            let mut n = self.n.lock().unwrap();
            while *n < at_least {
                n = self.raised.wait(n).unwrap();
            }
        }

        fn get(&self) -> usize {
            *self.n.lock().unwrap()
        }
    }

    /// The first unit finishes only after the next `later` ones have (on
    /// the other threads), so their results arrive first and wait for it;
    /// they are still consumed in order.
    #[test]
    fn results_come_in_order_whatever_the_threads() {
        for jobs in [1, 2, 3, 8, 100] {
            let finished = Count::default();
            // On one thread the units run in order: nothing to wait for.
            let later = if jobs == 1 { 0 } else { 20 };
            let mut seen = Vec::new();
            run(
                0..50,
                jobs,
                || 0u32,
                |calls, i, _| {
                    *calls += 1;
                    if i == 0 {
                        finished.wait_for(later);
                    }
                    finished.raise();
                    i * 3
                },
                |i, r| {
                    if i == 0 {
                        assert!(finished.get() > later, "jobs {jobs}");
                    }
                    assert_eq!(r, i * 3);
                    seen.push(i);
                    true
                },
            );
            assert_eq!(seen, (0..50).collect::<Vec<_>>(), "jobs {jobs}");
        }
    }

    #[test]
    fn stopping_claims_nothing_more() {
        let done = AtomicUsize::new(0);
        let mut consumed = 0;
        run(
            0..10_000,
            4,
            || (),
            |(), _, _| {
                done.fetch_add(1, Ordering::Relaxed);
            },
            |_, ()| {
                consumed += 1;
                consumed < 5
            },
        );
        assert_eq!(consumed, 5);
        // At most the window past what was consumed.
        assert!(done.load(Ordering::Relaxed) <= 5 + 4 * WINDOW_PER_THREAD + 4);
    }

    /// Units from an iterator that yields fewer than its upper bound (as
    /// the plan of groups does), the first of them slower than the next
    /// ones.
    #[test]
    fn units_of_unknown_count_come_in_order() {
        for jobs in [1, 2, 5] {
            let finished = Count::default();
            let mut seen = Vec::new();
            run(
                (0..200).filter(|i| i % 3 != 1),
                jobs,
                || (),
                |(), unit, _| {
                    if unit == 0 && jobs > 1 {
                        finished.wait_for(10);
                    }
                    finished.raise();
                    unit * 2
                },
                |k, r| {
                    assert_eq!(k, seen.len());
                    seen.push(r / 2);
                    true
                },
            );
            let want: Vec<_> = (0..200).filter(|i| i % 3 != 1).collect();
            assert_eq!(seen, want, "jobs {jobs}");
        }
    }

    /// A thread's state, dropped when the thread has no unit left: by then
    /// it counts as at work no more.
    struct Idles<'a>(&'a Count);

    impl Drop for Idles<'_> {
        fn drop(&mut self) {
            self.0.raise();
        }
    }

    /// A thread may take a second one once every unit is claimed and fewer
    /// threads are at work than the run may use: the last unit gets one
    /// once every other thread has run out of units; the others, claimed
    /// while units remained or beside a busy thread, do not; with one job,
    /// none does.
    #[test]
    fn a_second_thread_is_free_once_every_unit_is_claimed_and_a_thread_idles() {
        for jobs in [1, 2, 3] {
            let idle = Count::default();
            let mut got = Vec::new();
            run(
                0..6,
                jobs,
                || Idles(&idle),
                |_, unit, cores| {
                    if unit == 5 {
                        idle.wait_for(jobs - 1);
                    }
                    cores.second().is_some()
                },
                |_, second| {
                    got.push(second);
                    true
                },
            );
            let want: Vec<bool> = (0..6).map(|u| u == 5 && jobs > 1).collect();
            // With 3 threads, a unit may start with a third one idle.
            if jobs == 3 {
                assert!(got[5], "jobs 3");
                continue;
            }
            assert_eq!(got, want, "jobs {jobs}");
        }
    }

    #[test]
    fn no_input() {
        run(
            0..0,
            4,
            || (),
            |(), _, _| unreachable!(),
            |_, ()| unreachable!(),
        );
    }
}
