//! `DynDigest` as the library advertises it, through its re-export: boxed,
//! cloned and finished.

use sha1dc_wasm::digest::DynDigest;

fn main() {
    let mut boxed: Box<dyn DynDigest> = Box::new(sha1dc_wasm::Hasher::new());
    boxed.update(b"ab");
    let mut copy = boxed.box_clone();
    boxed.update(b"c");
    copy.update(b"x");
    let hex = |d: Box<[u8]>| d.iter().map(|b| format!("{b:02x}")).collect::<String>();
    println!("{} {}", hex(boxed.finalize()), hex(copy.finalize_reset()));
}
