//! The positions `hunt` tries: seeded, and rich in every rule a move generator can get
//! wrong. They come in turn from eight sources ([`Source`]): random games from the
//! start position and from Chess960 starts, and positions set up around one rule (en
//! passant, castling, Chess960 castling, promotion, pins, checks), each sometimes
//! followed by a few random moves. Every position is validated by Rookling's FEN
//! reader, so it is legal; at most two pieces give check, and a random game's side to
//! move has a move (a set-up may be mate: a generator that adds moves shows there).

use crate::attacks;
use crate::board::{Bitboard, Color, Move, MoveKind, Piece, PieceType, Position, Square};
use crate::movegen::legal_moves;
use crate::rng::Rng;
use std::fmt;

/// Where a position comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// An en passant square with pawns that may take, around pins and checks.
    EnPassant,
    /// Kings and rooks at home with castling rights, pieces in the way or attacking.
    Castling,
    /// A promotion square within reach, with captures and checks.
    Promotion,
    /// Pieces pinned to their king.
    Pins,
    /// The side to move in check, sometimes double.
    Checks,
    /// A random game from the start position.
    Game,
    /// A Chess960 start, thinned out, with castling rights.
    Chess960Castling,
    /// A random game from a Chess960 start.
    Chess960Game,
}

impl Source {
    /// Every source.
    #[cfg(test)]
    const ALL: [Source; 8] = [
        Source::EnPassant,
        Source::Castling,
        Source::Promotion,
        Source::Pins,
        Source::Checks,
        Source::Game,
        Source::Chess960Castling,
        Source::Chess960Game,
    ];

    /// The order the sources take turns in: en passant, castling, checks and Chess960
    /// castling twice as often as the others (their bugs need more luck: a pin along
    /// the rank, a rook taken at home, a double check with a piece that could answer
    /// one checker, a piece on a castling destination).
    const TURNS: [Source; 12] = [
        Source::EnPassant,
        Source::Castling,
        Source::Checks,
        Source::Promotion,
        Source::Chess960Castling,
        Source::Pins,
        Source::EnPassant,
        Source::Castling,
        Source::Checks,
        Source::Game,
        Source::Chess960Castling,
        Source::Chess960Game,
    ];

    /// Whether the positions are Chess960 ones.
    pub fn chess960(self) -> bool {
        matches!(self, Self::Chess960Castling | Self::Chess960Game)
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::EnPassant => "set up around en passant",
            Self::Castling => "set up around castling",
            Self::Promotion => "set up around promotion",
            Self::Pins => "set up around pins",
            Self::Checks => "set up around checks",
            Self::Game => "a random game",
            Self::Chess960Castling => "set up around Chess960 castling",
            Self::Chess960Game => "a random Chess960 game",
        })
    }
}

/// A seeded stream of positions.
pub struct Positions {
    rng: Rng,
    sources: Vec<Source>,
    turn: usize,
}

impl Positions {
    /// The positions of `seed`, from every source (the Chess960 ones only if
    /// `chess960`).
    pub fn new(seed: u64, chess960: bool) -> Self {
        Self {
            rng: Rng::new(seed),
            sources: Source::TURNS
                .into_iter()
                .filter(|s| chess960 || !s.chess960())
                .collect(),
            turn: 0,
        }
    }

    /// The next position and where it comes from.
    pub fn next_position(&mut self) -> (Position, Source) {
        let source = self.sources[self.turn % self.sources.len()];
        self.turn += 1;
        for _ in 0..200 {
            if let Some(pos) = self.attempt(source) {
                return (pos, source);
            }
        }
        // Set-ups almost always succeed within a few tries; a random game always does.
        (
            game(&mut self.rng, &Position::startpos(), 0, 40),
            Source::Game,
        )
    }

