//! Scoped threads the system may refuse: a verification asks for as many
//! workers as there are cores (or as `-j` says), and where a thread cannot
//! start (too many asked for, a sandbox's limit, a wasm instance without
//! threads) its work is done on the calling thread instead of failing.

use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{Builder, Scope, ScopedJoinHandle};

/// Work started on a scoped thread, or already done on this one.
pub enum Started<'scope, T> {
    /// Running on a thread of its own.
    Thread(ScopedJoinHandle<'scope, T>),
    /// Done on the calling thread: the system refused a thread.
    Here(T),
}

impl<T> Started<'_, T> {
    /// The work's result, once it is over (a panic in it is raised again
    /// here).
    pub fn join(self) -> T {
        match self {
            Started::Thread(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Started::Here(result) => result,
        }
    }
}

/// Starts `work` on a thread of `scope`; where the system refuses the
/// thread, does it here and now, so that the work is done either way.
pub fn spawn_or_run<'scope, T, F>(scope: &'scope Scope<'scope, '_>, work: F) -> Started<'scope, T>
where
    F: FnOnce() -> T + Send + 'scope,
    T: Send + 'scope,
{
    match try_spawn(Builder::new(), scope, work) {
        Ok(handle) => Started::Thread(handle),
        Err(work) => Started::Here(work()),
    }
}

/// Starts `work` on a thread `builder` makes (named, sized, or
/// `Builder::new()`) in `scope`, or hands it back where the system refuses
/// the thread (for a caller that does something else then).
pub fn try_spawn<'scope, T, F>(
    builder: Builder,
    scope: &'scope Scope<'scope, '_>,
    work: F,
) -> Result<ScopedJoinHandle<'scope, T>, F>
where
    F: FnOnce() -> T + Send + 'scope,
    T: Send + 'scope,
{
    // The work waits in a slot both sides hold: the thread takes it when it
    // starts; if it never starts, the caller takes it back.
    let slot = Arc::new(Mutex::new(Some(work)));
    let theirs = Arc::clone(&slot);
    let spawned = builder.spawn_scoped(scope, move || {
        let work = take(&theirs).expect("a thread takes its work once");
        work()
    });
    spawned.map_err(|_| take(&slot).expect("a thread never started left its work"))
}

fn take<F>(slot: &Mutex<Option<F>>) -> Option<F> {
    slot.lock().unwrap_or_else(PoisonError::into_inner).take()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_is_done_once_either_way() {
        let n = std::sync::atomic::AtomicUsize::new(0);
        let add = || n.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 100;
        std::thread::scope(|scope| {
            let started = spawn_or_run(scope, add);
            assert!(started.join() >= 100);
            match try_spawn(Builder::new(), scope, add) {
                Ok(handle) => assert!(handle.join().unwrap() >= 100),
                Err(work) => assert!(work() >= 100),
            }
        });
        assert_eq!(n.into_inner(), 2);
    }

    /// A thread the system refuses (here: a stack no system gives) hands
    /// its work back, not started and not lost.
    #[test]
    fn a_refused_thread_hands_its_work_back() {
        let ran = std::sync::atomic::AtomicBool::new(false);
        let work = || ran.store(true, std::sync::atomic::Ordering::Relaxed);
        std::thread::scope(|scope| {
            let huge = Builder::new().stack_size(usize::MAX / 2);
            let back = try_spawn(huge, scope, work);
            let Err(work) = back else {
                panic!("a thread with a stack of half the address space started")
            };
            assert!(!ran.load(std::sync::atomic::Ordering::Relaxed));
            work();
        });
        assert!(ran.into_inner());
    }
}
