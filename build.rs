//! Builds the attack tables at compile time, walking rays with `src/attacks/rays.rs`
//! (the same file the crate builds its leaper tables from).
//!
//! Writes to `OUT_DIR`:
//! - `tables.rs`: the slider masks, magic numbers and offsets;
//! - `*.bin`: little-endian `u64` tables (slider attacks, `between`, `line`), loaded with
//!   `include_bytes!` so start-up costs nothing.
//!
//! Two slider tables are built for each piece: one indexed by PEXT of the occupancy
//! (used when the CPU has fast BMI2) and one indexed by fancy magics (the fallback).

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

#[allow(dead_code)] // build.rs uses only the slider half of the file.
#[path = "src/attacks/rays.rs"]
mod rays;

use rays::{BISHOP_DIRS, ROOK_DIRS, slide, walk};

/// The relevant occupancy mask: the rays without their last square (a blocker there
/// changes nothing).
fn relevant_mask(sq: usize, dirs: &[(i8, i8)]) -> u64 {
    dirs.iter()
        .map(|&dir| {
            let length = slide(sq, &[dir], 0).count_ones();
            walk(sq, &[dir], 0, length.saturating_sub(1))
        })
        .fold(0, |mask, ray| mask | ray)
}

/// Software PEXT: gathers the bits of `value` selected by `mask` into the low bits.
fn pext(value: u64, mut mask: u64) -> u64 {
    let mut result = 0;
    let mut bit = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if value & low != 0 {
            result |= 1 << bit;
        }
        bit += 1;
        mask &= mask - 1;
    }
    result
}

/// The subset of `mask` numbered `index` (inverse of `pext`).
fn pdep(index: u64, mut mask: u64) -> u64 {
    let mut result = 0;
    let mut bit = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if index & (1 << bit) != 0 {
            result |= low;
        }
        bit += 1;
        mask &= mask - 1;
    }
    result
}

/// xorshift64*: deterministic, so every build finds the same magics.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// One slider piece's tables.
struct Slider {
    masks: Vec<u64>,
    magics: Vec<u64>,
    offsets: Vec<u32>,
    pext_table: Vec<u64>,
    magic_table: Vec<u64>,
}

fn build_slider(dirs: &[(i8, i8)], rng: &mut Rng) -> Slider {
    let mut slider = Slider {
        masks: Vec::new(),
        magics: Vec::new(),
        offsets: Vec::new(),
        pext_table: Vec::new(),
        magic_table: Vec::new(),
    };
    for sq in 0..64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        let occupancies: Vec<u64> = (0..size as u64).map(|i| pdep(i, mask)).collect();
        let attacks: Vec<u64> = occupancies.iter().map(|&o| slide(sq, dirs, o)).collect();
        let offset = slider.pext_table.len();
        slider.offsets.push(offset as u32);
        slider.masks.push(mask);
        slider.pext_table.resize(offset + size, 0);
        for (&occ, &att) in occupancies.iter().zip(&attacks) {
            slider.pext_table[offset + pext(occ, mask) as usize] = att;
        }
        let shift = 64 - bits;
        let mut used = vec![0u64; size];
        let magic = loop {
            let magic = rng.sparse();
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            used.iter_mut().for_each(|u| *u = 0);
            let ok = occupancies.iter().zip(&attacks).all(|(&occ, &att)| {
                let index = (occ.wrapping_mul(magic) >> shift) as usize;
                // An attack set is never 0, so 0 marks a free slot.
                if used[index] == 0 || used[index] == att {
                    used[index] = att;
                    true
                } else {
                    false
                }
            });
            if ok {
                break magic;
            }
        };
        slider.magics.push(magic);
        slider.magic_table.extend_from_slice(&used);
    }
    slider
}

fn write_u64s(dir: &Path, name: &str, values: &[u64]) {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    fs::write(dir.join(name), bytes).expect("write table");
}

fn list(values: impl Iterator<Item = String>) -> String {
    values.collect::<Vec<_>>().join(", ")
}