    /// One try at a position from `source`.
    fn attempt(&mut self, source: Source) -> Option<Position> {
        let rng = &mut self.rng;
        let pos = match source {
            Source::Game => return Some(game(rng, &Position::startpos(), 0, 60)),
            Source::Chess960Game => {
                let start = chess960_start(rng, false)?;
                return Some(game(rng, &start, 1, 30));
            }
            Source::EnPassant => en_passant(rng)?,
            Source::Castling => castling(rng)?,
            Source::Promotion => promotion(rng)?,
            Source::Pins => pins(rng)?,
            Source::Checks => checks(rng)?,
            Source::Chess960Castling => chess960_start(rng, true)?,
        };
        // En passant squares and checks last one move: those positions are kept as
        // set up; the others are sometimes played on.
        let plies = match source {
            Source::EnPassant | Source::Checks => 0,
            _ => *rng.pick(&[0, 0, 0, 1, 2])?,
        };
        let pos = game(rng, &pos, plies, plies);
        // A set-up may be mate or stalemate: a generator that adds moves shows there.
        (pos.checkers().count() <= 2).then_some(pos)
    }
}

/// `pos` after `min` to `max` random moves (fewer if the game ends), chosen half the
/// time among captures, checks, promotions, en passant and castling.
fn game(rng: &mut Rng, pos: &Position, min: usize, max: usize) -> Position {
    let mut pos = pos.clone();
    let plies = min + rng.below(max - min + 1);
    for _ in 0..plies {
        let moves: Vec<Move> = legal_moves(&pos).iter().copied().collect();
        let special: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| m.kind() != MoveKind::Normal || pos.is_capture(m) || pos.gives_check(m))
            .collect();
        let pick = match rng.chance(50) && !special.is_empty() {
            true => rng.pick(&special),
            false => rng.pick(&moves),
        };
        let Some(&mv) = pick else {
            break;
        };
        let before = pos.clone();
        pos.play(mv);
        if legal_moves(&pos).is_empty() {
            return before;
        }
    }
    pos
}

/// A board being set up, written out as a FEN.
struct Sketch {
    board: [Piece; 64],
    side: Color,
    castling: String,
    ep: Option<Square>,
}

impl Sketch {
    fn new(side: Color) -> Self {
        Self {
            board: [Piece::NONE; 64],
            side,
            castling: String::new(),
            ep: None,
        }
    }

    fn occupied(&self) -> Bitboard {
        let mut occ = Bitboard::EMPTY;
        for (i, p) in self.board.iter().enumerate() {
            if !p.is_none() {
                occ |= Bitboard::from(Square::new(i as u8));
            }
        }
        occ
    }

    fn is_empty(&self, sq: Square) -> bool {
        self.board[sq.index()].is_none()
    }

    /// Puts `piece` on `sq` if the square is empty (and a pawn is not on a back rank).
    fn put(&mut self, sq: Square, piece: Piece) -> bool {
        let back = sq.rank() == 0 || sq.rank() == 7;
        if !self.is_empty(sq) || (piece.kind() == PieceType::Pawn && back) {
            return false;
        }
        self.board[sq.index()] = piece;
        true
    }

    /// Puts `piece` on a random empty square of `allowed`.
    fn put_somewhere(&mut self, rng: &mut Rng, piece: Piece, allowed: Bitboard) -> Option<Square> {
        let mut free: Vec<Square> = (allowed & !self.occupied()).into_iter().collect();
        if piece.kind() == PieceType::Pawn {
            free.retain(|sq| sq.rank() != 0 && sq.rank() != 7);
        }
        let sq = *rng.pick(&free)?;
        self.put(sq, piece).then_some(sq)
    }

    /// `low` to `high` random pieces (no kings) of either colour on random empty
    /// squares.
    fn scatter(&mut self, rng: &mut Rng, low: usize, high: usize) {
        self.scatter_outside(rng, low, high, Bitboard::EMPTY);
    }

    /// Like [`Sketch::scatter`], leaving the squares of `keep` empty.
    fn scatter_outside(&mut self, rng: &mut Rng, low: usize, high: usize, keep: Bitboard) {
        const KINDS: [PieceType; 8] = [
            PieceType::Pawn,
            PieceType::Pawn,
            PieceType::Pawn,
            PieceType::Knight,
            PieceType::Bishop,
            PieceType::Rook,
            PieceType::Queen,
            PieceType::Knight,
        ];
        let n = low + rng.below(high - low + 1);
        for _ in 0..n {
            let color = any_color(rng);
            let kind = KINDS[rng.below(KINDS.len())];
            self.put_somewhere(rng, Piece::new(color, kind), !keep);
        }
    }

