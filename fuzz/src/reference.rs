//! An independent, deliberately simple move generator to check Rookling's against: a
//! mailbox board, pseudo-legal moves square by square, and each one kept only if, once
//! played, the mover's king is not attacked. It shares nothing with Rookling's
//! generator (no bitboards, no attack tables, no pin or check masks): it reads a
//! [`Position`] through its square array, side, castling rights and en passant square.

use rookling::board::{CastleSide, Color, Move, MoveKind, PieceType, Position, Square};

/// A move as the reference sees it (castling as king takes own rook, as Rookling stores
/// it, so the two can be compared directly).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RefMove {
    /// Square index the piece leaves (0 = a1).
    pub from: u8,
    /// Destination; the castling rook's square for castling.
    pub to: u8,
    /// The promotion piece.
    pub promotion: Option<PieceType>,
    /// An en passant capture.
    pub en_passant: bool,
    /// Castling.
    pub castling: bool,
}

impl RefMove {
    /// Rookling's move in the reference's terms.
    pub fn of(mv: Move) -> Self {
        Self {
            from: mv.from().index() as u8,
            to: mv.to().index() as u8,
            promotion: mv.promotion_piece(),
            en_passant: mv.kind() == MoveKind::EnPassant,
            castling: mv.kind() == MoveKind::Castling,
        }
    }

    fn plain(from: u8, to: u8) -> Self {
        Self {
            from,
            to,
            promotion: None,
            en_passant: false,
            castling: false,
        }
    }
}

/// A position as a plain mailbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The piece on each square (index 0 = a1).
    pub squares: [Option<(Color, PieceType)>; 64],
    /// The side to move.
    pub side: Color,
    /// The castling rook's square for each right held, by colour then side (king side
    /// first).
    pub rooks: [[Option<u8>; 2]; 2],
    /// The en passant square, kept (as Rookling does) only when a pawn of the side to
    /// move attacks it.
    pub en_passant: Option<u8>,
    /// Half-moves since the last capture or pawn move (saturating, as Rookling's).
    pub halfmove: u32,
    /// The full-move number, exact.
    pub fullmove: u64,
}

const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const ROOK: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const BISHOP: [(i8, i8); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

/// The square `(df, dr)` away from `sq`, if on the board.
fn step(sq: u8, (df, dr): (i8, i8)) -> Option<u8> {
    let file = (sq % 8) as i8 + df;
    let rank = (sq / 8) as i8 + dr;
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as u8)
}

/// Squares from `a` to `b` on one rank, both included.
fn span(a: u8, b: u8) -> impl Iterator<Item = u8> {
    a.min(b)..=a.max(b)
}

/// The pawn's forward direction.
fn forward(color: Color) -> i8 {
    if color == Color::White { 1 } else { -1 }
}

