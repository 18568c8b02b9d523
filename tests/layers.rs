//! The layering, checked from the source text: each layer imports only the layers beneath
//! it, no front end imports another, and nothing beneath the front ends prints. The compiler
//! cannot enforce this inside one crate (ARCHITECTURE.md says why the rules core is not a
//! crate of its own), so this test does.

use std::path::{Path, PathBuf};

/// The layers from the bottom up: a module may import the modules of its own layer and of
/// the layers beneath it (`files`, `format`, `rand` and `command` are plumbing beneath all).
const LAYERS: &[&[&str]] = &[
    &["files", "format", "rand"],
    &["chess"],
    &["eval", "syzygy"],
    &["search"],
    &["command", "analysis"],
    &["tools"],
    &["uci", "tui", "web"],
];

/// Modules that talk to people and programs, and so may print.
const FRONT_ENDS: &[&str] = &["uci", "tui", "web"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`src/search/node.rs` → `search`).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    Some(first.trim_end_matches(".rs").to_string())
}

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The file's text before its unit tests (tests may use anything and print).
fn code_part(text: &str) -> &str {
    text.find("#[cfg(test)]").map_or(text, |i| &text[..i])
}

/// Every `crate::NAME` the code names.
fn crate_paths(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + "crate::".len()..];
        let name: String = after
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            names.push(name);
        }
        rest = after;
    }
    names
}

fn sources() -> (PathBuf, Vec<PathBuf>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    (src, files)
}

#[test]
fn every_module_imports_only_its_own_layer_and_those_beneath() {
    let (src, files) = sources();
    let mut wrong = Vec::new();
    let mut checked = 0;
    for file in &files {
        let Some(module) = module_of(&src, file) else {
            continue;
        };
        // The program's entry (main.rs) and the crate root see everything.
        let Some(own) = layer(&module) else {
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for name in crate_paths(code_part(&text)) {
            checked += 1;
            match layer(&name) {
                Some(l) if l > own => wrong.push(format!(
                    "{}: {module} (layer {own}) imports {name} (layer {l})",
                    file.display()
                )),
                Some(l)
                    if l == own
                        && name != module
                        && FRONT_ENDS.contains(&name.as_str())
                        && FRONT_ENDS.contains(&module.as_str()) =>
                {
                    wrong.push(format!(
                        "{}: front end {module} imports front end {name}",
                        file.display()
                    ))
                }
                _ => {}
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} imports seen: is the scan broken?"
    );
    assert!(
        wrong.is_empty(),
        "imports against the layering:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_rules_core_knows_nothing_above_it() {
    let (src, files) = sources();
    for file in files.iter().filter(|f| f.starts_with(src.join("chess"))) {
        let text = std::fs::read_to_string(file).unwrap();
        for name in crate_paths(code_part(&text)) {
            assert!(
                name == "chess" || name == "files",
                "{} imports crate::{name}",
                file.display()
            );
        }
    }
}

#[test]
fn nothing_beneath_the_front_ends_prints() {
    let (src, files) = sources();
    let mut wrong = Vec::new();
    for file in &files {
        let Some(module) = module_of(&src, file) else {
            continue;
        };
        if layer(&module).is_none() || FRONT_ENDS.contains(&module.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for (i, line) in code_part(&text).lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            if ["println!", "eprintln!", "print!(", "eprint!(", "dbg!("]
                .iter()
                .any(|m| code.contains(m))
            {
                wrong.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "library code that prints:\n{}",
        wrong.join("\n")
    );
}
