//! The planted bugs: Rookling's legal moves, with some dropped and some illegal ones
//! added, as a move generator with that bug would list them.
//!
//! An illegal move added by a bug is not played: it counts 1 node at any depth, so the
//! counts stay deterministic and the drill-down meets it in the move lists. One bug
//! keeps state along a line of play (castling rights kept after their rook was
//! captured), so the generator carries [`Ghosts`] through the moves of the path and the
//! tree.

use rookling::attacks;
use rookling::board::{Bitboard, CastleSide, Color, Move, MoveKind, PieceType, Position, Square};
use rookling::movegen::legal_moves;

/// The planted bug.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bug {
    /// Exact (Rookling's generator).
    None,
    /// Drops en passant captures while in check (seed 000's Bitbishop bug).
    EpInCheck,
    /// Never castles.
    NoCastling,
    /// May castle out of check.
    ExtraCastling,
    /// Never under-promotes to a knight.
    NoKnightPromotion,
    /// Promotes to a queen only.
    NoUnderpromotion,
    /// Never promotes with a capture.
    NoPromotionCapture,
    /// Keeps a castling right after its rook is captured on its square, and castles
    /// with whatever stands there (or nothing).
    CastlingRightsKept,
    /// Allows an en passant capture that exposes its king along the rank.
    EpRankPin,
    /// Chess960: castles when the squares between king and rook are empty, even if the
    /// king's or the rook's destination is occupied.
    Chess960CastlingOccupied,
    /// Lets a pinned knight, bishop, rook or queen leave the pin line.
    PinnedPiece,
    /// Tests the king's destination with the king still on its square, so the king may
    /// step back along the ray of a checking slider.
    KingAlongRay,
    /// Answers a double check as a single check by one of the checkers.
    DoubleCheck,
    /// Dies in the middle of an answer.
    Crash,
    /// Never answers `go perft` (or never exits, as a script).
    Hang,
    /// Answers with lines that are not perft output.
    Garbage,
}

impl Bug {
    /// Every bug's name, as `--bug` takes it.
    pub const NAMES: [(&'static str, Bug); 16] = [
        ("none", Bug::None),
        ("ep-in-check", Bug::EpInCheck),
        ("no-castling", Bug::NoCastling),
        ("extra-castling", Bug::ExtraCastling),
        ("no-knight-promotion", Bug::NoKnightPromotion),
        ("no-underpromotion", Bug::NoUnderpromotion),
        ("no-promotion-capture", Bug::NoPromotionCapture),
        ("castling-rights-kept", Bug::CastlingRightsKept),
        ("ep-rank-pin", Bug::EpRankPin),
        ("chess960-castling-occupied", Bug::Chess960CastlingOccupied),
        ("pinned-piece", Bug::PinnedPiece),
        ("king-along-ray", Bug::KingAlongRay),
        ("double-check", Bug::DoubleCheck),
        ("crash", Bug::Crash),
        ("hang", Bug::Hang),
        ("garbage", Bug::Garbage),
    ];

    /// The bug `name` names.
    pub fn parse(name: &str) -> Option<Self> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, b)| b)
    }
}

/// A move the buggy generator lists.
#[derive(Clone, Debug)]
pub enum Gen {
    /// A move played when the tree goes on: legal, or castling out of check.
    Legal(Move),
    /// An illegal move, in UCI notation: 1 node at any depth.
    Bogus(String),
}

/// Castling rights the buggy generator still believes in after their rook was
/// captured: (colour, king square, rook square).
pub type Ghosts = Vec<(Color, Square, Square)>;

/// The buggy generator.
#[derive(Clone, Copy, Debug)]
pub struct Generator {
    /// The bug.
    pub bug: Bug,
}

