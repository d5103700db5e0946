//! Legal move generation: legal by construction (check mask, pin lines, king safety),
//! never pseudo-legal moves filtered afterwards.
//!
//! One generator, [`generate`], generic over the side to move ([`Side`]) and over what
//! is done with the moves ([`Visitor`]): collecting them ([`MoveList`]) or counting them
//! by popcount ([`count_legal`]), which is what perft's last ply uses.

mod list;
#[cfg(test)]
mod make_tests;
mod near;
mod notation;
mod side;
mod tactical;

pub use list::{MAX_MOVES, MoveList};
pub(crate) use near::PieceCount;
pub use notation::{MoveError, parse_move, play_moves};
pub use side::{Black, Side, White};
pub use tactical::{tactical_moves, tactical_moves_into};

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
    generate_from::<S, L, V>(pos, &Snapshot::new::<S>(pos), visitor);
}

/// [`generate_with`] from the snapshot `b` of `pos`.
#[inline(always)]
fn generate_from<S: Side, L: Sliders, V: Visitor>(pos: &Position, b: &Snapshot, visitor: &mut V) {
    let leapers = king_moves::<S, L, V>(pos, b, visitor);
    if b.checkers.is_empty() {
        piece_moves::<S, L, V, false>(pos, b, visitor);
        if pos.castling().any(S::US) {
            castling::<S, L, V>(pos, b, leapers, visitor);
        }
    } else if !b.checkers.more_than_one() {
        piece_moves::<S, L, V, true>(pos, b, visitor);
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

/// King moves: every target the enemy does not attack once the king has left. Returns
/// the enemy's pawn, knight and king attacks ([`leaper_attacks`]) for [`castling`], or
/// `None` if the king had nowhere to go and they were not needed.
#[inline(always)]
fn king_moves<S: Side, L: Sliders, V: Visitor>(
    pos: &Position,
    b: &Snapshot,
    visitor: &mut V,
) -> Option<Bitboard> {
    let candidates = attacks::king(b.ksq) & !b.ours;
    if candidates.is_empty() {
        return None;
    }
    // Pawn, knight and king attacks as sets first. Sliders: with at most one enemy
    // slider (endgames) its attack set, one look-up; with more, the attack sets of those
    // that could reach a square next to the king (the king lifted off), if any square
    // is left to rule out. (The loop alone costs endgames mispredicted branches.)
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
        let mut covered = leapers;
        if (candidates & !covered).any() {
            for sq in b.their_bq & attacks::bishop_rays_near(b.ksq) {
                covered |= L::bishop(sq, occ);
            }
            for sq in b.their_rq & attacks::rook_rays_near(b.ksq) {
                covered |= L::rook(sq, occ);
            }
        }
        candidates & !covered
    };
    visitor.piece(b.ksq, targets);
    Some(leapers)
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
    // Destinations: not our own and, in check, capturing or blocking the checker (whose
    // path to the king is empty and never holds one of ours).
    let target = if CHECK {
        attacks::between(b.ksq, b.checkers.lsb()) | b.checkers
    } else {
        !b.ours
    };
    let mut moves = Targets { visitor, target };
    unpinned_pieces::<S, L, _>(pos, b, &mut moves);
    let visitor = moves.visitor;
    if !CHECK {
        pinned_sliders::<S, L, V>(pos, b, target, visitor);
    }
    let pawns = pos.colored(S::US, PieceType::Pawn);
    pawn_moves::<S, V>(pawns & !b.pinned, b.occ, b.theirs, target, visitor);
    if !CHECK {
        pinned_pawns::<S, V>(pos, b, target, visitor);
    }
    if let Some(ep) = pos.en_passant() {
        en_passant::<S, L, V>(pos, ep, b.ksq, visitor);
    }
}

/// Receives each unpinned piece's attack set from [`unpinned_pieces`].
trait Attacks {
    /// The piece on `from` (a bishop, rook or queen if `slider`, else a knight) attacks
    /// `attacks` (own pieces included).
    fn attacks(&mut self, from: Square, attacks: Bitboard, slider: bool);
}

/// Hands a visitor the attacks that land on `target`, as moves.
struct Targets<'a, V> {
    visitor: &'a mut V,
    target: Bitboard,
}

impl<V: Visitor> Attacks for Targets<'_, V> {
    #[inline(always)]
    fn attacks(&mut self, from: Square, attacks: Bitboard, _slider: bool) {
        self.visitor.piece(from, attacks & self.target);
    }
}

