//! Every number the evaluation uses, in one place (centipawns, middlegame/endgame).
//!
//! The values are Rookling's own: hand-set from general chess knowledge (material,
//! centralisation, pawn structure, king shelter), not copied from another engine.
//! The piece-square tables are built from a few shape rules ([`pst`]) rather than typed in.

use super::S;

/// All evaluation weights; [`WEIGHTS`] is the set the engine plays with.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Piece values by `PieceType` index (the king's is unused).
    pub material: [S; 6],
    /// Per-square bonus by piece type, from white's side (a1 = 0).
    pub pst: [[S; 64]; 6],
    /// Per reachable square (beyond a baseline) for knight, bishop, rook, queen.
    pub mobility: [S; 4],
    /// A passed pawn, by rank from its own side (0 = first rank).
    pub passed: [S; 8],
    /// A pawn with a friendly pawn beside it or defending it, by relative rank.
    pub connected: [S; 8],
    /// Each pawn with a friendly pawn ahead of it on its file.
    pub doubled: S,
    /// A pawn with no friendly pawn on the neighbouring files.
    pub isolated: S,
    /// Endgame bonus per square of distance between the enemy king and a passer's path,
    /// and malus per square of our king's distance (weighted by the passer's rank).
    pub passer_king_distance: (i32, i32),
    /// Both bishops.
    pub bishop_pair: S,
    /// A rook on a file without pawns.
    pub rook_open: S,
    /// A rook on a file without friendly pawns.
    pub rook_semi_open: S,
    /// A pawn on the second rank in front of (or beside) the king.
    pub shield_near: S,
    /// A pawn on the third rank in front of (or beside) the king.
    pub shield_far: S,
    /// A file next to or at the king with no friendly pawn.
    pub king_open_file: S,
    /// Attack units per square of the enemy king zone hit, by attacker (N, B, R, Q).
    pub king_attack: [i32; 4],
    /// A non-pawn piece attacked by an enemy pawn.
    pub pawn_threat: S,
    /// The side to move's bonus.
    pub tempo: S,
}

/// The weights the engine plays with.
pub static WEIGHTS: Weights = Weights {
    material: [
        S(82, 100),
        S(330, 300),
        S(345, 320),
        S(460, 530),
        S(960, 980),
        S(0, 0),
    ],
    pst: pst::ALL,
    mobility: [S(4, 4), S(5, 5), S(2, 4), S(1, 2)],
    passed: [
        S(0, 0),
        S(5, 10),
        S(8, 14),
        S(12, 22),
        S(25, 40),
        S(45, 65),
        S(70, 100),
        S(0, 0),
    ],
    connected: [
        S(0, 0),
        S(3, 0),
        S(5, 2),
        S(7, 4),
        S(12, 8),
        S(20, 15),
        S(35, 30),
        S(0, 0),
    ],
    doubled: S(-10, -18),
    isolated: S(-10, -10),
    passer_king_distance: (8, 4),
    bishop_pair: S(25, 50),
    rook_open: S(25, 8),
    rook_semi_open: S(12, 6),
    shield_near: S(12, 0),
    shield_far: S(6, 0),
    king_open_file: S(-15, 0),
    king_attack: [2, 2, 3, 5],
    pawn_threat: S(45, 30),
    tempo: S(12, 6),
};

/// Piece-square tables built from shape rules, from white's side (a1 = 0).
pub mod pst {
    use super::S;