impl Generator {
    /// The moves this generator lists in `pos`.
    pub fn moves(&self, pos: &Position, ghosts: &Ghosts) -> Vec<Gen> {
        let legal: Vec<Move> = legal_moves(pos).iter().copied().collect();
        let keep = |m: &Move| match self.bug {
            Bug::EpInCheck => !(pos.in_check() && m.kind() == MoveKind::EnPassant),
            Bug::NoCastling => m.kind() != MoveKind::Castling,
            Bug::NoKnightPromotion => m.promotion_piece() != Some(PieceType::Knight),
            Bug::NoUnderpromotion => {
                m.promotion_piece().is_none() || m.promotion_piece() == Some(PieceType::Queen)
            }
            Bug::NoPromotionCapture => !(m.kind() == MoveKind::Promotion && pos.is_capture(*m)),
            _ => true,
        };
        let mut list: Vec<Gen> = legal.iter().copied().filter(keep).map(Gen::Legal).collect();
        if self.bug == Bug::ExtraCastling && pos.in_check() {
            // Played like legal moves (make handles them), as this bug always was.
            list.extend(castling_out_of_check(pos).into_iter().map(Gen::Legal));
        }
        let bogus = match self.bug {
            Bug::CastlingRightsKept => ghost_castling(pos, ghosts),
            Bug::EpRankPin => en_passant_along_rank(pos, &legal),
            Bug::Chess960CastlingOccupied => castling_through_pieces(pos, &legal),
            Bug::PinnedPiece => pinned_moves(pos),
            Bug::KingAlongRay => king_along_ray(pos, &legal),
            Bug::DoubleCheck => double_check_blocks(pos),
            _ => Vec::new(),
        };
        let chess960 = pos.is_chess960();
        for mv in bogus {
            let text = mv.to_uci(chess960);
            if !legal.iter().any(|m| m.to_uci(chess960) == text) {
                list.push(Gen::Bogus(text));
            }
        }
        list
    }

    /// Plays `mv` (legal) on `pos`, keeping `ghosts` up to date.
    pub fn play(&self, pos: &mut Position, ghosts: &mut Ghosts, mv: Move) {
        self.note(pos, ghosts, mv);
        pos.play(mv);
    }

    /// Updates `ghosts` for `mv`, about to be played in `pos`.
    fn note(&self, pos: &Position, ghosts: &mut Ghosts, mv: Move) {
        if self.bug != Bug::CastlingRightsKept {
            return;
        }
        let us = pos.side_to_move();
        if pos.piece_on(mv.from()).kind() == PieceType::King {
            ghosts.retain(|g| g.0 != us);
        }
        let them = us.flip();
        let captured = pos.piece_on(mv.to());
        if mv.kind() != MoveKind::Castling
            && !captured.is_none()
            && captured.kind() == PieceType::Rook
        {
            for side in CastleSide::ALL {
                if pos.castling().has(them, side) && pos.castling().rook(them, side) == mv.to() {
                    ghosts.push((them, pos.king(them), mv.to()));
                }
            }
        }
    }

    /// The perft of `depth` below `pos` as this generator counts it.
    pub fn perft(&self, pos: &mut Position, ghosts: &Ghosts, depth: u32) -> u64 {
        let list = self.moves(pos, ghosts);
        if depth <= 1 {
            return list.len() as u64;
        }
        list.iter()
            .map(|g| self.subtree(pos, ghosts, g, depth - 1))
            .sum()
    }

    /// The count under the move `item` of `pos`, `depth` plies below it.
    pub fn subtree(&self, pos: &mut Position, ghosts: &Ghosts, item: &Gen, depth: u32) -> u64 {
        match item {
            Gen::Bogus(_) => 1,
            Gen::Legal(_) if depth == 0 => 1,
            Gen::Legal(mv) => {
                let mut next = ghosts.clone();
                self.note(pos, &mut next, *mv);
                let undo = pos.make(*mv);
                let n = self.perft(pos, &next, depth);
                pos.unmake(*mv, &undo);
                n
            }
        }
    }
}

/// Whether `sq` is attacked by the side not to move, with `occ` the occupancy.
fn attacked(pos: &Position, sq: Square, occ: Bitboard) -> bool {
    let them = pos.side_to_move().flip();
    (pos.attackers_to(sq, occ) & pos.color(them)).any()
}