    /// Places the kings that are not on the board yet, anywhere.
    fn kings(&mut self, rng: &mut Rng) -> Option<()> {
        for color in [Color::White, Color::Black] {
            let king = Piece::new(color, PieceType::King);
            if !self.board.contains(&king) {
                self.put_somewhere(rng, king, Bitboard(!0))?;
            }
        }
        Some(())
    }

    fn fen(&self) -> String {
        let mut ranks = Vec::new();
        for rank in (0..8u8).rev() {
            let mut text = String::new();
            let mut empty = 0;
            for file in 0..8u8 {
                let piece = self.board[Square::from_coords(file, rank).index()];
                if piece.is_none() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                    empty = 0;
                }
                text.push(piece.char());
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            ranks.push(text);
        }
        let side = match self.side {
            Color::White => "w",
            Color::Black => "b",
        };
        let castling = match self.castling.is_empty() {
            true => "-".to_string(),
            false => self.castling.clone(),
        };
        let ep = self.ep.map_or("-".to_string(), |sq| sq.to_string());
        format!("{} {side} {castling} {ep} 0 1", ranks.join("/"))
    }

    /// The position, if Rookling accepts it as legal.
    fn position(&self) -> Option<Position> {
        Position::from_fen(&self.fen()).ok()
    }
}

/// A random colour.
fn any_color(rng: &mut Rng) -> Color {
    if rng.chance(50) {
        Color::White
    } else {
        Color::Black
    }
}

/// The square `file`, `rank` (0..8) seen from `us`: rank 0 is `us`'s back rank.
fn rel(us: Color, file: i8, rank: i8) -> Option<Square> {
    ((0..8).contains(&file) && (0..8).contains(&rank))
        .then(|| Square::from_coords(file as u8, rank as u8).relative(us))
}

/// The eight directions, as (file, rank) steps: rook directions first.
const DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The square `n` steps from `sq` in `dir`, if on the board.
fn step(sq: Square, dir: (i8, i8), n: i8) -> Option<Square> {
    let (f, r) = (sq.file() as i8 + dir.0 * n, sq.rank() as i8 + dir.1 * n);
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| Square::from_coords(f as u8, r as u8))
}

/// A slider of `color` that moves along `dir`: a rook or a queen straight, a bishop or
/// a queen diagonally.
fn slider(rng: &mut Rng, color: Color, dir: (i8, i8)) -> Piece {
    let straight = dir.0 == 0 || dir.1 == 0;
    let kind = match (straight, rng.chance(70)) {
        (true, true) => PieceType::Rook,
        (false, true) => PieceType::Bishop,
        _ => PieceType::Queen,
    };
    Piece::new(color, kind)
}

/// A line from `from` in `dir`: `near` steps to the first piece, `far` to the second,
/// every square between empty. The two squares, if they fit.
fn line(
    sketch: &Sketch,
    from: Square,
    dir: (i8, i8),
    near: i8,
    far: i8,
) -> Option<(Square, Square)> {
    let a = step(from, dir, near)?;
    let b = step(from, dir, far)?;
    let clear = (1..far)
        .filter(|&n| n != near)
        .all(|n| step(from, dir, n).is_some_and(|sq| sketch.is_empty(sq)));
    (clear && sketch.is_empty(a) && sketch.is_empty(b)).then_some((a, b))
}

