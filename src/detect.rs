//! Recompression: the check that decides whether a block the filter let
//! through really is part of a collision.

use crate::compress::{State, state_before, step, unstep};
use crate::dv::{DVS, Dv};

/// The first DV (in table order, as the reference) among `mask` for which
/// the block with expanded words `w`, compressed from `ihv_in` to `ihv_out`,
/// has a colliding partner: recompressing the partner block (`w ^ dm`) from
/// the shared state at the DV's test step lands on the same output, or, with
/// `reduced_round`, started from the same input.
pub(crate) fn first_match(
    w: &[u32; 80],
    ihv_in: &[u32; 5],
    ihv_out: &[u32; 5],
    mask: u32,
    reduced_round: bool,
) -> Option<usize> {
    // Both test steps' states are derived at most once per block.
    let mut states: [Option<State>; 2] = [None, None];
    for (i, dv) in DVS.iter().enumerate() {
        if mask & (1 << i) == 0 {
            continue;
        }
        let slot = usize::from(dv.test_step != 58);
        let state =
            *states[slot].get_or_insert_with(|| state_before(dv.test_step, ihv_in, ihv_out, w));
        let (in2, out2) = recompress(dv, w, state);
        if out2 == *ihv_out || (reduced_round && in2 == *ihv_in) {
            return Some(i);
        }
    }
    None
}

/// The partner's input and output chaining values: from the state before
/// the DV's test step, steps back to the start and forward to the end with
/// the partner's message words.
pub(crate) fn recompress(dv: &Dv, w: &[u32; 80], state: State) -> ([u32; 5], [u32; 5]) {
    let t0 = dv.test_step;
    let mut back = state;
    for t in (0..t0).rev() {
        unstep(t, &mut back, w[t] ^ dv.dm[t]);
    }
    let mut fwd = state;
    for (t, (&x, &d)) in w.iter().zip(&dv.dm).enumerate().skip(t0) {
        step(t, &mut fwd, x ^ d);
    }
    let mut out = back;
    for (o, x) in out.iter_mut().zip(fwd) {
        *o = o.wrapping_add(x);
    }
    (back, out)
}
