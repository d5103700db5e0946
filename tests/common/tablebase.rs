//! What the tablebase tests share: the committed tables (`tests/data/syzygy`, made as its
//! README says), random positions of a table's material, and Fathom (`/usr/games/fathom`,
//! Debian's `fathom`), the independent prober whose answers they are checked against.

use rookling::board::{Color, Move, PieceType, Position, Square};
use rookling::client::locate;
use rookling::movegen::legal_moves;
use std::path::PathBuf;
use std::process::Command;

/// The committed tables: every 3-piece table, every table of one piece or pawn against
/// one (KQvKR, KRvKB, KPvKP, ...), and KBNvK.
pub const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

/// The materials of [`TABLES`].
pub const MATERIALS: [&str; 21] = [
    "KQvK", "KRvK", "KBvK", "KNvK", "KPvK", "KQvKQ", "KQvKR", "KQvKB", "KQvKN", "KQvKP", "KRvKR",
    "KRvKB", "KRvKN", "KRvKP", "KBvKB", "KBvKN", "KBvKP", "KNvKN", "KNvKP", "KPvKP", "KBNvK",
];

/// xorshift64*: the same positions on every run.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random legal position of `material` (`KRvKB`: the first side's pieces, then the
/// second's), either colour on either side, either side to move, with a legal move, no
/// castling and the half-move clock `clock`. When `en_passant` is set, a position where
/// the side to move can take en passant, if the material allows one.
pub fn random_position(material: &str, rng: &mut Rng, clock: u32, en_passant: bool) -> Position {
    let (first, second) = material.split_once('v').expect("a table name");
    loop {
        let swap = rng.below(2) == 1;
        let mut board = [None::<(Color, PieceType)>; 64];
        let mut ok = true;
        for (text, color) in [(first, Color::White), (second, Color::Black)] {
            let color = if swap { color.flip() } else { color };
            for c in text.chars() {
                let kind = PieceType::from_char(c.to_ascii_lowercase()).expect("a piece letter");
                let sq = rng.below(64) as usize;
                let back_rank = !(8..56).contains(&sq);
                if board[sq].is_some() || (kind == PieceType::Pawn && back_rank) {
                    ok = false;
                }
                board[sq] = Some((color, kind));
            }
        }
        if !ok {
            continue;
        }
        let side = if rng.below(2) == 0 { 'w' } else { 'b' };
        let mut ep = "-".to_string();
        if en_passant {
            match en_passant_square(&board, side) {
                Some(sq) => ep = sq.to_string(),
                None => continue,
            }
        }
        let fen = format!("{} {side} - {ep} {clock} 80", placement(&board));
        let Ok(pos) = Position::from_fen(&fen) else {
            continue;
        };
        if legal_moves(&pos).is_empty() || (en_passant && pos.en_passant().is_none()) {
            continue;
        }
        return pos;
    }
}

/// The square behind a pawn of the side not to move that stands on its fourth rank (as
/// after a double step) beside a pawn of the side to move, when the two squares it
/// crossed are empty.
fn en_passant_square(board: &[Option<(Color, PieceType)>; 64], side: char) -> Option<Square> {
    let us = if side == 'w' {
        Color::White
    } else {
        Color::Black
    };
    let them = us.flip();
    let (rank, step): (usize, isize) = if us == Color::White { (4, 8) } else { (3, -8) };
    (0..8).find_map(|file| {
        let sq = rank * 8 + file;
        if board[sq] != Some((them, PieceType::Pawn)) {
            return None;
        }
        let beside = [file.checked_sub(1), (file < 7).then_some(file + 1)];
        let attacked = beside
            .into_iter()
            .flatten()
            .any(|f| board[rank * 8 + f] == Some((us, PieceType::Pawn)));
        let behind = (sq as isize + step) as usize;
        let start = (sq as isize + 2 * step) as usize;
        (attacked && board[behind].is_none() && board[start].is_none())
            .then(|| Square::new(behind as u8))
    })
}

/// The FEN placement field of `board`.
fn placement(board: &[Option<(Color, PieceType)>; 64]) -> String {
    let mut rows = Vec::new();
    for rank in (0..8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                None => empty += 1,
                Some((color, kind)) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let c = kind.char();
                    row.push(if color == Color::White {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    });
                }
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}

