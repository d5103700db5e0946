//! Legal move generation: legal by construction (check mask, pin lines, king safety),
//! never pseudo-legal moves filtered afterwards.
//!
//! One generator, [`generate`], generic over the side to move ([`Side`]) and over what
//! is done with the moves ([`Visitor`]): collecting them ([`MoveList`]) or counting them
//! by popcount ([`count_legal`]), which is what perft's last ply uses.

mod list;
#[cfg(test)]
mod make_tests;
mod notation;
mod side;
mod tactical;

pub use list::{MAX_MOVES, MoveList};
pub use notation::{MoveError, parse_move, play_moves};
pub use side::{Black, Side, White};
pub use tactical::tactical_moves;

use crate::attacks::{self, Chosen, Sliders};
use crate::board::{Bitboard, CastleSide, Color, Move, PieceType, Position, Square};

/// Receives the legal moves in groups, as the generator finds them.
///
/// Only [`single`](Visitor::single) is required: the group methods hand each move to it
/// by default (promotions expanded here, once). Visitors that count without looking at
/// each move ([`count_legal`]) override them with popcounts.
pub trait Visitor {
    /// Moves of the knight, bishop, rook, queen or king on `from` to each of `targets`.
    #[inline(always)]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.single(Move::normal(from, to));
        }
    }

    /// Pawn moves to each of `targets`, each coming from `to - delta`; a move to the last
    /// rank stands for its four promotions.
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i8, promotion: bool) {
        for to in targets {
            let from = to.offset(-delta);
            if promotion {
                for mv in Move::promotions(from, to) {
                    self.single(mv);
                }
            } else {
                self.single(Move::normal(from, to));
            }
        }
    }

    /// One move: en passant captures and castling always come this way, the others
    /// through the group methods' defaults.
    fn single(&mut self, mv: Move);
}