/// En passant: the enemy pawn that has just pushed two squares, our pawn beside it, and
/// the capture tangled with the king: a pin along the rank (the capture would expose
/// the king), a check by the pushed pawn (the capture answers it), a check along a line
/// through the en passant square (the capture blocks it), or the taker pinned on its
/// file or a diagonal (the capture leaves the line, or goes along it).
fn en_passant(rng: &mut Rng) -> Option<Position> {
    let us = any_color(rng);
    let them = us.flip();
    let mut s = Sketch::new(us);
    let f = rng.below(8) as i8;
    let pushed = rel(us, f, 4)?;
    let ep = rel(us, f, 5)?;
    // The square the pawn came from stays empty: the FEN reader insists.
    let origin = rel(us, f, 6)?;
    s.put(pushed, Piece::new(them, PieceType::Pawn));
    s.ep = Some(ep);
    let sides: Vec<i8> = [-1i8, 1]
        .into_iter()
        .filter(|d| (0..8).contains(&(f + d)))
        .collect();
    let taker_file = f + *rng.pick(&sides)?;
    let taker = rel(us, taker_file, 4)?;
    s.put(taker, Piece::new(us, PieceType::Pawn));
    let king = Piece::new(us, PieceType::King);
    let variant = rng.below(100);
    if variant < 35 {
        // The king and an enemy rook or queen on the rank, the two pawns between.
        let (low, high) = (f.min(taker_file), f.max(taker_file));
        let left: Vec<i8> = (0..low).collect();
        let right: Vec<i8> = (high + 1..8).collect();
        let (kf, sf) = match rng.chance(50) {
            true => (*rng.pick(&left)?, *rng.pick(&right)?),
            false => (*rng.pick(&right)?, *rng.pick(&left)?),
        };
        s.put(rel(us, kf, 4)?, king);
        let kind = if rng.chance(70) {
            PieceType::Rook
        } else {
            PieceType::Queen
        };
        s.put(rel(us, sf, 4)?, Piece::new(them, kind));
        // Nothing else on the rank.
        let rank = Bitboard::rank(rel(us, 0, 4)?.rank());
        s.scatter_outside(
            rng,
            0,
            4,
            rank | Bitboard::from(origin) | Bitboard::from(ep),
        );
    } else {
        if variant < 52 {
            // The pushed pawn gives check.
            let kf = f + *rng.pick(&[-1i8, 1])?;
            if !s.put(rel(us, kf, 3)?, king) {
                return None;
            }
        } else if variant < 68 {
            // A check along a line through the en passant square.
            let dir = *rng.pick(&DIRECTIONS)?;
            let back = (-dir.0, -dir.1);
            let (a, b) = (1 + rng.below(2) as i8, 1 + rng.below(3) as i8);
            let (k, sniper) = (step(ep, dir, a)?, step(ep, back, b)?);
            let empty = |d, n| (1..n).all(|i| step(ep, d, i).is_some_and(|q| s.is_empty(q)));
            let apart = ![k, sniper].contains(&origin);
            if !(empty(dir, a) && empty(back, b) && apart && s.is_empty(sniper) && s.put(k, king)) {
                return None;
            }
            s.put(sniper, slider(rng, them, dir));
        } else {
            // Our taker pinned to our king by an enemy slider: on its file or on the
            // diagonal the capture leaves (the capture would expose the king), or on
            // the diagonal it captures along (the capture stays legal).
            let forward = match us {
                Color::White => 1,
                Color::Black => -1,
            };
            let along = (f - taker_file, forward);
            let across = (-along.0, forward);
            let dir = match rng.below(10) {
                0..=3 => *rng.pick(&[across, (-across.0, -across.1)])?,
                4..=6 => *rng.pick(&[(0, 1), (0, -1)])?,
                _ => *rng.pick(&[along, (-along.0, -along.1)])?,
            };
            let (near, far) = (1 + rng.below(3) as i8, 1 + rng.below(3) as i8);
            let toward = (-dir.0, -dir.1);
            let k = step(taker, toward, near)?;
            let sniper = step(taker, dir, far)?;
            let clear = (1..near).all(|n| step(taker, toward, n).is_some_and(|q| s.is_empty(q)))
                && (1..far).all(|n| step(taker, dir, n).is_some_and(|q| s.is_empty(q)));
            if !clear || [k, sniper].contains(&origin) || [k, sniper].contains(&ep) {
                return None;
            }
            if !s.put(k, king) {
                return None;
            }
            s.put(sniper, slider(rng, them, dir));
        }
        s.scatter_outside(rng, 0, 4, Bitboard::from(origin) | Bitboard::from(ep));
    }
    s.kings(rng)?;
    s.position()
}

/// A piece of `color` (of a random kind) on an empty square from which it attacks
/// `target`.
fn attacker(rng: &mut Rng, s: &mut Sketch, color: Color, target: Square) -> Option<Square> {
    let kind = *rng.pick(&[
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::Pawn,
    ])?;
    taker(rng, s, color, kind, target)
}

/// A `kind` of `color` on an empty square from which it attacks `target`.
fn taker(
    rng: &mut Rng,
    s: &mut Sketch,
    color: Color,
    kind: PieceType,
    target: Square,
) -> Option<Square> {
    let occ = s.occupied();
    let from = match kind {
        PieceType::Knight => attacks::knight(target),
        PieceType::Bishop => attacks::bishop(target, occ),
        PieceType::Rook => attacks::rook(target, occ),
        PieceType::Queen => attacks::queen(target, occ),
        _ => attacks::pawn(color.flip(), target),
    };
    s.put_somewhere(rng, Piece::new(color, kind), from)
}

