//! A model of SHA-1 collision detection written from its description, not
//! from the library: every block is compressed step by step, and every
//! disturbance vector of tests/data/DV_TABLE.tsv is tested in table order
//! (no filter: the filter only skips DVs that cannot match), the partner's
//! chaining values recomputed from the state the two blocks share at the
//! DV's test step. Slow, and independent of the code under test: the oracle
//! for the reports of flagged blocks and for options changed mid-message.

use super::kat::Mode;

/// One disturbance vector as DV_TABLE.tsv lists it.
pub struct Dv {
    pub name: String,
    /// The two blocks share the working state before this step.
    pub test_step: usize,
    /// The partner's message difference, word by word.
    pub dm: [u32; 80],
}

/// The 32 DVs of DV_TABLE.tsv (its text), in the reference's order.
pub fn dvs(table: &str) -> Vec<Dv> {
    let dvs: Vec<Dv> = super::kat::rows(table)
        .iter()
        .map(|row| {
            let words: Vec<u32> = row[8]
                .split(',')
                .map(|w| u32::from_str_radix(w, 16).unwrap())
                .collect();
            Dv {
                name: row[4].to_owned(),
                test_step: row[5].parse().unwrap(),
                dm: words.try_into().expect("80 words"),
            }
        })
        .collect();
    assert_eq!(dvs.len(), 32, "DV_TABLE.tsv");
    dvs
}

/// A flagged block, with what the reference's callback receives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flagged {
    pub offset: u64,
    pub dv: usize,
    pub chain: [u32; 5],
    pub partner_chain: [u32; 5],
    pub words: [u32; 80],
    pub partner_words: [u32; 80],
}

/// What the model finds for a message.
#[derive(Debug)]
pub struct Found {
    /// The output (hex): the safe hash where one was applied.
    pub digest: String,
    /// The plain SHA-1 (hex).
    pub sha1: String,
    pub flagged: Vec<Flagged>,
}

const IV: [u32; 5] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];

fn round_function(t: usize, b: u32, c: u32, d: u32) -> (u32, u32) {
    match t {
        0..=19 => ((b & c) | (!b & d), 0x5a827999),
        20..=39 => (b ^ c ^ d, 0x6ed9eba1),
        40..=59 => ((b & c) | (b & d) | (c & d), 0x8f1bbcdc),
        _ => (b ^ c ^ d, 0xca62c1d6),
    }
}

/// The state `[a, b, c, d, e]` before step `t` to the one after it.
fn forward(t: usize, s: [u32; 5], w: u32) -> [u32; 5] {
    let [a, b, c, d, e] = s;
    let (f, k) = round_function(t, b, c, d);
    let new_a = a
        .rotate_left(5)
        .wrapping_add(f)
        .wrapping_add(e)
        .wrapping_add(k)
        .wrapping_add(w);
    [new_a, a, b.rotate_left(30), c, d]
}

/// The state after step `t` back to the one before it.
fn backward(t: usize, s: [u32; 5], w: u32) -> [u32; 5] {
    let [new_a, a, b30, c, d] = s;
    let b = b30.rotate_right(30);
    let (f, k) = round_function(t, b, c, d);
    let e = new_a
        .wrapping_sub(a.rotate_left(5))
        .wrapping_sub(f)
        .wrapping_sub(k)
        .wrapping_sub(w);
    [a, b, c, d, e]
}

fn expand(block: &[u8]) -> [u32; 80] {
    let mut w = [0u32; 80];
    for t in 0..16 {
        w[t] = u32::from_be_bytes(block[4 * t..4 * t + 4].try_into().unwrap());
    }
    for t in 16..80 {
        w[t] = (w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotate_left(1);
    }
    w
}

fn add(x: [u32; 5], y: [u32; 5]) -> [u32; 5] {
    std::array::from_fn(|i| x[i].wrapping_add(y[i]))
}

/// The chain after a block of words `w`, and the working state before
/// every step (`states[t]`, t in 0..80).
fn compress(chain: [u32; 5], w: &[u32; 80]) -> ([u32; 5], Vec<[u32; 5]>) {
    let mut states = Vec::with_capacity(80);
    let mut s = chain;
    for (t, &word) in w.iter().enumerate() {
        states.push(s);
        s = forward(t, s, word);
    }
    (add(chain, s), states)
}

/// The padded message.
fn padded(data: &[u8]) -> Vec<u8> {
    let mut m = data.to_vec();
    m.push(0x80);
    while m.len() % 64 != 56 {
        m.push(0);
    }
    m.extend_from_slice(&(data.len() as u64).wrapping_mul(8).to_be_bytes());
    m
}

fn hex(chain: [u32; 5]) -> String {
    chain.iter().map(|w| format!("{w:08x}")).collect()
}

/// Hashes `data`, block `k` (of the padded message) in mode `mode_of(k)`.
pub fn hash(dvs: &[Dv], data: &[u8], mode_of: &dyn Fn(usize) -> Mode) -> Found {
    let mut chain = IV;
    let mut plain = IV;
    let mut flagged = Vec::new();
    for (k, block) in padded(data).chunks(64).enumerate() {
        let mode = mode_of(k);
        let words = expand(block);
        plain = compress(plain, &words).0;
        let (out, states) = compress(chain, &words);
        let found = mode
            .detect
            .then(|| first_partner(dvs, &words, chain, out, &states, mode.reduced_round))
            .flatten();
        let chain_in = chain;
        chain = out;
        if let Some((dv, partner_chain, partner_words)) = found {
            flagged.push(Flagged {
                offset: 64 * k as u64,
                dv,
                chain: chain_in,
                partner_chain,
                words,
                partner_words,
            });
            if mode.safe_hash {
                chain = compress(compress(chain, &words).0, &words).0;
            }
        }
    }
    Found {
        digest: hex(chain),
        sha1: hex(plain),
        flagged,
    }
}

/// The first DV in table order whose partner block collides with this one
/// (same output chain, or with `reduced_round` the same input chain): its
/// index, the partner's input chain and its words.
fn first_partner(
    dvs: &[Dv],
    words: &[u32; 80],
    chain_in: [u32; 5],
    chain_out: [u32; 5],
    states: &[[u32; 5]],
    reduced_round: bool,
) -> Option<(usize, [u32; 5], [u32; 80])> {
    dvs.iter().enumerate().find_map(|(i, dv)| {
        let partner: [u32; 80] = std::array::from_fn(|t| words[t] ^ dv.dm[t]);
        let mut s = states[dv.test_step];
        for t in (0..dv.test_step).rev() {
            s = backward(t, s, partner[t]);
        }
        let partner_in = s;
        let mut s = states[dv.test_step];
        for (t, &word) in partner.iter().enumerate().skip(dv.test_step) {
            s = forward(t, s, word);
        }
        let partner_out = add(partner_in, s);
        let collides = partner_out == chain_out || (reduced_round && partner_in == chain_in);
        collides.then_some((i, partner_in, partner))
    })
}
