//! Prints the backend a default hasher runs and the SHA-1 of "abc".
fn main() {
    let mut hasher = sha1dc_wasm::Hasher::new();
    let backend = hasher.backend();
    hasher.update(b"abc");
    println!("{backend} {}", hasher.finalize().digest());
}