/// Standard castling: kings and rooks at home, rights for most of them, a few pieces
/// on the back ranks, pieces of the side to move that can take an enemy rook at home
/// (whose right must then go), and pieces attacking the squares the kings stand on,
/// cross and reach.
fn castling(rng: &mut Rng) -> Option<Position> {
    let us = any_color(rng);
    let mut s = Sketch::new(us);
    let mut rights = String::new();
    for color in [Color::White, Color::Black] {
        s.put(rel(color, 4, 0)?, Piece::new(color, PieceType::King));
        for (file, letter) in [(7, 'k'), (0, 'q')] {
            if rng.chance(85) {
                s.put(rel(color, file, 0)?, Piece::new(color, PieceType::Rook));
                if rng.chance(90) {
                    rights.push(match color {
                        Color::White => letter.to_ascii_uppercase(),
                        Color::Black => letter,
                    });
                }
            }
        }
        for file in [1, 2, 3, 5, 6] {
            if rng.chance(12) {
                let kind = *rng.pick(&[PieceType::Knight, PieceType::Bishop, PieceType::Queen])?;
                s.put(rel(color, file, 0)?, Piece::new(color, kind));
            }
        }
    }
    s.castling = rights;
    // Takers of a rook at home, by the side to move: knights, bishops and pawns, which
    // leave the castling squares safe once they have taken.
    for _ in 0..1 + rng.below(2) {
        let corner = rel(us.flip(), *rng.pick(&[0i8, 7])?, 0)?;
        let kind = *rng.pick(&[
            PieceType::Knight,
            PieceType::Bishop,
            PieceType::Pawn,
            PieceType::Queen,
        ])?;
        taker(rng, &mut s, us, kind, corner);
    }
    // Attacks on the kings and on the squares they cross, by either side.
    for _ in 0..rng.below(3) {
        let color = any_color(rng);
        let file = *rng.pick(&[1i8, 2, 3, 4, 5, 6])?;
        let target = rel(color, file, 0)?;
        attacker(rng, &mut s, color.flip(), target);
    }
    s.scatter(rng, 0, 3);
    s.position()
}

/// A Chess960 start position (Scharnagl's rules: bishops on opposite colours, the king
/// between the rooks), with every castling right; `thin` empties most of the back rank
/// and some pawns, and adds attackers of the castling squares.
fn chess960_start(rng: &mut Rng, thin: bool) -> Option<Position> {
    let mut files = [PieceType::Pawn; 8];
    let mut free: Vec<usize> = (0..8).collect();
    let dark = 2 * rng.below(4);
    let light = 2 * rng.below(4) + 1;
    files[dark] = PieceType::Bishop;
    files[light] = PieceType::Bishop;
    free.retain(|&f| f != dark && f != light);
    for kind in [PieceType::Queen, PieceType::Knight, PieceType::Knight] {
        let i = rng.below(free.len());
        files[free.remove(i)] = kind;
    }
    files[free[0]] = PieceType::Rook;
    files[free[1]] = PieceType::King;
    files[free[2]] = PieceType::Rook;
    let mut s = Sketch::new(any_color(rng));
    let mut rights = String::new();
    for color in [Color::White, Color::Black] {
        for (file, &kind) in files.iter().enumerate() {
            let keep = !thin || matches!(kind, PieceType::King | PieceType::Rook) || rng.chance(40);
            if keep {
                s.put(rel(color, file as i8, 0)?, Piece::new(color, kind));
            }
            if kind == PieceType::Rook && (!thin || rng.chance(90)) {
                let letter = (b'a' + file as u8) as char;
                rights.push(match color {
                    Color::White => letter.to_ascii_uppercase(),
                    Color::Black => letter,
                });
            }
            if !thin || rng.chance(60) {
                s.put(
                    rel(color, file as i8, 1)?,
                    Piece::new(color, PieceType::Pawn),
                );
            }
        }
    }
    s.castling = rights;
    if thin {
        s.side = any_color(rng);
        for _ in 0..rng.below(3) {
            let color = any_color(rng);
            let target = rel(color, rng.below(8) as i8, 0)?;
            attacker(rng, &mut s, color.flip(), target);
        }
    } else {
        s.side = Color::White;
    }
    let mut pos = s.position()?;
    pos.set_chess960(true);
    Some(pos)
}