/// Tells the tests which outside programs they can use, as `cfg`s: a test that needs
/// Stockfish carries `#[cfg_attr(not(has_stockfish), ignore = "needs stockfish")]`, so
/// without it the test shows as ignored instead of passing untested (`tests/integration/tools.rs`
/// fails under CI, where `CI` is set, if any of the programs is missing). Fathom is the
/// independent Syzygy prober the tablebase tests check against.
///
/// Only when asked, by `ROOKLING_FIND_TOOLS=1` (set for this repository by
/// `.cargo/config.toml`): a crate that depends on Rookling does not run its tests, so
/// its builds never look at `PATH` nor rerun this script when `PATH` changes.
fn detect_tools() {
    println!("cargo::rustc-check-cfg=cfg(has_stockfish)");
    println!("cargo::rustc-check-cfg=cfg(has_parallel)");
    println!("cargo::rustc-check-cfg=cfg(has_fathom)");
    println!("cargo::rerun-if-env-changed=ROOKLING_FIND_TOOLS");
    if env::var_os("ROOKLING_FIND_TOOLS").is_none_or(|v| v != "1") {
        return;
    }
    println!("cargo::rerun-if-env-changed=PATH");
    let mut dirs: Vec<_> = env::var_os("PATH")
        .map(|paths| env::split_paths(&paths).collect())
        .unwrap_or_default();
    // Debian installs Stockfish and Fathom in /usr/games, which is not on root's PATH.
    for (program, cfg, extra) in [
        ("stockfish", "has_stockfish", Some("/usr/games")),
        ("parallel", "has_parallel", None),
        ("fathom", "has_fathom", Some("/usr/games")),
    ] {
        dirs.extend(extra.map(Into::into));
        let found = dirs.iter().map(|d| d.join(program)).find(|p| p.is_file());
        match found {
            Some(path) => {
                println!("cargo::rustc-cfg={cfg}");
                println!("cargo::rerun-if-changed={}", path.display());
            }
            // Watch the directories (only those that exist: a missing path would rerun
            // this script on every build), so installing the program is noticed.
            None => dirs
                .iter()
                .filter(|d| d.is_absolute() && d.is_dir())
                .for_each(|d| println!("cargo::rerun-if-changed={}", d.display())),
        }
    }
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/attacks/rays.rs");
    detect_tools();
    let out = env::var("OUT_DIR").expect("OUT_DIR is set by cargo");
    let dir = Path::new(&out);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let rook = build_slider(&ROOK_DIRS, &mut rng);
    let bishop = build_slider(&BISHOP_DIRS, &mut rng);

    let mut between = vec![0u64; 64 * 64];
    let mut line = vec![0u64; 64 * 64];
    for a in 0..64 {
        for b in 0..64 {
            if a == b {
                continue;
            }
            let bb = 1u64 << b;
            for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                if slide(a, dirs, 0) & bb != 0 {
                    between[a * 64 + b] = slide(a, dirs, bb) & slide(b, dirs, 1 << a);
                    line[a * 64 + b] = (slide(a, dirs, 0) & slide(b, dirs, 0)) | (1 << a) | bb;
                }
            }
        }
    }

    write_u64s(dir, "rook_pext.bin", &rook.pext_table);
    write_u64s(dir, "rook_magic.bin", &rook.magic_table);
    write_u64s(dir, "bishop_pext.bin", &bishop.pext_table);
    write_u64s(dir, "bishop_magic.bin", &bishop.magic_table);
    write_u64s(dir, "between.bin", &between);
    write_u64s(dir, "line.bin", &line);

    let mut src = String::new();
    for (name, s) in [("ROOK", &rook), ("BISHOP", &bishop)] {
        let hex = |v: &u64| format!("0x{v:016X}");
        writeln!(src, "/// Relevant occupancy masks.").ok();
        writeln!(
            src,
            "pub const {name}_MASKS: [u64; 64] = [{}];",
            list(s.masks.iter().map(hex))
        )
        .ok();
        writeln!(src, "/// Magic multipliers.").ok();
        writeln!(
            src,
            "pub const {name}_MAGICS: [u64; 64] = [{}];",
            list(s.magics.iter().map(hex))
        )
        .ok();
        writeln!(src, "/// Start of each square's slice in the tables.").ok();
        writeln!(
            src,
            "pub const {name}_OFFSETS: [u32; 64] = [{}];",
            list(s.offsets.iter().map(u32::to_string))
        )
        .ok();
        writeln!(src, "/// Entries in each table.").ok();
        writeln!(
            src,
            "pub const {name}_TABLE_LEN: usize = {};",
            s.pext_table.len()
        )
        .ok();
    }
    fs::write(dir.join("tables.rs"), src).expect("write tables.rs");
}