impl Visitor for MoveList {
    #[inline(always)]
    fn single(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Counts moves without listing them.
#[derive(Default)]
pub struct Counter(pub u64);

impl Visitor for Counter {
    #[inline(always)]
    fn piece(&mut self, _from: Square, targets: Bitboard) {
        self.0 += targets.count() as u64;
    }

    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, _delta: i8, promotion: bool) {
        self.0 += (targets.count() as u64) << (2 * promotion as u32);
    }

    #[inline(always)]
    fn single(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

/// All legal moves of the side to move.
///
/// ```
/// use rookling::board::Position;
/// use rookling::movegen::legal_moves;
///
/// let pos = Position::startpos();
/// let moves = legal_moves(&pos);
/// assert_eq!(moves.len(), 20);
/// assert!(moves.iter().any(|mv| mv.to_uci(false) == "e2e4"));
/// ```
#[must_use]
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_all(pos, &mut list);
    list
}

/// The number of legal moves, counted by popcount.
#[inline]
#[must_use]
pub fn count_legal(pos: &Position) -> u64 {
    let mut counter = Counter(0);
    generate_all(pos, &mut counter);
    counter.0
}

/// Feeds every legal move to `visitor`, for whichever side is to move.
#[inline(always)]
pub fn generate_all<V: Visitor>(pos: &Position, visitor: &mut V) {
    match pos.side_to_move() {
        Color::White => generate::<White, V>(pos, visitor),
        Color::Black => generate::<Black, V>(pos, visitor),
    }
}

/// Feeds every legal move of `S` (who must be to move) to `visitor`.
#[inline(always)]
pub fn generate<S: Side, V: Visitor>(pos: &Position, visitor: &mut V) {
    generate_with::<S, Chosen, V>(pos, visitor);
}

/// [`generate`] with the slider look-up `L` fixed at compile time (the perft walk's).
#[inline(always)]
pub(crate) fn generate_with<S: Side, L: Sliders, V: Visitor>(pos: &Position, visitor: &mut V) {
    let b = Snapshot::new::<S>(pos);
    king_moves::<S, L, V>(pos, &b, visitor);
    if b.checkers.is_empty() {
        piece_moves::<S, L, V, false>(pos, &b, visitor);
        if pos.castling().any(S::US) {
            castling::<S, L, V>(pos, &b, visitor);
        }
    } else if !b.checkers.more_than_one() {
        piece_moves::<S, L, V, true>(pos, &b, visitor);
    }
}

/// What every part of the generator needs: occupancy, the king, checkers and pins.
struct Snapshot {
    occ: Bitboard,
    ours: Bitboard,
    theirs: Bitboard,
    ksq: Square,
    /// Enemy pieces giving check.
    checkers: Bitboard,
    /// Our pieces pinned to our king.
    pinned: Bitboard,
    /// Enemy rooks and queens.
    their_rq: Bitboard,
    /// Enemy bishops and queens.
    their_bq: Bitboard,
}

impl Snapshot {
    /// Slider checkers and pins come from one walk over the enemy sliders on the king's
    /// empty-board lines: none between them is a check, exactly one of ours is a pin.
    #[inline(always)]
    fn new<S: Side>(pos: &Position) -> Self {
        let us = S::US;
        let occ = pos.occupied();
        let ours = pos.color(us);
        let theirs = pos.color(S::THEM);
        let ksq = pos.king(us);
        let queens = pos.pieces(PieceType::Queen);
        let their_rq = theirs & (pos.pieces(PieceType::Rook) | queens);
        let their_bq = theirs & (pos.pieces(PieceType::Bishop) | queens);
        let mut checkers = ((attacks::pawn(us, ksq) & pos.pieces(PieceType::Pawn))
            | (attacks::knight(ksq) & pos.pieces(PieceType::Knight)))
            & theirs;
        let snipers = (attacks::rook_rays(ksq) & their_rq) | (attacks::bishop_rays(ksq) & their_bq);
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(ksq, sniper) & occ;
            if blockers.is_empty() {
                checkers |= Bitboard::from(sniper);
            } else if !blockers.more_than_one() {
                pinned |= blockers & ours;
            }
        }
        Self {
            occ,
            ours,
            theirs,
            ksq,
            checkers,
            pinned,
            their_rq,
            their_bq,
        }
    }
}

/// King moves: every target the enemy does not attack once the king has left.
#[inline(always)]
fn king_moves<S: Side, L: Sliders, V: Visitor>(pos: &Position, b: &Snapshot, visitor: &mut V) {
    let candidates = attacks::king(b.ksq) & !b.ours;
    if candidates.is_empty() {
        return;
    }
    // Pawn, knight and king attacks as sets first. Sliders: with at most one enemy
    // slider (endgames) its attack set, one look-up; with more, square by square (the
    // king has few free squares then, and the rays rule most sliders out).
    let leapers = leaper_attacks::<S>(pos);
    let occ = b.occ ^ Bitboard::from(b.ksq);
    let sliders = b.their_rq | b.their_bq;
    let targets = if !sliders.more_than_one() {
        let mut covered = leapers;
        if sliders.any() {
            let sq = sliders.lsb();
            if b.their_bq.has(sq) {
                covered |= L::bishop(sq, occ);
            }
            if b.their_rq.has(sq) {
                covered |= L::rook(sq, occ);
            }
        }
        candidates & !covered
    } else {
        let mut targets = Bitboard::EMPTY;
        for to in candidates & !leapers {
            if !slider_attacked::<L>(to, occ, b.their_rq, b.their_bq) {
                targets |= Bitboard::from(to);
            }
        }
        targets
    };
    visitor.piece(b.ksq, targets);
}

/// The squares the enemy of `S` attacks with pawns, knights and king.
#[inline(always)]
fn leaper_attacks<S: Side>(pos: &Position) -> Bitboard {
    let them = S::THEM;
    let their_pawns = pos.colored(them, PieceType::Pawn);
    let mut covered = (their_pawns & !Bitboard::FILE_A).shift(-S::UP - 1)
        | (their_pawns & !Bitboard::FILE_H).shift(-S::UP + 1)
        | attacks::king(pos.king(them));
    for knight in pos.colored(them, PieceType::Knight) {
        covered |= attacks::knight(knight);
    }
    covered
}

/// Moves of every piece but the king, with `CHECK` telling whether we are in (single)
/// check: then only captures of the checker and blocks count, and pinned pieces are out.
/// Castling is generated apart ([`castling`]).
#[inline(always)]
fn piece_moves<S: Side, L: Sliders, V: Visitor, const CHECK: bool>(
    pos: &Position,
    b: &Snapshot,
    visitor: &mut V,
) {
    let us = S::US;
    let ksq = b.ksq;
    let occ = b.occ;
    let pinned = b.pinned;
    // Destinations: not our own and, in check, capturing or blocking the checker (whose
    // path to the king is empty and never holds one of ours).
    let target = if CHECK {
        attacks::between(ksq, b.checkers.lsb()) | b.checkers
    } else {
        !b.ours
    };

    // Knights: a pinned knight never moves.
    for from in pos.colored(us, PieceType::Knight) & !pinned {
        visitor.piece(from, attacks::knight(from) & target);
    }
    // Sliders: queens move as a bishop and as a rook. A pinned one stays on the line
    // through its king, which it can never do while in check.
    let queens = pos.colored(us, PieceType::Queen);
    let diagonal = pos.colored(us, PieceType::Bishop) | queens;
    let orthogonal = pos.colored(us, PieceType::Rook) | queens;
    for from in diagonal & !pinned {
        visitor.piece(from, L::bishop(from, occ) & target);
    }
    for from in orthogonal & !pinned {
        visitor.piece(from, L::rook(from, occ) & target);
    }
    if !CHECK {
        for from in diagonal & pinned {
            let line = attacks::line(ksq, from);
            visitor.piece(from, L::bishop(from, occ) & target & line);
        }
        for from in orthogonal & pinned {
            let line = attacks::line(ksq, from);
            visitor.piece(from, L::rook(from, occ) & target & line);
        }
    }

    // Pawns: the unpinned ones as a set, each pinned one along its pin line.
    let pawns = pos.colored(us, PieceType::Pawn);
    pawn_moves::<S, V>(pawns & !pinned, occ, b.theirs, target, visitor);
    if !CHECK {
        for from in pawns & pinned {
            let line = attacks::line(ksq, from);
            pawn_moves::<S, V>(Bitboard::from(from), occ, b.theirs, target & line, visitor);
        }
    }

    if let Some(ep) = pos.en_passant() {
        en_passant::<S, L, V>(pos, ep, ksq, visitor);
    }
}

/// Whether an enemy rook, bishop or queen attacks `sq` through `occ`; the empty-board
/// rays skip the look-up when no such slider is even on a line with `sq`.
#[inline(always)]
fn slider_attacked<L: Sliders>(
    sq: Square,
    occ: Bitboard,
    their_rq: Bitboard,
    their_bq: Bitboard,
) -> bool {
    ((attacks::rook_rays(sq) & their_rq).any() && (L::rook(sq, occ) & their_rq).any())
        || ((attacks::bishop_rays(sq) & their_bq).any() && (L::bishop(sq, occ) & their_bq).any())
}

/// Pushes, double pushes, captures and promotions of `pawns`, landing only on `allowed`
/// (captures also need an enemy piece there). En passant is generated separately.
#[inline(always)]
fn pawn_moves<S: Side, V: Visitor>(
    pawns: Bitboard,
    occ: Bitboard,
    theirs: Bitboard,
    allowed: Bitboard,
    visitor: &mut V,
) {
    let up = S::UP;
    let empty = !occ;
    let single = pawns.shift(up) & empty;
    let double = (single & S::DOUBLE_PUSH_RANK).shift(up) & empty & allowed;
    let single = single & allowed;
    // Towards the a-file (`up - 1`) and towards the h-file (`up + 1`).
    let west = (pawns & !Bitboard::FILE_A).shift(up - 1) & theirs & allowed;
    let east = (pawns & !Bitboard::FILE_H).shift(up + 1) & theirs & allowed;
    let promo = S::PROMOTION_RANK;
    visitor.pawns(single & !promo, up, false);
    visitor.pawns(double, 2 * up, false);
    visitor.pawns(west & !promo, up - 1, false);
    visitor.pawns(east & !promo, up + 1, false);
    if ((single | west | east) & promo).any() {
        visitor.pawns(single & promo, up, true);
        visitor.pawns(west & promo, up - 1, true);
        visitor.pawns(east & promo, up + 1, true);
    }
}

/// En passant captures onto `ep`, each tested by looking at the king after the capture:
/// this covers the pin along the rank of both pawns, the diagonal pin, and the capture
/// of a checking pawn (seed 000: check and pin masks alone would wrongly drop it).
#[inline(never)]
fn en_passant<S: Side, L: Sliders, V: Visitor>(
    pos: &Position,
    ep: Square,
    ksq: Square,
    visitor: &mut V,
) {
    let us = S::US;
    let them = S::THEM;
    let captured = ep.offset(-S::UP);
    let theirs = pos.color(them);
    for from in attacks::pawn(them, ep) & pos.colored(us, PieceType::Pawn) {
        let occ =
            pos.occupied() ^ Bitboard::from(from) ^ Bitboard::from(captured) ^ Bitboard::from(ep);
        let rq = pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen);
        let bq = pos.pieces(PieceType::Bishop) | pos.pieces(PieceType::Queen);
        let attackers = ((L::rook(ksq, occ) & rq)
            | (L::bishop(ksq, occ) & bq)
            | (attacks::knight(ksq) & pos.pieces(PieceType::Knight))
            | (attacks::pawn(us, ksq) & pos.pieces(PieceType::Pawn) & !Bitboard::from(captured)))
            & theirs;
        if attackers.is_empty() {
            visitor.single(Move::en_passant(from, ep));
        }
    }
}

