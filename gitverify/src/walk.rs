//! The delta trees walked: each whole object is inflated, each delta
//! applied to its base as the walk goes down from it, and every object
//! hashed once. A walk holds the bases on its path down; when they exceed
//! the cache's limit the oldest are dropped and made again from the pack
//! if still needed, so memory is bounded by the limit, not the pack.

use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};

use sha1dc_wasm::git::ObjectKind;

use crate::delta;
use crate::hashing::Batcher;
use crate::inflate::Inflater;
use crate::pack::{Layout, NONE, PackData, Slot};

/// Children of each entry (the deltas whose base it is), as one array.
pub(crate) struct Children {
    first: Vec<u32>,
    list: Vec<u32>,
}

impl Children {
    /// The edges base -> entry of every slot `wanted` keeps.
    pub(crate) fn new(slots: &[Slot], wanted: impl Fn(usize) -> bool) -> Children {
        let mut first = vec![0u32; slots.len() + 1];
        for (i, s) in slots.iter().enumerate() {
            if s.base != NONE && wanted(i) {
                first[s.base as usize + 1] += 1;
            }
        }
        for i in 0..slots.len() {
            first[i + 1] += first[i];
        }
        let mut fill = first.clone();
        let mut list = vec![0u32; first[slots.len()] as usize];
        for (i, s) in slots.iter().enumerate() {
            if s.base != NONE && wanted(i) {
                let at = &mut fill[s.base as usize];
                list[*at as usize] = i as u32;
                *at += 1;
            }
        }
        Children { first, list }
    }

    pub(crate) fn of(&self, entry: u32) -> (u32, u32) {
        (self.first[entry as usize], self.first[entry as usize + 1])
    }

    pub(crate) fn any(&self, entry: u32) -> bool {
        let (a, b) = self.of(entry);
        a < b
    }

    /// Entries below `entry`, itself not counted.
    pub(crate) fn descendants(&self, entry: u32) -> u64 {
        let mut n = 0;
        self.each_below(entry, |_| n += 1);
        n
    }

    /// Calls `visit` for every entry below `entry`, itself not included.
    pub(crate) fn each_below(&self, entry: u32, mut visit: impl FnMut(u32)) {
        let mut todo = vec![entry];
        while let Some(e) = todo.pop() {
            let (a, b) = self.of(e);
            let below = &self.list[a as usize..b as usize];
            below.iter().for_each(|&c| visit(c));
            todo.extend_from_slice(below);
        }
    }
}

/// One base on the walk's path down.
struct Frame {
    entry: u32,
    content: Option<Rc<Vec<u8>>>,
    next: u32,
    end: u32,
}

/// What the walks of one round share.
pub(crate) struct Round<'a> {
    pub(crate) pack: &'a PackData,
    pub(crate) layout: &'a Layout,
    pub(crate) children: &'a Children,
    /// Entries to start from, and whether each must be hashed itself.
    pub(crate) roots: &'a [(u32, bool)],
    /// Inflated deltas kept from the index-less pass, by entry.
    pub(crate) kept: &'a [Option<Box<[u8]>>],
    /// The limit of the bases one walk holds.
    pub(crate) cache: usize,
    pub(crate) next: AtomicUsize,
}

/// One worker's walks.
pub(crate) struct Walker<'a, 'b> {
    round: &'a Round<'a>,
    pub(crate) batcher: Batcher<'b>,
    inflater: Inflater,
    delta: Vec<u8>,
    /// An entry's compressed bytes, as read.
    raw: Vec<u8>,
}

/// Roots taken at a time from the shared list.
const GRAB: usize = 16;

impl<'a, 'b> Walker<'a, 'b> {
    pub(crate) fn new(round: &'a Round<'a>, batcher: Batcher<'b>) -> Self {
        Walker {
            round,
            batcher,
            inflater: Inflater::new(),
            delta: Vec::new(),
            raw: Vec::new(),
        }
    }

    /// Walks roots until none is left.
    pub(crate) fn run(&mut self) {
        let roots = self.round.roots;
        loop {
            let at = self.round.next.fetch_add(GRAB, Ordering::Relaxed);
            if at >= roots.len() {
                break;
            }
            for &(root, hash) in &roots[at..(at + GRAB).min(roots.len())] {
                self.walk(root, hash);
            }
        }
        self.batcher.flush();
    }

    fn slot(&self, entry: u32) -> &Slot {
        &self.round.layout.slots[entry as usize]
    }

    fn lost(&self, entry: u32, message: String) {
        let below = self.round.children.descendants(entry);
        let message = if below == 0 {
            message
        } else {
            format!("{message}; {below} objects stored as deltas on it cannot be verified")
        };
        self.batcher
            .damage(Some(self.slot(entry).offset), None, message);
    }