/// The castling of the king on `ksq` with the rook on `rook`, if the squares the king
/// crosses and reaches are safe (with king and rook lifted) and `free` holds.
fn castle_if_safe(pos: &Position, ksq: Square, rook: Square) -> Option<Move> {
    let king_to = Move::castling_king_to(ksq, rook);
    let occ = pos.occupied() & !Bitboard::from(ksq) & !Bitboard::from(rook);
    let king_path = attacks::between(ksq, king_to) | Bitboard::from(king_to);
    king_path
        .into_iter()
        .all(|sq| !attacked(pos, sq, occ))
        .then(|| Move::castling(ksq, rook))
}

/// The squares castling of `ksq` with `rook` needs empty (but for the two of them).
fn castle_path(ksq: Square, rook: Square) -> Bitboard {
    let king_to = Move::castling_king_to(ksq, rook);
    let rook_to = Move::castling_rook_to(ksq, rook);
    let path = attacks::between(ksq, king_to)
        | Bitboard::from(king_to)
        | attacks::between(rook, rook_to)
        | Bitboard::from(rook_to);
    path & !Bitboard::from(ksq) & !Bitboard::from(rook)
}

/// Castling moves that would be legal if the king were not in check.
fn castling_out_of_check(pos: &Position) -> Vec<Move> {
    let us = pos.side_to_move();
    let ksq = pos.king(us);
    CastleSide::ALL
        .into_iter()
        .filter(|&side| pos.castling().has(us, side))
        .map(|side| pos.castling().rook(us, side))
        .filter(|&rook| (castle_path(ksq, rook) & pos.occupied()).is_empty())
        .filter_map(|rook| castle_if_safe(pos, ksq, rook))
        .collect()
}

/// Castling with a right whose rook was captured: the path (the rook's square aside)
/// is empty and the king's squares are safe.
fn ghost_castling(pos: &Position, ghosts: &Ghosts) -> Vec<Move> {
    let us = pos.side_to_move();
    let ksq = pos.king(us);
    if pos.in_check() {
        return Vec::new();
    }
    ghosts
        .iter()
        .filter(|g| g.0 == us && g.1 == ksq)
        .filter(|g| (castle_path(ksq, g.2) & pos.occupied()).is_empty())
        .filter_map(|g| castle_if_safe(pos, ksq, g.2))
        .collect()
}

/// En passant captures refused only because they expose the king along the rank.
fn en_passant_along_rank(pos: &Position, legal: &[Move]) -> Vec<Move> {
    let Some(ep) = pos.en_passant() else {
        return Vec::new();
    };
    let us = pos.side_to_move();
    let ksq = pos.king(us);
    let pawns = attacks::pawn(us.flip(), ep) & pos.colored(us, PieceType::Pawn);
    pawns
        .into_iter()
        .filter(|from| from.rank() == ksq.rank())
        .map(|from| Move::en_passant(from, ep))
        .filter(|mv| !legal.contains(mv))
        .collect()
}

/// Chess960 castling tested on the squares between king and rook only.
fn castling_through_pieces(pos: &Position, legal: &[Move]) -> Vec<Move> {
    let us = pos.side_to_move();
    let ksq = pos.king(us);
    if pos.in_check() {
        return Vec::new();
    }
    CastleSide::ALL
        .into_iter()
        .filter(|&side| pos.castling().has(us, side))
        .map(|side| pos.castling().rook(us, side))
        .filter(|&rook| (attacks::between(ksq, rook) & pos.occupied()).is_empty())
        .filter_map(|rook| castle_if_safe(pos, ksq, rook))
        .filter(|mv| !legal.contains(mv))
        .collect()
}

