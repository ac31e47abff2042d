//! zlib-rs (pure Rust): the inflater of the WebAssembly build, faster
//! there than miniz_oxide; built natively too, for its tests against
//! libdeflate.

use zlib_rs::{Inflate, InflateFlush, Status};

use super::{InflateError, Raw};

/// One zlib-rs inflate state (window and tables reused across streams).
pub(super) struct ZlibRs(Inflate);

impl ZlibRs {
    pub(super) fn new() -> Self {
        ZlibRs(Inflate::new(true, 15))
    }
}

impl Raw for ZlibRs {
    fn raw(
        &mut self,
        input: &[u8],
        out: &mut Vec<u8>,
        room: usize,
    ) -> Result<(usize, usize), InflateError> {
        debug_assert!(out.capacity() >= room && out.is_empty());
        self.0.reset(true);
        let spare = &mut out.spare_capacity_mut()[..room];
        let status = self.0.decompress_uninit(input, spare, InflateFlush::Finish);
        let used = self.0.total_in() as usize;
        let written = self.0.total_out() as usize;
        match status {
            Ok(Status::StreamEnd) => {
                // SAFETY: zlib-rs initialised the first `written` bytes of
                // the spare capacity it was given.
                unsafe { out.set_len(written) };
                Ok((used, written))
            }
            // The room is full and the stream goes on: too long if it
            // makes another byte, else damaged (the first fault in the
            // stream's order is the one named, as libdeflate names it).
            Ok(_) if written == room => {
                let mut one = [0u8; 1];
                let rest = &input[used.min(input.len())..];
                match self.0.decompress(rest, &mut one, InflateFlush::Finish) {
                    Ok(_) if self.0.total_out() as usize > written => {
                        Err(InflateError::LongerThanDeclared {
                            declared: room as u64,
                        })
                    }
                    _ => Err(InflateError::Damaged),
                }
            }
            _ => Err(InflateError::Damaged),
        }
    }
}
