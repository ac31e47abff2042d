//! What `git-sha1dc` prints, for every front end that prints the same:
//! each finding as a line of text as it is found, the closing summary, or
//! one JSON document at the end.

use std::path::PathBuf;

use crate::report::{Check, Counts, Damage, Finding, Summary};

/// A finding as one line of text.
pub fn finding_line(f: &Finding) -> String {
    let place = match f.pack_offset {
        Some(o) => format!("{} (entry at offset {o})", f.file.display()),
        None => f.file.display().to_string(),
    };
    let what = match f.check {
        Check::Object => "collision attack on git (object check)",
        Check::Content => "collision material in a blob's content (content check)",
    };
    format!(
        "{what}: {} {} of {} bytes: collision block at content offset {}, disturbance vector {}, in {place}",
        f.id, f.kind, f.size, f.offset, f.dv
    )
}

/// `s` as a JSON string.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn opt_number(n: Option<u64>) -> String {
    n.map_or("null".into(), |n| n.to_string())
}

/// A finding as the JSON object the document lists.
pub fn finding_json(f: &Finding) -> String {
    format!(
        "{{\"check\":\"{}\",\"id\":\"{}\",\"type\":\"{}\",\"size\":{},\"offset\":{},\"dv\":\"{}\",\"file\":{},\"pack_offset\":{}}}",
        f.check.name(),
        f.id,
        f.kind,
        f.size,
        f.offset,
        f.dv,
        json_string(&f.file.to_string_lossy()),
        opt_number(f.pack_offset)
    )
}

/// Damage as the JSON object the document lists.
pub fn damage_json(d: &Damage) -> String {
    format!(
        "{{\"file\":{},\"offset\":{},\"id\":{},\"message\":{}}}",
        json_string(&d.file.to_string_lossy()),
        opt_number(d.offset),
        d.id.map_or("null".into(), |id| format!("\"{id}\"")),
        json_string(&d.problem.to_string())
    )
}

/// The whole run as one JSON document.
pub fn json(summary: &Summary, alternates: &[PathBuf], content: bool) -> String {
    let findings: Vec<String> = summary.findings.iter().map(finding_json).collect();
    let damage: Vec<String> = summary.damage.iter().map(damage_json).collect();
    json_document(
        &summary.counts,
        summary.files,
        &findings,
        &damage,
        alternates,
        content,
    )
}

/// The JSON document of a run from its parts: the findings and damage
/// already as JSON objects ([`finding_json`], [`damage_json`]: parts of
/// a run gathered from several verifications), in order.
pub fn json_document(
    counts: &Counts,
    files: u64,
    findings: &[String],
    damage: &[String],
    alternates: &[PathBuf],
    content: bool,
) -> String {
    let c = counts;
    let alternates: Vec<String> = alternates
        .iter()
        .map(|p| json_string(&p.to_string_lossy()))
        .collect();
    format!(
        "{{\"objects\":{{\"commit\":{},\"tree\":{},\"blob\":{},\"tag\":{},\"total\":{}}},\"content_check\":{content},\"files\":{},\"findings\":[{}],\"damage\":[{}],\"alternates_not_verified\":[{}],\"exit\":{}}}",
        c.commits,
        c.trees,
        c.blobs,
        c.tags,
        c.total(),
        files,
        findings.join(","),
        damage.join(","),
        alternates.join(","),
        Summary::exit_code_of(findings.len(), damage.len())
    )
}

/// The note for an objects directory the sources borrow from
/// (`objects/info/alternates`), which is not verified.
pub fn alternate_note(alternate: &std::path::Path) -> String {
    format!(
        "note: objects borrowed from {} (objects/info/alternates) are not verified; name it to verify it",
        alternate.display()
    )
}

/// After a finding: how to find what reaches a flagged object.
pub const FIND_OBJECT_HINT: &str =
    "to find the commits and paths that reach an object: git log --all --find-object=ID --raw";

/// The closing summary of the text form.
pub fn summary_line(summary: &Summary) -> String {
    let (findings, damage) = (summary.findings.len(), summary.damage.len());
    summary_line_of(&summary.counts, summary.files, findings, damage)
}

/// [`summary_line`] from a run's counts.
pub fn summary_line_of(c: &Counts, files: u64, findings: usize, damage: usize) -> String {
    format!(
        "verified {} objects ({} commits, {} trees, {} blobs, {} tags) in {} files: {} collisions, {} damaged",
        c.total(),
        c.commits,
        c.trees,
        c.blobs,
        c.tags,
        files,
        findings,
        damage
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn strings() {
        assert_eq!(super::json_string("a\"b\\c\n\u{1}"), r#""a\"b\\c\n\u0001""#);
    }
}
