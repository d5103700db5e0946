//! `S`: a middlegame/endgame pair of centipawn values, blended by game phase.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A (middlegame, endgame) pair of centipawn values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl S {
    /// The value at `phase` (24 = full middlegame, 0 = bare endgame).
    #[inline]
    pub fn taper(self, phase: i32) -> i32 {
        (self.0 * phase + self.1 * (24 - phase)) / 24
    }
}

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}

impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}

impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}

impl SubAssign for S {
    #[inline]
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}

impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}