/// Castling, standard and Chess960, when not in check: the squares between king and rook
/// and their targets must be empty (but for the two of them), and no square the king
/// stands on, crosses or reaches may be attacked once king and rook have left their
/// squares. The masks come from [`crate::board::CastlePath`], worked out when the right
/// was granted. (The king's own square still needs the slider test: lifting the rook
/// may open the back rank to it, as on `8/8/k7/8/8/8/8/rRK5 w B -`, where the king stays
/// on c1.)
#[inline(always)]
fn castling<S: Side, L: Sliders, V: Visitor>(pos: &Position, b: &Snapshot, visitor: &mut V) {
    let us = S::US;
    for side in CastleSide::ALL {
        if !pos.castling().has(us, side) {
            continue;
        }
        let path = pos.castling().path(us, side);
        if (path.empty & b.occ).any() {
            continue;
        }
        if (path.king & leaper_attacks::<S>(pos)).any() {
            continue;
        }
        let occ = b.occ ^ path.movers;
        let mut crossed = path.king;
        if Iterator::any(&mut crossed, |sq| {
            slider_attacked::<L>(sq, occ, b.their_rq, b.their_bq)
        }) {
            continue;
        }
        visitor.single(Move::castling(b.ksq, pos.castling().rook(us, side)));
    }
}
