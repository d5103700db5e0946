//! Counting one side's moves in many positions one move apart (perft's frontier: every
//! reply to every move of one position). The moves of that side's unpinned knights,
//! bishops, rooks and queens, and those of its unpinned pawns, are counted once in the
//! position the moves start from ([`PieceCount::new`]); each count is reused in every
//! position where the move changed nothing it depends on ([`PieceCount::count`]).
//! Everything else (king, castling, en passant, pinned pieces, check) is counted in each
//! position, as [`super::count_legal`] does.

use super::{
    Attacks, Counter, Side, Snapshot, Targets, castling, en_passant, generate_from, king_moves,
    pawn_moves, pawn_watch, pinned_pawns, pinned_sliders, unpinned_pieces,
};
use crate::attacks::Sliders;
use crate::board::{Bitboard, PieceType, Position, Square};

/// One side's moves counted in one position, with what a position one move away must
/// leave as it was to have the same.
pub(crate) struct PieceCount {
    /// The side's pinned pieces: a pin made or broken changes which pieces are counted.
    pinned: Bitboard,
    /// The occupied squares.
    occ: Bitboard,
    /// The side's own pieces.
    ours: Bitboard,
    /// The moves of the unpinned knights, bishops, rooks and queens.
    pieces: u64,
    /// Squares where any change changes `pieces`: the counted pieces' own squares and
    /// every square a counted slider attacks (own pieces included).
    pieces_watch: Bitboard,
    /// Squares the counted knights attack: only the loss of an own piece there (it
    /// becomes a target) changes their count.
    knight_zone: Bitboard,
    /// The moves of the unpinned pawns (en passant apart).
    pawns: u64,
    /// Squares where any change changes `pawns` ([`pawn_watch`]).
    pawns_watch: Bitboard,
}

impl PieceCount {
    /// The counts for `S` in `pos` (whoever is to move there).
    #[inline(always)]
    pub(crate) fn new<S: Side, L: Sliders>(pos: &Position) -> Self {
        let b = Snapshot::new::<S>(pos);
        let mut tally = Tally {
            free: !b.ours,
            total: 0,
            watch: Bitboard::EMPTY,
            knight_zone: Bitboard::EMPTY,
        };
        unpinned_pieces::<S, L, _>(pos, &b, &mut tally);
        let pawns = pos.colored(S::US, PieceType::Pawn) & !b.pinned;
        let mut pawn_count = Counter(0);
        pawn_moves::<S, _>(pawns, b.occ, b.theirs, !b.ours, &mut pawn_count);
        Self {
            pinned: b.pinned,
            occ: b.occ,
            ours: b.ours,
            pieces: tally.total,
            pieces_watch: tally.watch,
            knight_zone: tally.knight_zone,
            pawns: pawn_count.0,
            pawns_watch: pawn_watch::<S>(pawns),
        }
    }

    /// The number of legal moves of `S`, who must be to move in `pos`: `pos` is the
    /// position of [`new`](Self::new) after one move of the other side, or any position
    /// (the counts are then taken afresh).
    #[inline(always)]
    pub(crate) fn count<S: Side, L: Sliders>(&self, pos: &Position) -> u64 {
        let b = Snapshot::new::<S>(pos);
        let mut counter = Counter(0);
        if b.checkers.any() || b.pinned != self.pinned {
            generate_from::<S, L, _>(pos, &b, &mut counter);
            return counter.0;
        }
        // Not in check, and the same pieces pinned: what the move did not touch moves as
        // it did. The rest as in `generate_from`.
        let lost = self.ours ^ b.ours;
        let changed = (self.occ ^ b.occ) | lost;
        let target = !b.ours;
        let leapers = king_moves::<S, L, _>(pos, &b, &mut counter);
        if (changed & self.pieces_watch).is_empty() && (lost & self.knight_zone).is_empty() {
            counter.0 += self.pieces;
        } else {
            let mut moves = Targets {
                visitor: &mut counter,
                target,
            };
            unpinned_pieces::<S, L, _>(pos, &b, &mut moves);
        }
        pinned_sliders::<S, L, _>(pos, &b, target, &mut counter);
        if (changed & self.pawns_watch).is_empty() {
            counter.0 += self.pawns;
        } else {
            let pawns = pos.colored(S::US, PieceType::Pawn) & !b.pinned;
            pawn_moves::<S, _>(pawns, b.occ, b.theirs, target, &mut counter);
        }
        pinned_pawns::<S, _>(pos, &b, target, &mut counter);
        if let Some(ep) = pos.en_passant() {
            en_passant::<S, L, _>(pos, ep, b.ksq, &mut counter);
        }
        if pos.castling().any(S::US) {
            castling::<S, L, _>(pos, &b, leapers, &mut counter);
        }
        counter.0
    }
}

/// Sums the pieces' moves and what they depend on, for [`PieceCount::new`].
struct Tally {
    free: Bitboard,
    total: u64,
    watch: Bitboard,
    knight_zone: Bitboard,
}

impl Attacks for Tally {
    #[inline(always)]
    fn attacks(&mut self, from: Square, attacks: Bitboard, slider: bool) {
        self.total += u64::from((attacks & self.free).count());
        self.watch |= Bitboard::from(from);
        if slider {
            self.watch |= attacks;
        } else {
            self.knight_zone |= attacks;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::Chosen;
    use crate::board::Color;
    use crate::movegen::{Black, White, count_legal, legal_moves};

    /// For every move of `fen`: the count reusing the position's [`PieceCount`] equals a
    /// fresh count after the move made in full.
    fn check(fen: &str) {
        let mut pos = Position::from_fen(fen).expect("valid FEN");
        let replies = match pos.side_to_move() {
            Color::White => PieceCount::new::<Black, Chosen>(&pos),
            Color::Black => PieceCount::new::<White, Chosen>(&pos),
        };
        for mv in legal_moves(&pos).iter().copied() {
            let undo = pos.make(mv);
            let expected = count_legal(&pos);
            pos.unmake(mv, &undo);
            let lite = pos.make_lite(mv);
            let counted = match pos.side_to_move() {
                Color::White => replies.count::<Black, Chosen>(&pos),
                Color::Black => replies.count::<White, Chosen>(&pos),
            };
            pos.unmake_lite(mv, &lite);
            assert_eq!(counted, expected, "replies to {mv:?} in {fen}");
        }
    }

    /// Every position of both perft suites, and every position one move from each.
    #[test]
    fn reused_counts_match_fresh_counts() {
        let suites = [
            include_str!("../../tests/data/standard.epd"),
            include_str!("../../tests/data/fischer.epd"),
        ];
        for line in suites.iter().flat_map(|suite| suite.lines()) {
            let Some(fen) = line.split(';').next().map(str::trim) else {
                continue;
            };
            if fen.is_empty() || fen.starts_with('#') {
                continue;
            }
            check(fen);
            let mut pos = Position::from_fen(fen).expect("valid FEN");
            for mv in legal_moves(&pos).iter().copied() {
                let undo = pos.make(mv);
                check(&pos.to_fen());
                pos.unmake(mv, &undo);
            }
        }
    }
}