    /// Inflates a whole object's entry.
    fn inflate_whole(&mut self, entry: u32) -> Result<Vec<u8>, String> {
        let s = *self.slot(entry);
        let mut out = Vec::new();
        self.round
            .pack
            .read(s.data(), s.end, &mut self.raw)
            .map_err(|e| format!("cannot be read: {e}"))?;
        self.inflater
            .inflate(&self.raw, s.size, &mut out)
            .map_err(|e| format!("its zlib stream: {e}"))?;
        Ok(out)
    }

    /// Applies `entry`'s delta to `base`.
    fn apply(&mut self, entry: u32, base: &[u8]) -> Result<Vec<u8>, String> {
        let s = *self.slot(entry);
        let delta: &[u8] = match self.round.kept.get(entry as usize) {
            Some(Some(kept)) => kept,
            _ => {
                self.round
                    .pack
                    .read(s.data(), s.end, &mut self.raw)
                    .map_err(|e| format!("cannot be read: {e}"))?;
                self.inflater
                    .inflate(&self.raw, s.size, &mut self.delta)
                    .map_err(|e| format!("its delta's zlib stream: {e}"))?;
                &self.delta
            }
        };
        let mut out = Vec::new();
        delta::apply(base, delta, &mut out).map_err(|e| e.to_string())?;
        Ok(out)
    }

    /// The content of a resolved entry, made again from its chain: the
    /// whole object at its root, then each delta down to it.
    fn materialize(&mut self, entry: u32) -> Result<(ObjectKind, Vec<u8>), String> {
        let mut chain = vec![entry];
        let mut at = entry;
        while self.slot(at).whole().is_none() {
            at = self.slot(at).base;
            if at == NONE || chain.len() > self.round.layout.slots.len() {
                return Err("its delta chain has no whole object at its root".into());
            }
            chain.push(at);
        }
        let kind = self.slot(at).whole().expect("the chain's root is whole");
        let mut content = self.inflate_whole(at)?;
        for &e in chain.iter().rev().skip(1) {
            content = self.apply(e, &content)?;
        }
        Ok((kind, content))
    }

    /// One root and everything below it.
    fn walk(&mut self, root: u32, hash_root: bool) {
        let made = if self.slot(root).whole().is_some() && hash_root {
            self.inflate_whole(root)
                .map(|c| (self.slot(root).whole().expect("whole"), c))
        } else {
            self.materialize(root)
        };
        let (kind, content) = match made {
            Ok(made) => made,
            Err(e) => return self.lost(root, e),
        };
        let content = Rc::new(content);
        let offset = self.slot(root).offset;
        if hash_root {
            self.batcher
                .add(root, Some(offset), kind, Rc::clone(&content));
        }
        let (next, end) = self.round.children.of(root);
        if next == end {
            return;
        }
        let mut held = content.len();
        let mut stack = vec![Frame {
            entry: root,
            content: Some(content),
            next,
            end,
        }];
        while let Some(top) = stack.last_mut() {
            if top.next == top.end {
                held -= top.content.as_ref().map_or(0, |c| c.len());
                stack.pop();
                continue;
            }
            let child = self.round.children.list[top.next as usize];
            top.next += 1;
            let last = top.next == top.end;
            let (base_entry, base) = (top.entry, top.content.clone());
            let base = match base {
                Some(base) => base,
                None => match self.materialize(base_entry) {
                    Ok((_, c)) => {
                        let c = Rc::new(c);
                        held += c.len();
                        stack.last_mut().expect("the top").content = Some(Rc::clone(&c));
                        c
                    }
                    Err(e) => {
                        self.lost(child, format!("its base could not be made again: {e}"));
                        continue;
                    }
                },
            };
            let result = match self.apply(child, &base) {
                Ok(r) => Rc::new(r),
                Err(e) => {
                    self.lost(child, e);
                    continue;
                }
            };
            drop(base);
            if last {
                // Its base has no other child left: drop it before going down.
                let top = stack.pop().expect("the top");
                held -= top.content.as_ref().map_or(0, |c| c.len());
            }
            let offset = self.slot(child).offset;
            self.batcher
                .add(child, Some(offset), kind, Rc::clone(&result));
            let (next, end) = self.round.children.of(child);
            if next < end {
                held += result.len();
                stack.push(Frame {
                    entry: child,
                    content: Some(result),
                    next,
                    end,
                });
                // Over the limit: drop the bases furthest up the path
                // (made again from the pack if one is needed later).
                let top = stack.len() - 1;
                for frame in &mut stack[..top] {
                    if held <= self.round.cache {
                        break;
                    }
                    if let Some(c) = frame.content.take() {
                        held -= c.len();
                    }
                }
            }
        }
    }
}
