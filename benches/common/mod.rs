//! What the benchmarks share.
#![allow(dead_code)]

/// The median of `v` (sorted in place).
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// The CPU the figures come from, as `lscpu` names it: vendor, family,
/// model and model name (from /proc/cpuinfo; "unknown CPU" elsewhere).
pub fn cpu() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |key: &str| {
        info.lines()
            .find(|l| l.split(':').next().map(str::trim) == Some(key))
            .and_then(|l| l.split_once(':'))
            .map_or("?", |(_, v)| v.trim())
    };
    if info.is_empty() {
        return "unknown CPU".into();
    }
    format!(
        "{} family {} model {} ({}), {} logical CPUs",
        field("vendor_id"),
        field("cpu family"),
        field("model"),
        field("model name"),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    )
}
