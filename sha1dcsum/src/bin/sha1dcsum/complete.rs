//! `--generate complete-bash|complete-zsh|complete-fish`: shell completions
//! from the library's table of options, so they offer every option there is.

use sha1dcsum::options::{Choices, Generated, OPTIONS, Opt};

/// An option's help up to the first ` (`, `: ` or `; `, backquotes made
/// plain quotes: the line a completion menu shows.
fn summary(opt: &Opt) -> String {
    let end = [" (", ": ", "; "]
        .iter()
        .filter_map(|cut| opt.help.find(cut))
        .min()
        .unwrap_or(opt.help.len());
    opt.help[..end].replace('`', "'")
}

/// The names `--generate` takes, space-separated.
fn generated_names() -> String {
    let names: Vec<&str> = Generated::ALL.iter().map(|g| g.name()).collect();
    names.join(" ")
}

/// The shell command that lists the backends, for `--backend`'s values.
const BACKENDS: &str = "sha1dcsum --backends 2>/dev/null";

pub fn bash() -> String {
    let mut words = Vec::new();
    let mut cases = String::new();
    for opt in OPTIONS {
        words.push(format!("--{}", opt.long));
        words.extend(opt.short.map(|s| format!("-{}", char::from(s))));
        let value = match opt.value() {
            Some(value) => value,
            None => continue,
        };
        let names = match opt.short {
            Some(s) => format!("-{}|--{}", char::from(s), opt.long),
            None => format!("--{}", opt.long),
        };
        let reply = match value.choices {
            Choices::Any => "return".into(),
            Choices::Backends => {
                format!("COMPREPLY=($(compgen -W \"$({BACKENDS})\" -- \"$cur\")); return")
            }
            Choices::Generated => {
                format!(
                    "COMPREPLY=($(compgen -W '{}' -- \"$cur\")); return",
                    generated_names()
                )
            }
        };
        cases.push_str(&format!("        {names}) {reply} ;;\n"));
    }
    format!(
        "# bash completion for sha1dcsum (sha1dcsum --generate complete-bash)
_sha1dcsum() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}}
    # --name=value: bash splits the word at the =.
    if [[ $cur == = ]]; then
        cur=
    elif [[ $prev == = ]]; then
        prev=${{COMP_WORDS[COMP_CWORD-2]}}
    fi
    case $prev in
{cases}    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W '{}' -- \"$cur\"))
    fi
}}
complete -o bashdefault -o default -F _sha1dcsum sha1dcsum
",
        words.join(" ")
    )
}

/// `text` for zsh inside single quotes and an `_arguments` description.
fn zsh_quote(text: &str) -> String {
    text.replace('\'', "'\\''")
        .replace('[', "\\[")
        .replace(']', "\\]")
        .replace(':', "\\:")
}

pub fn zsh() -> String {
    let mut specs = String::new();
    for opt in OPTIONS {
        let help = zsh_quote(&summary(opt));
        let (short_suffix, long_suffix, action) = match opt.value() {
            None => ("", "", String::new()),
            Some(value) => {
                let action = match value.choices {
                    Choices::Any => " ".into(),
                    Choices::Backends => format!("{{compadd -- $({BACKENDS})}}"),
                    Choices::Generated => format!("({})", generated_names()),
                };
                ("+", "=", format!(":{}:{action}", value.name))
            }
        };
        let spec = match opt.short {
            Some(s) => {
                let s = char::from(s);
                format!(
                    "'(-{s} --{0})'{{-{s}{short_suffix},--{0}{long_suffix}}}'",
                    opt.long
                )
            }
            None => format!("'--{}{long_suffix}", opt.long),
        };
        specs.push_str(&format!("    {spec}[{help}]{action}' \\\n"));
    }
    format!(
        "#compdef sha1dcsum
# zsh completion for sha1dcsum (sha1dcsum --generate complete-zsh)
_arguments -s -S \\
{specs}    '*:file:_files'
"
    )
}

/// `text` inside fish's single quotes.
fn fish_quote(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\'', "\\'")
}

pub fn fish() -> String {
    let mut out =
        String::from("# fish completion for sha1dcsum (sha1dcsum --generate complete-fish)\n");
    for opt in OPTIONS {
        let mut line = String::from("complete -c sha1dcsum");
        if let Some(s) = opt.short {
            line.push_str(&format!(" -s {}", char::from(s)));
        }
        line.push_str(&format!(" -l {}", opt.long));
        match opt.value().map(|v| v.choices) {
            None => {}
            Some(Choices::Any) => line.push_str(" -x"),
            Some(Choices::Backends) => line.push_str(&format!(" -x -a '({BACKENDS})'")),
            Some(Choices::Generated) => line.push_str(&format!(" -x -a '{}'", generated_names())),
        }
        line.push_str(&format!(" -d '{}'\n", fish_quote(&summary(opt))));
        out.push_str(&line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_are_the_help_up_to_its_first_aside() {
        let find = |long: &str| OPTIONS.iter().find(|o| o.long == long).unwrap();
        assert_eq!(summary(find("binary")), "print ' *' before the name");
        assert_eq!(summary(find("tag")), "print BSD-style lines");
        assert_eq!(summary(find("warn")), find("warn").help);
    }

    #[test]
    fn quoting() {
        assert_eq!(zsh_quote("a'b [c]: d"), "a'\\''b \\[c\\]\\: d");
        assert_eq!(fish_quote("a'b\\c"), "a\\'b\\\\c");
    }
}