/// What Fathom prints for a position.
#[derive(Debug)]
pub struct Fathom {
    /// `Win`, `CursedWin`, `Draw`, `BlessedLoss` or `Loss`, for the side to move.
    pub wdl: String,
    /// Plies to zeroing, unsigned.
    pub dtz: u32,
    /// The moves that win, as Fathom writes them.
    pub winning: Vec<String>,
    /// The moves that draw (cursed wins and blessed losses included).
    pub drawing: Vec<String>,
    /// The moves that lose.
    pub losing: Vec<String>,
}

impl Fathom {
    /// Whether the move Fathom writes `text` keeps the position's result: a winning move
    /// in a win, a winning or drawing move in a draw (of any kind), any move in a loss.
    pub fn keeps_result(&self, text: &str) -> bool {
        let has = |list: &[String]| list.iter().any(|m| m == text);
        match self.wdl.as_str() {
            "Win" => has(&self.winning),
            "Loss" => true,
            _ => has(&self.winning) || has(&self.drawing),
        }
    }
}

/// Fathom, where `build.rs` looks for it (`PATH`, then `/usr/games`).
pub fn fathom_program() -> PathBuf {
    locate::find_program("fathom", None).expect("this test needs fathom (apt-get install fathom)")
}

/// Fathom's answer for `fen` with the tables in `dir`.
pub fn fathom(dir: &str, fen: &str) -> Fathom {
    let out = Command::new(fathom_program())
        .arg(format!("--path={dir}"))
        .arg(fen)
        .output()
        .expect("fathom runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "fathom on {fen}: {out:?}");
    let tag = |name: &str| -> String {
        let prefix = format!("[{name} \"");
        text.lines()
            .find_map(|l| l.strip_prefix(&prefix))
            .and_then(|rest| rest.strip_suffix("\"]"))
            .unwrap_or_else(|| panic!("fathom printed no {name} for {fen}:\n{text}"))
            .to_string()
    };
    let list = |name: &str| -> Vec<String> {
        let mut moves: Vec<String> = tag(name)
            .split(", ")
            .filter(|m| !m.is_empty())
            .map(String::from)
            .collect();
        moves.sort();
        moves
    };
    Fathom {
        wdl: tag("WDL"),
        dtz: tag("DTZ").parse().expect("a DTZ"),
        winning: list("WinningMoves"),
        drawing: list("DrawingMoves"),
        losing: list("LosingMoves"),
    }
}

/// `mv` written as Fathom writes moves (its `move_parts_to_str`, quirks included: the
/// other pieces that could go there are found by attack sets, ignoring pins, and the
/// file it compares is counted from the h-file), so lists can be compared as text.
pub fn fathom_text(pos: &Position, mv: Move) -> String {
    let (from, to) = (mv.from(), mv.to());
    let piece = pos.piece_on(from);
    let kind = piece.kind();
    let us = pos.color(pos.side_to_move());
    let occupied = pos.occupied();
    let en_passant = kind == PieceType::Pawn && from.file() != to.file() && !occupied.has(to);
    let capture = occupied.has(to) || en_passant;
    let same = pos.colored(pos.side_to_move(), kind);
    use rookling::attacks;
    let attackers = match kind {
        PieceType::King => rookling::board::Bitboard::EMPTY,
        PieceType::Queen => attacks::queen(to, occupied) & same,
        PieceType::Rook => attacks::rook(to, occupied) & same,
        PieceType::Bishop => attacks::bishop(to, occupied) & same,
        PieceType::Knight => attacks::knight(to) & same,
        PieceType::Pawn => attacks::pawn(pos.side_to_move().flip(), to) & us & same,
    };
    let mut text = String::new();
    if kind != PieceType::Pawn {
        text.push(kind.char().to_ascii_uppercase());
    }
    let file = (b'a' + from.file()) as char;
    let rank = (b'1' + from.rank()) as char;
    if kind == PieceType::Pawn && capture {
        text.push(file);
    } else if attackers.count() > 1 {
        let fathom_file = 0x8080_8080_8080_8080_u64 >> from.file();
        let rank_mask = 0xFF_u64 << (8 * from.rank());
        if (attackers.0 & fathom_file).count_ones() == 1 {
            text.push(file);
        } else if (attackers.0 & rank_mask).count_ones() == 1 {
            text.push(rank);
        } else {
            text.push(file);
            text.push(rank);
        }
    }
    if capture {
        text.push('x');
    }
    text.push_str(&to.to_string());
    if let Some(p) = mv.promotion_piece() {
        text.push('=');
        text.push(p.char().to_ascii_uppercase());
    }
    text
}