/// Each unpinned knight, bishop, rook and queen with the squares it attacks (a queen
/// twice: as a bishop, then as a rook). A pinned knight never moves; pinned sliders are
/// left to [`pinned_sliders`].
#[inline(always)]
fn unpinned_pieces<S: Side, L: Sliders, A: Attacks>(pos: &Position, b: &Snapshot, each: &mut A) {
    let us = S::US;
    for from in pos.colored(us, PieceType::Knight) & !b.pinned {
        each.attacks(from, attacks::knight(from), false);
    }
    let queens = pos.colored(us, PieceType::Queen);
    for from in (pos.colored(us, PieceType::Bishop) | queens) & !b.pinned {
        each.attacks(from, L::bishop(from, b.occ), true);
    }
    for from in (pos.colored(us, PieceType::Rook) | queens) & !b.pinned {
        each.attacks(from, L::rook(from, b.occ), true);
    }
}

/// Moves of the pinned bishops, rooks and queens (never while in check): along the line
/// through their king, landing on `target`.
#[inline(always)]
fn pinned_sliders<S: Side, L: Sliders, V: Visitor>(
    pos: &Position,
    b: &Snapshot,
    target: Bitboard,
    visitor: &mut V,
) {
    let us = S::US;
    let queens = pos.colored(us, PieceType::Queen);
    for from in (pos.colored(us, PieceType::Bishop) | queens) & b.pinned {
        let line = attacks::line(b.ksq, from);
        visitor.piece(from, L::bishop(from, b.occ) & target & line);
    }
    for from in (pos.colored(us, PieceType::Rook) | queens) & b.pinned {
        let line = attacks::line(b.ksq, from);
        visitor.piece(from, L::rook(from, b.occ) & target & line);
    }
}

/// Moves of the pinned pawns (never while in check), each along its pin line, landing on
/// `target`.
#[inline(always)]
fn pinned_pawns<S: Side, V: Visitor>(
    pos: &Position,
    b: &Snapshot,
    target: Bitboard,
    visitor: &mut V,
) {
    for from in pos.colored(S::US, PieceType::Pawn) & b.pinned {
        let line = attacks::line(b.ksq, from);
        pawn_moves::<S, V>(
            Bitboard::from(from),
            b.occ,
            b.theirs,
            target & line,
            visitor,
        );
    }
}

/// The squares whose contents decide the moves of `pawns` ([`pawn_moves`]): their own,
/// those they push to (one or two) and those they capture on.
#[inline(always)]
fn pawn_watch<S: Side>(pawns: Bitboard) -> Bitboard {
    let up = S::UP;
    let single = pawns.shift(up);
    pawns
        | single
        | (single & S::DOUBLE_PUSH_RANK).shift(up)
        | (pawns & !Bitboard::FILE_A).shift(up - 1)
        | (pawns & !Bitboard::FILE_H).shift(up + 1)
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
/// squares (the king's own square too: lifting the rook may open the back rank to it, as
/// on `8/8/k7/8/8/8/8/rRK5 w B -`, where the king stays on c1). The masks come from
/// [`crate::board::CastlePath`], worked out when the right was granted. `leapers` is what
/// [`king_moves`] returned (worked out here if it had no need of them).
#[inline(always)]
fn castling<S: Side, L: Sliders, V: Visitor>(
    pos: &Position,
    b: &Snapshot,
    leapers: Option<Bitboard>,
    visitor: &mut V,
) {
    // Written out for each side rather than looped over `CastleSide::ALL`, which the
    // compiler kept as a loop.
    castle::<S, L, V>(pos, b, CastleSide::King, leapers, visitor);
    castle::<S, L, V>(pos, b, CastleSide::Queen, leapers, visitor);
}

/// Castling on `side`, if the right is held and [`castling`]'s conditions are met.
#[inline(always)]
fn castle<S: Side, L: Sliders, V: Visitor>(
    pos: &Position,
    b: &Snapshot,
    side: CastleSide,
    leapers: Option<Bitboard>,
    visitor: &mut V,
) {
    let us = S::US;
    if !pos.castling().has(us, side) {
        return;
    }
    let path = pos.castling().path(us, side);
    if (path.empty & b.occ).any() {
        return;
    }
    // Attack sets, not square by square: the leapers', then those of the sliders that
    // could reach the king's squares, with king and rook lifted off.
    let mut covered = leapers.unwrap_or_else(|| leaper_attacks::<S>(pos));
    if (path.king & covered).is_empty() {
        let occ = b.occ ^ path.movers;
        for sq in b.their_bq & path.bishop_reach {
            covered |= L::bishop(sq, occ);
        }
        for sq in b.their_rq & path.rook_reach {
            covered |= L::rook(sq, occ);
        }
    }
    if (path.king & covered).is_empty() {
        visitor.single(Move::castling(b.ksq, pos.castling().rook(us, side)));
    }
}