impl Board {
    /// The mailbox view of `pos`.
    pub fn of(pos: &Position) -> Self {
        let mut squares = [None; 64];
        for (i, square) in squares.iter_mut().enumerate() {
            let piece = pos.piece_on(Square::new(i as u8));
            if !piece.is_none() {
                *square = Some((piece.color(), piece.kind()));
            }
        }
        let mut rooks = [[None; 2]; 2];
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if pos.castling().has(color, side) {
                    rooks[color.index()][side as usize] =
                        Some(pos.castling().rook(color, side).index() as u8);
                }
            }
        }
        Self {
            squares,
            side: pos.side_to_move(),
            rooks,
            en_passant: pos.en_passant().map(|sq| sq.index() as u8),
            halfmove: pos.halfmove_clock(),
            fullmove: u64::from(pos.fullmove_number()),
        }
    }

    fn king(&self, color: Color) -> Option<u8> {
        (0..64).find(|&sq| self.squares[usize::from(sq)] == Some((color, PieceType::King)))
    }

    /// Whether a piece of `by` attacks `sq`.
    pub fn attacked(&self, sq: u8, by: Color) -> bool {
        let has = |s: Option<u8>, kinds: &[PieceType]| {
            s.and_then(|s| self.squares[usize::from(s)])
                .is_some_and(|(c, k)| c == by && kinds.contains(&k))
        };
        // A pawn of `by` attacks `sq` from one rank behind it (from `by`'s side).
        let back = -forward(by);
        if has(step(sq, (1, back)), &[PieceType::Pawn])
            || has(step(sq, (-1, back)), &[PieceType::Pawn])
        {
            return true;
        }
        if KNIGHT
            .iter()
            .any(|&d| has(step(sq, d), &[PieceType::Knight]))
            || KING.iter().any(|&d| has(step(sq, d), &[PieceType::King]))
        {
            return true;
        }
        let slider = |dirs: &[(i8, i8)], kinds: &[PieceType]| {
            dirs.iter().any(|&d| {
                let mut s = sq;
                while let Some(next) = step(s, d) {
                    match self.squares[usize::from(next)] {
                        None => s = next,
                        Some(_) => return has(Some(next), kinds),
                    }
                }
                false
            })
        };
        slider(&ROOK, &[PieceType::Rook, PieceType::Queen])
            || slider(&BISHOP, &[PieceType::Bishop, PieceType::Queen])
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.king(self.side)
            .is_some_and(|k| self.attacked(k, self.side.flip()))
    }

    /// Every move by the rules of how pieces move, before the own-king test.
    pub fn pseudo_moves(&self) -> Vec<RefMove> {
        let us = self.side;
        let mut moves = Vec::new();
        for from in 0..64u8 {
            let Some((color, kind)) = self.squares[usize::from(from)] else {
                continue;
            };
            if color != us {
                continue;
            }
            let free_or_enemy = |to: u8| self.squares[usize::from(to)].is_none_or(|(c, _)| c != us);
            match kind {
                PieceType::Pawn => self.pawn_moves(from, &mut moves),
                PieceType::Knight | PieceType::King => {
                    let deltas = if kind == PieceType::Knight {
                        &KNIGHT
                    } else {
                        &KING
                    };
                    for &d in deltas {
                        if let Some(to) = step(from, d).filter(|&to| free_or_enemy(to)) {
                            moves.push(RefMove::plain(from, to));
                        }
                    }
                }
                _ => {
                    let dirs: &[(i8, i8)] = match kind {
                        PieceType::Rook => &ROOK,
                        PieceType::Bishop => &BISHOP,
                        _ => &[ROOK, BISHOP].concat(),
                    };
                    for &d in dirs {
                        let mut s = from;
                        while let Some(to) = step(s, d) {
                            if !free_or_enemy(to) {
                                break;
                            }
                            moves.push(RefMove::plain(from, to));
                            if self.squares[usize::from(to)].is_some() {
                                break;
                            }
                            s = to;
                        }
                    }
                }
            }
        }
        self.castling_moves(&mut moves);
        moves
    }

    fn pawn_moves(&self, from: u8, moves: &mut Vec<RefMove>) {
        let us = self.side;
        let dir = forward(us);
        let last_rank = if us == Color::White { 7 } else { 0 };
        let start_rank = if us == Color::White { 1 } else { 6 };
        let mut push = |to: u8| {
            if to / 8 == last_rank {
                for piece in [
                    PieceType::Knight,
                    PieceType::Bishop,
                    PieceType::Rook,
                    PieceType::Queen,
                ] {
                    moves.push(RefMove {
                        promotion: Some(piece),
                        ..RefMove::plain(from, to)
                    });
                }
            } else {
                moves.push(RefMove::plain(from, to));
            }
        };
        if let Some(one) = step(from, (0, dir)).filter(|&s| self.squares[usize::from(s)].is_none())
        {
            push(one);
            if from / 8 == start_rank
                && let Some(two) =
                    step(one, (0, dir)).filter(|&s| self.squares[usize::from(s)].is_none())
            {
                push(two);
            }
        }
        let mut en_passant = None;
        for df in [-1, 1] {
            let Some(to) = step(from, (df, dir)) else {
                continue;
            };
            match self.squares[usize::from(to)] {
                Some((c, _)) if c != us => push(to),
                None if self.en_passant == Some(to) => en_passant = Some(to),
                _ => {}
            }
        }
        if let Some(to) = en_passant {
            moves.push(RefMove {
                en_passant: true,
                ..RefMove::plain(from, to)
            });
        }
    }

    /// Castling: the squares both pieces cross or reach are empty but for the two of
    /// them, and the king is not in check and crosses or reaches no attacked square
    /// (that it is not in check after the move is tested with every other move).
    fn castling_moves(&self, moves: &mut Vec<RefMove>) {
        let us = self.side;
        let Some(king) = self.king(us) else {
            return;
        };
        let back = king - king % 8;
        for (side, rook) in self.rooks[us.index()].iter().enumerate() {
            let Some(rook) = *rook else {
                continue;
            };
            let (king_to, rook_to) = if side == CastleSide::King as usize {
                (back + 6, back + 5)
            } else {
                (back + 2, back + 3)
            };
            let clear = span(king, king_to)
                .chain(span(rook, rook_to))
                .all(|s| s == king || s == rook || self.squares[usize::from(s)].is_none());
            let safe = span(king, king_to).all(|s| !self.attacked(s, us.flip()));
            if clear && safe {
                moves.push(RefMove {
                    castling: true,
                    ..RefMove::plain(king, rook)
                });
            }
        }
    }

    /// The board after `mv` (which must be one of [`Board::pseudo_moves`]).
    pub fn play(&self, mv: RefMove) -> Board {
        let mut next = self.clone();
        let us = self.side;
        let them = us.flip();
        let (from, to) = (usize::from(mv.from), usize::from(mv.to));
        let moving = self.squares[from];
        let captured = if mv.castling { None } else { self.squares[to] };
        next.en_passant = None;
        next.squares[from] = None;
        if mv.castling {
            let back = mv.from - mv.from % 8;
            let (king_to, rook_to) = if mv.to > mv.from {
                (back + 6, back + 5)
            } else {
                (back + 2, back + 3)
            };
            next.squares[to] = None;
            next.squares[usize::from(king_to)] = Some((us, PieceType::King));
            next.squares[usize::from(rook_to)] = Some((us, PieceType::Rook));
        } else if let Some(piece) = mv.promotion {
            next.squares[to] = Some((us, piece));
        } else {
            next.squares[to] = moving;
        }
        let pawn = moving.is_some_and(|(_, k)| k == PieceType::Pawn);
        if mv.en_passant {
            next.squares[usize::from(mv.to % 8 + mv.from / 8 * 8)] = None;
        }
        if pawn && mv.from.abs_diff(mv.to) == 16 {
            let ep = (mv.from + mv.to) / 2;
            let enemy_pawn_beside = [-1, 1].iter().any(|&df| {
                step(mv.to, (df, 0))
                    .is_some_and(|s| next.squares[usize::from(s)] == Some((them, PieceType::Pawn)))
            });
            if enemy_pawn_beside {
                next.en_passant = Some(ep);
            }
        }
        // Rights end when the king moves or a castling rook's square is left or taken.
        let king_moved = moving.is_some_and(|(_, k)| k == PieceType::King);
        for color in Color::ALL {
            for right in &mut next.rooks[color.index()] {
                let touched = right.is_some_and(|r| r == mv.from || r == mv.to);
                if touched || (king_moved && color == us) {
                    *right = None;
                }
            }
        }
        next.halfmove = if pawn || captured.is_some() || mv.en_passant {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        if us == Color::Black {
            next.fullmove += 1;
        }
        next.side = them;
        next
    }

    /// The legal moves: pseudo-legal moves that leave the mover's king unattacked.
    pub fn legal_moves(&self) -> Vec<RefMove> {
        let us = self.side;
        self.pseudo_moves()
            .into_iter()
            .filter(|&mv| {
                let next = self.play(mv);
                next.king(us).is_some_and(|k| !next.attacked(k, us.flip()))
            })
            .collect()
    }

    /// Perft by the reference (slow; for small depths).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&mv| self.play(mv).perft(depth - 1)).sum()
    }
}