/// Our pieces pinned to our king, with the enemy slider pinning each.
fn pinned(pos: &Position) -> Bitboard {
    let us = pos.side_to_move();
    let ksq = pos.king(us);
    let them = pos.color(us.flip());
    let queens = pos.pieces(PieceType::Queen);
    let snipers = (attacks::rook_rays(ksq) & them & (pos.pieces(PieceType::Rook) | queens))
        | (attacks::bishop_rays(ksq) & them & (pos.pieces(PieceType::Bishop) | queens));
    let mut out = Bitboard::EMPTY;
    for sniper in snipers {
        let blockers = attacks::between(ksq, sniper) & pos.occupied();
        if blockers.count() == 1 {
            out |= blockers & pos.color(us);
        }
    }
    out
}

/// Moves of pinned knights, bishops, rooks and queens off their pin line (when not in
/// check).
fn pinned_moves(pos: &Position) -> Vec<Move> {
    let us = pos.side_to_move();
    let ksq = pos.king(us);
    let occ = pos.occupied();
    let mut out = Vec::new();
    if pos.in_check() {
        return out;
    }
    for from in pinned(pos) {
        let reach = match pos.piece_on(from).kind() {
            PieceType::Knight => attacks::knight(from),
            PieceType::Bishop => attacks::bishop(from, occ),
            PieceType::Rook => attacks::rook(from, occ),
            PieceType::Queen => attacks::queen(from, occ),
            _ => Bitboard::EMPTY,
        };
        let targets = reach & !pos.color(us) & !attacks::line(ksq, from);
        out.extend(targets.into_iter().map(|to| Move::normal(from, to)));
    }
    out
}

/// King moves to squares attacked only through the king's own square.
fn king_along_ray(pos: &Position, legal: &[Move]) -> Vec<Move> {
    let us = pos.side_to_move();
    let ksq = pos.king(us);
    let targets = attacks::king(ksq) & !pos.color(us);
    targets
        .into_iter()
        .filter(|&to| !attacked(pos, to, pos.occupied()))
        .map(|to| Move::normal(ksq, to))
        .filter(|mv| !legal.contains(mv))
        .collect()
}

/// In double check, the moves that capture or block the first checker as if it were
/// the only one: the legal moves of the position without the second checker.
fn double_check_blocks(pos: &Position) -> Vec<Move> {
    let checkers = pos.checkers();
    if !checkers.more_than_one() {
        return Vec::new();
    }
    let first = checkers.lsb();
    let second = (checkers & !Bitboard::from(first)).lsb();
    let Some(single) = without(pos, second) else {
        return Vec::new();
    };
    let ksq = pos.king(pos.side_to_move());
    let answers = attacks::between(ksq, first) | Bitboard::from(first);
    legal_moves(&single)
        .iter()
        .copied()
        .filter(|m| m.from() != ksq && answers.has(m.to()))
        .collect()
}

/// `pos` without the piece on `sq`, if that is still a valid position.
fn without(pos: &Position, sq: Square) -> Option<Position> {
    let fen = pos.to_fen();
    let (placement, rest) = fen.split_once(' ')?;
    let mut squares: Vec<char> = Vec::with_capacity(64);
    for rank in placement.split('/') {
        for c in rank.chars() {
            match c.to_digit(10) {
                Some(n) => squares.extend(std::iter::repeat_n('1', n as usize)),
                None => squares.push(c),
            }
        }
    }
    let index = (7 - sq.rank() as usize) * 8 + sq.file() as usize;
    *squares.get_mut(index)? = '1';
    let ranks: Vec<String> = squares.chunks(8).map(compress).collect();
    let mut single = Position::from_fen(&format!("{} {rest}", ranks.join("/"))).ok()?;
    single.set_chess960(pos.is_chess960());
    Some(single)
}

/// One rank of a FEN placement, runs of empty squares (`1`) written as one digit.
fn compress(rank: &[char]) -> String {
    let mut out = String::new();
    let mut empty = 0;
    for &c in rank {
        if c == '1' {
            empty += 1;
            continue;
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
            empty = 0;
        }
        out.push(c);
    }
    if empty > 0 {
        out.push_str(&empty.to_string());
    }
    out
}