/// Promotions: our pawns on the seventh rank, enemy pieces on the eighth to take, the
/// enemy king often near (promotions that check), enemy pawns about to promote too.
fn promotion(rng: &mut Rng) -> Option<Position> {
    let us = any_color(rng);
    let them = us.flip();
    let mut s = Sketch::new(us);
    for _ in 0..1 + rng.below(3) {
        let sq = rel(us, rng.below(8) as i8, 6)?;
        s.put(sq, Piece::new(us, PieceType::Pawn));
    }
    for _ in 0..rng.below(4) {
        let kind = *rng.pick(&[
            PieceType::Knight,
            PieceType::Bishop,
            PieceType::Rook,
            PieceType::Queen,
        ])?;
        let sq = rel(us, rng.below(8) as i8, 7)?;
        s.put(sq, Piece::new(them, kind));
    }
    if rng.chance(60) {
        let near = Bitboard::rank(if us == Color::White { 7 } else { 0 })
            | Bitboard::rank(if us == Color::White { 5 } else { 2 });
        s.put_somewhere(rng, Piece::new(them, PieceType::King), near)?;
    }
    for _ in 0..rng.below(3) {
        let sq = rel(them, rng.below(8) as i8, 6)?;
        s.put(sq, Piece::new(them, PieceType::Pawn));
    }
    s.scatter(rng, 0, 3);
    s.kings(rng)?;
    s.position()
}

/// Pins: one or two of our pieces between our king and an enemy slider, sometimes
/// with the king in check as well.
fn pins(rng: &mut Rng) -> Option<Position> {
    let us = any_color(rng);
    let them = us.flip();
    let mut s = Sketch::new(us);
    let ksq = Square::new(rng.below(64) as u8);
    s.put(ksq, Piece::new(us, PieceType::King));
    for _ in 0..1 + rng.below(2) {
        let dir = *rng.pick(&DIRECTIONS)?;
        let near = 1 + rng.below(3) as i8;
        let far = near + 1 + rng.below(4) as i8;
        let Some((pinned, sniper)) = line(&s, ksq, dir, near, far) else {
            continue;
        };
        let kind = *rng.pick(&[
            PieceType::Pawn,
            PieceType::Knight,
            PieceType::Bishop,
            PieceType::Rook,
            PieceType::Queen,
        ])?;
        s.put(pinned, Piece::new(us, kind));
        s.put(sniper, slider(rng, them, dir));
    }
    if rng.chance(30) {
        attacker(rng, &mut s, them, ksq);
    }
    s.scatter(rng, 1, 5);
    s.kings(rng)?;
    s.position()
}