    /// Distance from the board's edge towards the centre on files + ranks (0 to 6).
    const fn centre(sq: usize) -> i32 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let fc = if f < 4 { f } else { 7 - f };
        let rc = if r < 4 { r } else { 7 - r };
        fc + rc
    }

    const fn pawn(sq: usize) -> S {
        let (f, r) = (sq % 8, sq / 8);
        let advance_mg = [0, 0, 2, 6, 12, 20, 30, 0];
        let advance_eg = [0, 0, 5, 10, 18, 30, 45, 0];
        let central = f == 3 || f == 4;
        let mut mg = advance_mg[r];
        if central && (r == 3 || r == 4) {
            mg += 15;
        } else if central && r == 2 {
            mg += 5;
        } else if central && r == 1 {
            mg -= 10;
        }
        if r == 0 || r == 7 {
            return S(0, 0);
        }
        S(mg, advance_eg[r])
    }

    const fn knight(sq: usize) -> S {
        let c = centre(sq);
        let back = if sq / 8 == 0 { 5 } else { 0 };
        S(c * 7 - 22 - back, c * 5 - 15)
    }

    const fn bishop(sq: usize) -> S {
        let c = centre(sq);
        let back = if sq / 8 == 0 { 5 } else { 0 };
        S(c * 3 - 8 - back, c * 3 - 9)
    }

    const fn rook(sq: usize) -> S {
        let (f, r) = (sq % 8, sq / 8);
        let mut mg = if f == 3 || f == 4 { 5 } else { 0 };
        let mut eg = 0;
        if r == 6 {
            mg += 15;
            eg += 10;
        }
        S(mg, eg)
    }

    const fn queen(sq: usize) -> S {
        let c = centre(sq);
        S(c * 2 - 6, c * 4 - 12)
    }

    const fn king(sq: usize) -> S {
        let (f, r) = (sq % 8, sq / 8);
        let home = [15, 25, 10, -5, -5, 10, 25, 15];
        let second = [5, 5, -10, -20, -20, -10, 5, 5];
        let mg = match r {
            0 => home[f],
            1 => second[f],
            _ => -25 - 10 * (r as i32 - 2),
        };
        S(mg, centre(sq) * 7 - 21)
    }

    const fn table(kind: usize) -> [S; 64] {
        let mut t = [S(0, 0); 64];
        let mut sq = 0;
        while sq < 64 {
            t[sq] = match kind {
                0 => pawn(sq),
                1 => knight(sq),
                2 => bishop(sq),
                3 => rook(sq),
                4 => queen(sq),
                _ => king(sq),
            };
            sq += 1;
        }
        t
    }

    /// The six tables, pawn first.
    pub const ALL: [[S; 64]; 6] = [table(0), table(1), table(2), table(3), table(4), table(5)];
}

impl Weights {
    /// Every tunable number except the piece-square tables, in a fixed order (for the
    /// tuner): material, mobility, pawn terms, pieces, king terms, tempo.
    pub fn scalars_mut(&mut self) -> Vec<&mut i32> {
        fn pair<'a>(v: &mut Vec<&'a mut i32>, s: &'a mut S) {
            v.push(&mut s.0);
            v.push(&mut s.1);
        }
        let Weights {
            material,
            pst: _,
            mobility,
            passed,
            connected,
            doubled,
            isolated,
            passer_king_distance,
            bishop_pair,
            rook_open,
            rook_semi_open,
            shield_near,
            shield_far,
            king_open_file,
            king_attack,
            pawn_threat,
            tempo,
        } = self;
        let mut v = Vec::new();
        for s in material[..5].iter_mut() {
            pair(&mut v, s);
        }
        for s in mobility.iter_mut() {
            pair(&mut v, s);
        }
        for s in passed[1..7].iter_mut() {
            pair(&mut v, s);
        }
        for s in connected[1..7].iter_mut() {
            pair(&mut v, s);
        }
        for s in [
            doubled,
            isolated,
            bishop_pair,
            rook_open,
            rook_semi_open,
            shield_near,
            shield_far,
            king_open_file,
            pawn_threat,
            tempo,
        ] {
            pair(&mut v, s);
        }
        v.push(&mut passer_king_distance.0);
        v.push(&mut passer_king_distance.1);
        for k in king_attack.iter_mut() {
            v.push(k);
        }
        v
    }

    /// The weights as the Rust source of [`WEIGHTS`] (what the tuner prints).
    pub fn to_rust(&self) -> String {
        let s = |x: &S| format!("S({}, {})", x.0, x.1);
        let list = |xs: &[S]| xs.iter().map(s).collect::<Vec<_>>().join(", ");
        format!(
            "pub static WEIGHTS: Weights = Weights {{\n    material: [{}],\n    pst: pst::ALL,\n    \
             mobility: [{}],\n    passed: [{}],\n    connected: [{}],\n    doubled: {},\n    \
             isolated: {},\n    passer_king_distance: ({}, {}),\n    bishop_pair: {},\n    \
             rook_open: {},\n    rook_semi_open: {},\n    shield_near: {},\n    shield_far: {},\n    \
             king_open_file: {},\n    king_attack: {:?},\n    pawn_threat: {},\n    tempo: {},\n}};",
            list(&self.material),
            list(&self.mobility),
            list(&self.passed),
            list(&self.connected),
            s(&self.doubled),
            s(&self.isolated),
            self.passer_king_distance.0,
            self.passer_king_distance.1,
            s(&self.bishop_pair),
            s(&self.rook_open),
            s(&self.rook_semi_open),
            s(&self.shield_near),
            s(&self.shield_far),
            s(&self.king_open_file),
            self.king_attack,
            s(&self.pawn_threat),
            s(&self.tempo),
        )
    }
}
