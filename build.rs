//! Generates the attack tables at compile time: leaper attacks, rays between squares and
//! "fancy" magic bitboards for sliders. The magic numbers are found here by a seeded search,
//! verified against a brute-force slider walk, and written to `$OUT_DIR/tables.rs`, which
//! `src/chess/attacks.rs` includes. Nothing is computed at start-up. It also puts the net to
//! embed where `src/eval/nnue/mod.rs` includes it (`embed_net`).

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

/// The first bytes of a net file (`src/eval/nnue/file.rs`).
const NET_MAGIC: &[u8] = b"FIANNUE\0";

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn on_board(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn slide(sq: usize, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut att = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while on_board(f, r) {
            let bit = 1u64 << (r * 8 + f);
            att |= bit;
            if occ & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    att
}

/// Relevant occupancy: every square a slider passes, minus the last one of each ray.
fn relevant_mask(sq: usize, dirs: &[(i32, i32)]) -> u64 {
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut mask = 0u64;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while on_board(f + df, r + dr) {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    mask
}

fn leaper(sq: usize, deltas: &[(i32, i32)]) -> u64 {
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    deltas
        .iter()
        .filter(|&&(df, dr)| on_board(f0 + df, r0 + dr))
        .fold(0, |acc, &(df, dr)| acc | 1u64 << ((r0 + dr) * 8 + f0 + df))
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*: enough quality to find magics, and fully reproducible.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Enumerates the subsets of `mask` (Carry-Rippler).
fn subsets(mask: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut s = 0u64;
    loop {
        out.push(s);
        s = s.wrapping_sub(mask) & mask;
        if s == 0 {
            break;
        }
    }
    out
}

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

fn find_magics(dirs: &[(i32, i32)], rng: &mut Rng, table: &mut Vec<u64>) -> Vec<Magic> {
    let mut magics = Vec::with_capacity(64);
    for sq in 0..64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let shift = 64 - bits;
        let occs = subsets(mask);
        let atts: Vec<u64> = occs.iter().map(|&o| slide(sq, o, dirs)).collect();
        let size = 1usize << bits;
        let mut used = vec![0u64; size];
        let mut epoch = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            let cand = rng.sparse();
            if (mask.wrapping_mul(cand) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let mut ok = true;
            for (o, a) in occs.iter().zip(&atts) {
                let idx = (o.wrapping_mul(cand) >> shift) as usize;
                if epoch[idx] != attempt {
                    epoch[idx] = attempt;
                    used[idx] = *a;
                } else if used[idx] != *a {
                    ok = false;
                    break;
                }
            }
            if ok {
                break cand;
            }
        };
        let offset = table.len();
        table.resize(offset + size, 0);
        for (o, a) in occs.iter().zip(&atts) {
            let idx = (o.wrapping_mul(magic) >> shift) as usize;
            table[offset + idx] = *a;
        }
        magics.push(Magic {
            mask,
            magic,
            shift,
            offset,
        });
    }
    magics
}

fn write_array(out: &mut String, name: &str, ty: &str, vals: &[u64]) {
    writeln!(out, "pub(crate) static {name}: [{ty}; {}] = [", vals.len()).unwrap();
    for chunk in vals.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|v| format!("0x{v:016x}")).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn write_magics(out: &mut String, name: &str, magics: &[Magic]) {
    writeln!(out, "pub(crate) static {name}: [Magic; 64] = [").unwrap();
    for m in magics {
        writeln!(
            out,
            "    Magic {{ mask: 0x{:016x}, magic: 0x{:016x}, shift: {}, offset: {} }},",
            m.mask, m.magic, m.shift, m.offset
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
}

/// Copies the net to embed into `$OUT_DIR/default.fnn`: `nets/default.fnn`, or the file named
/// by `FIANCHETTO_EVALFILE` (`make EVALFILE=path`). Only a file that starts as a net file does
/// (`FIANNUE` magic); `make` checks the rest by loading it first (`EvalFile`).
fn embed_net() {
    println!("cargo:rerun-if-env-changed=FIANCHETTO_EVALFILE");
    let source = env::var("FIANCHETTO_EVALFILE")
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| {
            let root = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
            format!("{root}/nets/default.fnn")
        });
    println!("cargo:rerun-if-changed={source}");
    let bytes = fs::read(&source).unwrap_or_else(|e| panic!("cannot read the net {source}: {e}"));
    assert!(
        bytes.starts_with(NET_MAGIC),
        "{source} is not a Fianchetto net file (it does not start with {:?})",
        String::from_utf8_lossy(NET_MAGIC)
    );
    let dest = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("default.fnn");
    fs::write(dest, bytes).expect("OUT_DIR is writable");
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    embed_net();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut table = Vec::new();
    let rook = find_magics(&ROOK_DIRS, &mut rng, &mut table);
    let bishop = find_magics(&BISHOP_DIRS, &mut rng, &mut table);

    // Check every entry against the brute-force walk, so a bad table never builds.
    for (magics, dirs) in [(&rook, &ROOK_DIRS), (&bishop, &BISHOP_DIRS)] {
        for (sq, m) in magics.iter().enumerate() {
            for o in subsets(m.mask) {
                let idx = m.offset + (o.wrapping_mul(m.magic) >> m.shift) as usize;
                assert_eq!(table[idx], slide(sq, o, dirs), "magic table broken at {sq}");
            }
        }
    }

    let knight: Vec<u64> = (0..64)
        .map(|s| {
            leaper(
                s,
                &[
                    (1, 2),
                    (2, 1),
                    (2, -1),
                    (1, -2),
                    (-1, -2),
                    (-2, -1),
                    (-2, 1),
                    (-1, 2),
                ],
            )
        })
        .collect();
    let king: Vec<u64> = (0..64)
        .map(|s| {
            leaper(
                s,
                &[
                    (1, 0),
                    (1, 1),
                    (0, 1),
                    (-1, 1),
                    (-1, 0),
                    (-1, -1),
                    (0, -1),
                    (1, -1),
                ],
            )
        })
        .collect();
    let white_pawn: Vec<u64> = (0..64).map(|s| leaper(s, &[(-1, 1), (1, 1)])).collect();
    let black_pawn: Vec<u64> = (0..64).map(|s| leaper(s, &[(-1, -1), (1, -1)])).collect();

    let mut between = vec![0u64; 64 * 64];
    let mut line = vec![0u64; 64 * 64];
    for a in 0..64 {
        for b in 0..64 {
            if a == b {
                continue;
            }
            for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                let bbit = 1u64 << b;
                if slide(a, 0, dirs) & bbit != 0 {
                    between[a * 64 + b] = slide(a, bbit, dirs) & slide(b, 1u64 << a, dirs);
                    line[a * 64 + b] = (slide(a, 0, dirs) & slide(b, 0, dirs)) | (1u64 << a) | bbit;
                }
            }
        }
    }

    let mut out = String::new();
    writeln!(out, "// Generated by build.rs; do not edit.").unwrap();
    write_magics(&mut out, "ROOK_MAGICS", &rook);
    write_magics(&mut out, "BISHOP_MAGICS", &bishop);
    write_array(&mut out, "SLIDER_TABLE", "u64", &table);
    write_array(&mut out, "KNIGHT_TABLE", "u64", &knight);
    write_array(&mut out, "KING_TABLE", "u64", &king);
    let pawns: Vec<u64> = white_pawn.iter().chain(&black_pawn).copied().collect();
    write_array(&mut out, "PAWN_TABLE", "u64", &pawns);
    write_array(&mut out, "BETWEEN_TABLE", "u64", &between);
    write_array(&mut out, "LINE_TABLE", "u64", &line);

    let dest = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("tables.rs");
    fs::write(dest, out).expect("OUT_DIR is writable");
}