/// Checks: the side to move in check by one piece, or by two, with pieces of its own
/// that can capture each checker or block its line, and the squares behind the king
/// along a slider's line often empty (where the king must not step).
fn checks(rng: &mut Rng) -> Option<Position> {
    let us = any_color(rng);
    let them = us.flip();
    let mut s = Sketch::new(us);
    let ksq = Square::new(rng.below(64) as u8);
    s.put(ksq, Piece::new(us, PieceType::King));
    let mut checkers = Vec::new();
    let wanted = if rng.chance(60) { 2 } else { 1 };
    for _ in 0..8 {
        if checkers.len() == wanted {
            break;
        }
        if rng.chance(60) {
            let dir = *rng.pick(&DIRECTIONS)?;
            let far = 1 + rng.below(5) as i8;
            if let Some((_, sq)) = line(&s, ksq, dir, far, far) {
                s.put(sq, slider(rng, them, dir));
                checkers.push(sq);
            }
        } else if let Some(sq) = attacker(rng, &mut s, them, ksq) {
            checkers.push(sq);
        }
    }
    // Answers to each checker: a piece that takes it, one that blocks its line.
    for &checker in &checkers {
        attacker(rng, &mut s, us, checker);
        let between: Vec<Square> = attacks::between(ksq, checker).into_iter().collect();
        if let Some(&sq) = rng.pick(&between) {
            let kind = *rng.pick(&[PieceType::Knight, PieceType::Bishop, PieceType::Rook])?;
            taker(rng, &mut s, us, kind, sq);
        }
    }
    s.scatter(rng, 0, 3);
    s.kings(rng)?;
    s.position()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_source_gives_valid_positions() {
        let mut positions = Positions::new(42, true);
        let mut seen = Vec::new();
        for _ in 0..400 {
            let (pos, source) = positions.next_position();
            if matches!(source, Source::Game | Source::Chess960Game) {
                assert!(!legal_moves(&pos).is_empty(), "{}", pos.to_fen());
            }
            let again = Position::from_fen(&pos.to_fen()).expect("valid FEN");
            assert_eq!(again.to_fen(), pos.to_fen());
            assert_eq!(pos.is_chess960(), source.chess960() || pos.is_chess960());
            seen.push(source);
        }
        for source in Source::ALL {
            let n = seen.iter().filter(|&&s| s == source).count();
            let turns = Source::TURNS.iter().filter(|&&s| s == source).count();
            assert!(
                n >= 400 * turns / Source::TURNS.len() - 2,
                "{source}: {n} of 400"
            );
        }
    }

    #[test]
    fn seeded() {
        let fens = |seed| {
            let mut p = Positions::new(seed, true);
            (0..50)
                .map(|_| p.next_position().0.to_fen())
                .collect::<Vec<_>>()
        };
        assert_eq!(fens(1), fens(1));
        assert_ne!(fens(1), fens(2));
    }

    #[test]
    #[ignore = "prints statistics"]
    fn statistics() {
        let mut positions = Positions::new(11, true);
        let mut tally = std::collections::BTreeMap::<String, (usize, usize, usize)>::new();
        for _ in 0..4000 {
            let (pos, source) = positions.next_position();
            let e = tally.entry(source.to_string()).or_default();
            e.0 += 1;
            e.1 += usize::from(pos.checkers().more_than_one());
            e.2 += usize::from(pos.checkers().any());
        }
        println!("{tally:?}");
    }

    /// The rules each source is about do come up.
    #[test]
    fn rich_in_the_rules() {
        let mut positions = Positions::new(3, true);
        let (mut ep, mut castles, mut promotions, mut double, mut chess960) = (0, 0, 0, 0, 0);
        for _ in 0..800 {
            let (pos, _) = positions.next_position();
            let moves = legal_moves(&pos);
            ep += moves
                .iter()
                .filter(|m| m.kind() == MoveKind::EnPassant)
                .count();
            castles += moves
                .iter()
                .filter(|m| m.kind() == MoveKind::Castling)
                .count();
            promotions += moves
                .iter()
                .filter(|m| m.kind() == MoveKind::Promotion)
                .count();
            double += usize::from(pos.checkers().more_than_one());
            chess960 += usize::from(pos.is_chess960());
        }
        assert!(ep >= 40, "{ep} en passant captures");
        assert!(castles >= 60, "{castles} castling moves");
        assert!(promotions >= 200, "{promotions} promotions");
        assert!(double >= 10, "{double} double checks");
        assert!(chess960 >= 120, "{chess960} Chess960 positions");
    }

    /// The en passant set-ups include takers pinned off the rank (on a file or a
    /// diagonal the capture leaves), whose capture must be refused, and takers whose
    /// capture stays legal.
    #[test]
    fn en_passant_pins_off_the_rank() {
        let mut rng = Rng::new(5);
        let (mut refused, mut allowed) = (0, 0);
        for _ in 0..400 {
            let Some(pos) = en_passant(&mut rng) else {
                continue;
            };
            let Some(ep) = pos.en_passant() else {
                continue;
            };
            let us = pos.side_to_move();
            let takers = attacks::pawn(us.flip(), ep) & pos.colored(us, PieceType::Pawn);
            let king = pos.king(us);
            let taken = legal_moves(&pos)
                .iter()
                .any(|m| m.kind() == MoveKind::EnPassant);
            let off_rank = takers.into_iter().all(|t| t.rank() != king.rank());
            if takers.any() && off_rank && pos.checkers().is_empty() {
                match taken {
                    true => allowed += 1,
                    false => refused += 1,
                }
            }
        }
        assert!(
            refused >= 30,
            "{refused} captures refused for a pin off the rank"
        );
        assert!(allowed >= 8, "{allowed} captures allowed");
    }
}
