//! Legal move generation: legal by construction (check mask, pin lines, king safety),
//! never pseudo-legal moves filtered afterwards.
//!
//! One generator, [`generate`], generic over the side to move ([`Side`]) and over what
//! is done with the moves ([`Visitor`]): collecting them ([`MoveList`]) or counting them
//! by popcount ([`count_legal`]), which is what perft's last ply uses.

pub mod attacks;
mod list;
mod notation;
mod side;
mod tactical;

pub use list::{MAX_MOVES, MoveList};
pub use notation::{MoveError, parse_move, play_moves};
pub use side::{Black, Side, White};
pub use tactical::tactical_moves;

use crate::board::{Bitboard, CastleSide, Color, Move, PieceType, Position, Square};

/// Receives the legal moves in groups, as the generator finds them.
pub trait Visitor {
    /// Moves of the knight, bishop, rook, queen or king on `from` to each of `targets`.
    fn piece(&mut self, from: Square, targets: Bitboard);
    /// Pawn moves to each of `targets`, each coming from `to - delta`; a move to the last
    /// rank stands for its four promotions.
    fn pawns(&mut self, targets: Bitboard, delta: i8, promotion: bool);
    /// One en passant capture, a castling move, or another move given one at a time.
    fn single(&mut self, mv: Move);
}

impl Visitor for MoveList {
    #[inline(always)]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::normal(from, to));
        }
    }

    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i8, promotion: bool) {
        for to in targets {
            let from = to.offset(-delta);
            if promotion {
                for piece in [
                    PieceType::Queen,
                    PieceType::Rook,
                    PieceType::Bishop,
                    PieceType::Knight,
                ] {
                    self.push(Move::promotion(from, to, piece));
                }
            } else {
                self.push(Move::normal(from, to));
            }
        }
    }

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
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_all(pos, &mut list);
    list
}

/// The number of legal moves, counted by popcount.
#[inline]
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
    let us = S::US;
    let them = S::THEM;
    let occ = pos.occupied();
    let ours = pos.color(us);
    let theirs = pos.color(them);
    let ksq = pos.king(us);
    let their_rq = theirs & (pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen));
    let their_bq = theirs & (pos.pieces(PieceType::Bishop) | pos.pieces(PieceType::Queen));

    let checkers = ((attacks::pawn(us, ksq) & pos.pieces(PieceType::Pawn))
        | (attacks::knight(ksq) & pos.pieces(PieceType::Knight))
        | (attacks::rook(ksq, occ) & (pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen)))
        | (attacks::bishop(ksq, occ)
            & (pos.pieces(PieceType::Bishop) | pos.pieces(PieceType::Queen))))
        & theirs;

    // King moves: every target the enemy does not attack once the king has left.
    let occ_without_king = occ ^ Bitboard::from(ksq);
    let mut king_targets = Bitboard::EMPTY;
    for to in attacks::king(ksq) & !ours {
        if !attacked::<S>(pos, to, occ_without_king) {
            king_targets |= Bitboard::from(to);
        }
    }
    visitor.piece(ksq, king_targets);

    if checkers.more_than_one() {
        return;
    }
    // Destinations that are not our own and, in check, capture or block the checker.
    let target_mask = match checkers.any() {
        true => attacks::between(ksq, checkers.lsb()) | checkers,
        false => !ours,
    } & !ours;

    // Pinned pieces: our only piece between the king and an enemy slider.
    let snipers =
        (attacks::rook(ksq, theirs) & their_rq) | (attacks::bishop(ksq, theirs) & their_bq);
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let blockers = attacks::between(ksq, sniper) & occ;
        if !blockers.more_than_one() {
            pinned |= blockers & ours;
        }
    }

    // Knights: a pinned knight never moves.
    for from in pos.colored(us, PieceType::Knight) & !pinned {
        visitor.piece(from, attacks::knight(from) & target_mask);
    }
    // Sliders: a pinned one stays on the line through its king.
    let queens = pos.colored(us, PieceType::Queen);
    for from in pos.colored(us, PieceType::Bishop) | queens {
        let mut targets = attacks::bishop(from, occ) & target_mask;
        if pinned.has(from) {
            targets &= attacks::line(ksq, from);
        }
        if queens.has(from) {
            let mut rook_targets = attacks::rook(from, occ) & target_mask;
            if pinned.has(from) {
                rook_targets &= attacks::line(ksq, from);
            }
            targets |= rook_targets;
        }
        visitor.piece(from, targets);
    }
    for from in pos.colored(us, PieceType::Rook) {
        let mut targets = attacks::rook(from, occ) & target_mask;
        if pinned.has(from) {
            targets &= attacks::line(ksq, from);
        }
        visitor.piece(from, targets);
    }

    // Pawns: the unpinned ones as a set, each pinned one along its pin line.
    let pawns = pos.colored(us, PieceType::Pawn);
    pawn_moves::<S, V>(pawns & !pinned, occ, theirs, target_mask, visitor);
    for from in pawns & pinned {
        let line = attacks::line(ksq, from);
        pawn_moves::<S, V>(
            Bitboard::from(from),
            occ,
            theirs,
            target_mask & line,
            visitor,
        );
    }

    if let Some(ep) = pos.en_passant() {
        en_passant::<S, V>(pos, ep, ksq, visitor);
    }
    if checkers.is_empty() && pos.castling().any(us) {
        castling::<S, V>(pos, ksq, visitor);
    }
}

