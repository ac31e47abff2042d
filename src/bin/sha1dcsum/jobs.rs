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

use std::collections::BTreeMap;
use std::sync::mpsc;
use std::sync::{Condvar, Mutex};

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
    /// to claim.
    fn claim(&self) -> Option<(usize, J::Item)> {
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
                        return None;
                    }
                };
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

/// Runs `work(state, unit)` for every unit `units` yields on `jobs` threads
/// (fewer when the iterator's upper bound is lower), each with its own
/// `state` from `init`, and `consume(k, result)` on this thread for the
/// k-th unit, in order of `k`. Stops early when `consume` returns false.
pub fn run<U, J, S, T, I, W, C>(units: J, jobs: usize, init: I, work: W, mut consume: C)
where
    J: Iterator<Item = U> + Send,
    U: Send,
    T: Send,
    I: Fn() -> S + Sync,
    W: Fn(&mut S, U) -> T + Sync,
    C: FnMut(usize, T) -> bool,
{
    let most = units.size_hint().1.unwrap_or(usize::MAX);
    let jobs = jobs.clamp(1, most.max(1));
    if jobs == 1 {
        let mut state = init();
        for (k, unit) in units.enumerate() {
            if !consume(k, work(&mut state, unit)) {
                return;
            }
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
            let (init, work, shared) = (&init, &work, &shared);
            scope.spawn(move || {
                let mut state = init();
                while let Some((k, unit)) = shared.claim() {
                    if send.send((k, work(&mut state, unit))).is_err() {
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
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn results_come_in_order_whatever_the_threads() {
        for jobs in [1, 2, 3, 8, 100] {
            let mut seen = Vec::new();
            run(
                0..50,
                jobs,
                || 0u32,
                |calls, i| {
                    *calls += 1;
                    // Later inputs finish first.
                    std::thread::sleep(std::time::Duration::from_micros(((50 - i) * 20) as u64));
                    i * 3
                },
                |i, r| {
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
            |(), _| {
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
    /// the plan of groups does), some of them slow.
    #[test]
    fn units_of_unknown_count_come_in_order() {
        for jobs in [1, 2, 5] {
            let mut seen = Vec::new();
            run(
                (0..200).filter(|i| i % 3 != 1),
                jobs,
                || (),
                |(), unit| {
                    if unit % 7 == 0 {
                        std::thread::sleep(std::time::Duration::from_micros(300));
                    }
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

    #[test]
    fn no_input() {
        run(
            0..0,
            4,
            || (),
            |(), _| unreachable!(),
            |_, ()| unreachable!(),
        );
    }
}