/// Whether `sq` is attacked by the enemy of `S` with `occ` as the occupancy.
#[inline(always)]
fn attacked<S: Side>(pos: &Position, sq: Square, occ: Bitboard) -> bool {
    let them = S::THEM;
    let theirs = pos.color(them);
    let rq = pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen);
    let bq = pos.pieces(PieceType::Bishop) | pos.pieces(PieceType::Queen);
    ((attacks::pawn(S::US, sq) & pos.pieces(PieceType::Pawn))
        | (attacks::knight(sq) & pos.pieces(PieceType::Knight))
        | (attacks::king(sq) & pos.pieces(PieceType::King))
        | (attacks::bishop(sq, occ) & bq)
        | (attacks::rook(sq, occ) & rq))
        & theirs
        != Bitboard::EMPTY
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
fn en_passant<S: Side, V: Visitor>(pos: &Position, ep: Square, ksq: Square, visitor: &mut V) {
    let us = S::US;
    let them = S::THEM;
    let captured = ep.offset(-S::UP);
    let theirs = pos.color(them);
    for from in attacks::pawn(them, ep) & pos.colored(us, PieceType::Pawn) {
        let occ =
            pos.occupied() ^ Bitboard::from(from) ^ Bitboard::from(captured) ^ Bitboard::from(ep);
        let rq = pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen);
        let bq = pos.pieces(PieceType::Bishop) | pos.pieces(PieceType::Queen);
        let attackers = ((attacks::rook(ksq, occ) & rq)
            | (attacks::bishop(ksq, occ) & bq)
            | (attacks::knight(ksq) & pos.pieces(PieceType::Knight))
            | (attacks::pawn(us, ksq) & pos.pieces(PieceType::Pawn) & !Bitboard::from(captured)))
            & theirs;
        if attackers.is_empty() {
            visitor.single(Move::en_passant(from, ep));
        }
    }
}

/// Castling, standard and Chess960: the squares between king and rook and their targets
/// must be empty (but for the two of them), and no square the king stands on, crosses
/// or reaches may be attacked once king and rook have left their squares.
#[inline(never)]
fn castling<S: Side, V: Visitor>(pos: &Position, ksq: Square, visitor: &mut V) {
    let us = S::US;
    for side in CastleSide::ALL {
        if !pos.castling().has(us, side) {
            continue;
        }
        let rook = pos.castling().rook(us, side);
        let king_to = Move::castling_king_to(ksq, rook);
        let rook_to = Move::castling_rook_to(ksq, rook);
        let movers = Bitboard::from(ksq) | Bitboard::from(rook);
        let king_path = attacks::between(ksq, king_to) | Bitboard::from(king_to);
        let rook_path = attacks::between(rook, rook_to) | Bitboard::from(rook_to);
        let occ = pos.occupied() ^ movers;
        if ((king_path | rook_path) & occ).any() {
            continue;
        }
        let mut king_squares = king_path | Bitboard::from(ksq);
        if Iterator::any(&mut king_squares, |sq| attacked::<S>(pos, sq, occ)) {
            continue;
        }
        visitor.single(Move::castling(ksq, rook));
    }
}
