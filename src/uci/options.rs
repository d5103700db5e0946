//! The UCI options: their declarations (printed for `uci`), their values, and
//! `setoption` checking (names case-insensitive, as in Stockfish). A tuning build
//! (cargo feature `tune`) adds one `spin` option per search parameter
//! ([`crate::search::params`]), named as its constant.

use crate::search::{MAX_MULTIPV, Skill, Syzygy, skill};
use std::fmt;

/// What kind of value an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// An integer in `min..=max`.
    Spin { default: u64, min: u64, max: u64 },
    /// `true` or `false`.
    Check { default: bool },
    /// Any text (`<empty>` for none, as Stockfish writes it).
    Text { default: &'static str },
    /// No value: setting it does something.
    Button,
}

/// Which option a declaration is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Id {
    Threads,
    Hash,
    ClearHash,
    Ponder,
    MultiPv,
    SkillLevel,
    MoveOverhead,
    Chess960,
    LimitStrength,
    Elo,
    ShowWdl,
    PerftHash,
    SyzygyPath,
    SyzygyProbeDepth,
    Syzygy50MoveRule,
    SyzygyProbeLimit,
    EvalFile,
}

/// One declared option.
struct Spec {
    id: Id,
    name: &'static str,
    kind: Kind,
}

/// Every option, in the order `uci` lists them (Stockfish's order for those it has).
const SPECS: [Spec; 17] = [
    Spec {
        id: Id::Threads,
        name: "Threads",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 1024,
        },
    },
    Spec {
        id: Id::Hash,
        name: "Hash",
        kind: Kind::Spin {
            default: 16,
            min: 1,
            max: 33_554_432,
        },
    },
    Spec {
        id: Id::ClearHash,
        name: "Clear Hash",
        kind: Kind::Button,
    },
    Spec {
        id: Id::Ponder,
        name: "Ponder",
        kind: Kind::Check { default: false },
    },
    Spec {
        id: Id::MultiPv,
        name: "MultiPV",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV as u64,
        },
    },
    Spec {
        id: Id::SkillLevel,
        name: "Skill Level",
        kind: Kind::Spin {
            default: skill::MAX_LEVEL as u64,
            min: 0,
            max: skill::MAX_LEVEL as u64,
        },
    },
    Spec {
        id: Id::MoveOverhead,
        name: "Move Overhead",
        kind: Kind::Spin {
            default: crate::search::time::DEFAULT_MOVE_OVERHEAD_MS,
            min: 0,
            max: 5000,
        },
    },
    Spec {
        id: Id::Chess960,
        name: "UCI_Chess960",
        kind: Kind::Check { default: false },
    },
    Spec {
        id: Id::LimitStrength,
        name: "UCI_LimitStrength",
        kind: Kind::Check { default: false },
    },
    Spec {
        id: Id::Elo,
        name: "UCI_Elo",
        kind: Kind::Spin {
            default: skill::MIN_ELO as u64,
            min: skill::MIN_ELO as u64,
            max: skill::MAX_ELO as u64,
        },
    },
    Spec {
        id: Id::ShowWdl,
        name: "UCI_ShowWDL",
        kind: Kind::Check { default: false },
    },
    Spec {
        id: Id::PerftHash,
        name: "PerftHash",
        kind: Kind::Spin {
            default: 0,
            min: 0,
            max: 65_536,
        },
    },
    Spec {
        id: Id::SyzygyPath,
        name: "SyzygyPath",
        kind: Kind::Text { default: "<empty>" },
    },
    Spec {
        id: Id::SyzygyProbeDepth,
        name: "SyzygyProbeDepth",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 100,
        },
    },
    Spec {
        id: Id::Syzygy50MoveRule,
        name: "Syzygy50MoveRule",
        kind: Kind::Check { default: true },
    },
    Spec {
        id: Id::SyzygyProbeLimit,
        name: "SyzygyProbeLimit",
        kind: Kind::Spin {
            default: crate::syzygy::files::MAX_PIECES as u64,
            min: 0,
            max: crate::syzygy::files::MAX_PIECES as u64,
        },
    },
    Spec {
        id: Id::EvalFile,
        name: "EvalFile",
        kind: Kind::Text { default: BUILT_IN },
    },
];

/// `EvalFile`'s default and the value that asks for the built-in network.
const BUILT_IN: &str = "<built-in>";

/// The network `EvalFile` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalFile {
    /// The one built into the binary: no value, an empty one, `<built-in>`, or
    /// `<empty>` (what some GUIs send for an emptied text field), any case.
    BuiltIn,
    /// The network file at this path, as given (relative to the working directory).
    File(String),
}

impl EvalFile {
    /// The network `EvalFile` value `text` (trimmed) asks for.
    fn parse(text: &str) -> Self {
        let text = text.trim();
        if text.is_empty()
            || text.eq_ignore_ascii_case(BUILT_IN)
            || text.eq_ignore_ascii_case("<empty>")
        {
            Self::BuiltIn
        } else {
            Self::File(text.to_string())
        }
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match self.kind {
            Kind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            Kind::Check { default } => write!(f, "check default {default}"),
            Kind::Text { default } => write!(f, "string default {default}"),
            Kind::Button => write!(f, "button"),
        }
    }
}

/// The `option ...` lines `uci` prints.
pub fn declarations() -> Vec<String> {
    let options = SPECS.iter().map(|s| s.to_string());
    #[cfg(feature = "tune")]
    let options = options.chain(crate::search::params::TABLE.iter().map(|p| {
        let (name, default, min, max) = (p.name, p.default, p.min, p.max);
        format!("option name {name} type spin default {default} min {min} max {max}")
    }));
    options.collect()
}

/// The current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `Threads`: search and perft threads.
    pub threads: usize,
    /// `Hash`: search hash table, MB.
    pub hash_mb: usize,
    /// `Ponder`: whether the GUI may let us ponder (informative).
    pub ponder: bool,
    /// `Move Overhead`, ms.
    pub move_overhead_ms: u64,
    /// `UCI_Chess960`: castling spelled king-takes-rook.
    pub chess960: bool,
    /// `PerftHash`: perft hash table, MB (0 = none).
    pub perft_hash_mb: usize,
    /// `MultiPV`: lines a search reports.
    pub multipv: usize,
    /// `Skill Level`, 0 to 20.
    pub skill_level: u32,
    /// `UCI_LimitStrength`: play at `UCI_Elo` (it then overrides `Skill Level`).
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub elo: u32,
    /// `UCI_ShowWDL`: win/draw/loss chances on score lines.
    pub show_wdl: bool,
    /// `SyzygyPath`: the tablebases' directories, as given (`<empty>` for none).
    pub syzygy_path: String,
    /// `SyzygyProbeDepth`, `Syzygy50MoveRule`, `SyzygyProbeLimit`.
    pub syzygy: Syzygy,
}

impl Default for Options {
    fn default() -> Self {
        let spin = |id| match SPECS.iter().find(|s| s.id == id).map(|s| s.kind) {
            Some(Kind::Spin { default, .. }) => default,
            _ => 0,
        };
        Self {
            threads: spin(Id::Threads) as usize,
            hash_mb: spin(Id::Hash) as usize,
            ponder: false,
            move_overhead_ms: spin(Id::MoveOverhead),
            chess960: false,
            perft_hash_mb: spin(Id::PerftHash) as usize,
            multipv: spin(Id::MultiPv) as usize,
            skill_level: spin(Id::SkillLevel) as u32,
            limit_strength: false,
            elo: spin(Id::Elo) as u32,
            show_wdl: false,
            syzygy_path: "<empty>".to_string(),
            syzygy: Syzygy {
                probe_depth: spin(Id::SyzygyProbeDepth) as i32,
                probe_limit: spin(Id::SyzygyProbeLimit) as u32,
                rule50: true,
            },
        }
    }
}

/// What a successful `setoption` asks the engine to do besides storing the value.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Nothing more.
    None,
    /// Resize the search hash table.
    Hash(usize),
    /// Change the number of search threads.
    Threads(usize),
    /// Change the move overhead.
    MoveOverhead(u64),
    /// Clear the search's memory.
    ClearHash,
    /// Switch the current position's castling spelling.
    Chess960(bool),
    /// Make the perft hash table of this many MB ready (0: none).
    PerftHash(usize),
    /// Change the number of lines a search reports.
    MultiPv(usize),
    /// Change the playing strength.
    Skill(Skill),
    /// Show or hide win/draw/loss chances.
    ShowWdl(bool),
    /// Load the tablebases in these directories (empty or `<empty>`: none).
    SyzygyPath(String),
    /// Use the tablebases so.
    Syzygy(Syzygy),
    /// Load this network for `eval` and the searches from now on (the network itself,
    /// once loaded, is the option's state: [`crate::nnue::set_network`]).
    EvalFile(EvalFile),
}

/// Why a `setoption` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has that name.
    Unknown(String),
    /// A spin or check option without `value`.
    MissingValue(&'static str),
    /// A value that is not of the option's type or outside its range.
    BadValue {
        /// The option.
        name: &'static str,
        /// The value as given.
        value: String,
        /// What it must be.
        expected: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unknown(name) => write!(f, "no such option: '{name}'"),
            Self::MissingValue(name) => write!(f, "option {name} needs a value"),
            Self::BadValue {
                name,
                value,
                expected,
            } => write!(
                f,
                "option {name}: '{value}' is not {expected}, value unchanged"
            ),
        }
    }
}

impl std::error::Error for OptionError {}

impl Options {
    /// Applies `setoption name <name> [value <value>]`; on error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, OptionError> {
        let name = name.trim();
        let value = value.map(str::trim);
        let Some(spec) = SPECS.iter().find(|s| s.name.eq_ignore_ascii_case(name)) else {
            #[cfg(feature = "tune")]
            if let Some(row) = crate::search::params::find(name) {
                return set_param(row, value).map(|()| Effect::None);
            }
            return Err(OptionError::Unknown(super::preparse::quote(name)));
        };
        let bad = |value: &str, expected: String| OptionError::BadValue {
            name: spec.name,
            value: super::preparse::quote(value),
            expected,
        };
        match spec.kind {
            Kind::Button => Ok(self.apply(spec.id, 0)),
            // A text option without a value is empty, as in Stockfish.
            Kind::Text { .. } => Ok(self.apply_text(spec.id, value.unwrap_or(""))),
            Kind::Spin { min, max, .. } => {
                let value = value.ok_or(OptionError::MissingValue(spec.name))?;
                let expected = || format!("a whole number from {min} to {max}");
                let n: u64 = value.parse().map_err(|_| bad(value, expected()))?;
                if !(min..=max).contains(&n) {
                    return Err(bad(value, expected()));
                }
                Ok(self.apply(spec.id, n))
            }
            Kind::Check { .. } => {
                let value = value.ok_or(OptionError::MissingValue(spec.name))?;
                let on = if value.eq_ignore_ascii_case("true") {
                    true
                } else if value.eq_ignore_ascii_case("false") {
                    false
                } else {
                    return Err(bad(value, "true or false".into()));
                };
                Ok(self.apply(spec.id, on as u64))
            }
        }
    }

    /// Stores a text value; the effect it has.
    fn apply_text(&mut self, id: Id, text: &str) -> Effect {
        match id {
            Id::SyzygyPath => {
                self.syzygy_path = text.to_string();
                Effect::SyzygyPath(self.syzygy_path.clone())
            }
            Id::EvalFile => Effect::EvalFile(EvalFile::parse(text)),
            _ => Effect::None,
        }
    }

    /// Stores a checked value; the effect it has.
    fn apply(&mut self, id: Id, n: u64) -> Effect {
        match id {
            Id::Threads => {
                self.threads = n as usize;
                Effect::Threads(self.threads)
            }
            Id::Hash => {
                self.hash_mb = n as usize;
                Effect::Hash(self.hash_mb)
            }
            Id::ClearHash => Effect::ClearHash,
            Id::Ponder => {
                self.ponder = n != 0;
                Effect::None
            }
            Id::MoveOverhead => {
                self.move_overhead_ms = n;
                Effect::MoveOverhead(n)
            }
            Id::Chess960 => {
                self.chess960 = n != 0;
                Effect::Chess960(self.chess960)
            }
            Id::PerftHash => {
                self.perft_hash_mb = n as usize;
                Effect::PerftHash(self.perft_hash_mb)
            }
            Id::MultiPv => {
                self.multipv = n as usize;
                Effect::MultiPv(self.multipv)
            }
            Id::SkillLevel => {
                self.skill_level = n as u32;
                Effect::Skill(self.skill())
            }
            Id::LimitStrength => {
                self.limit_strength = n != 0;
                Effect::Skill(self.skill())
            }
            Id::Elo => {
                self.elo = n as u32;
                Effect::Skill(self.skill())
            }
            Id::ShowWdl => {
                self.show_wdl = n != 0;
                Effect::ShowWdl(self.show_wdl)
            }
            Id::SyzygyProbeDepth => {
                self.syzygy.probe_depth = n as i32;
                Effect::Syzygy(self.syzygy)
            }
            Id::Syzygy50MoveRule => {
                self.syzygy.rule50 = n != 0;
                Effect::Syzygy(self.syzygy)
            }
            Id::SyzygyProbeLimit => {
                self.syzygy.probe_limit = n as u32;
                Effect::Syzygy(self.syzygy)
            }
            Id::SyzygyPath | Id::EvalFile => Effect::None,
        }
    }

    /// The playing strength the options ask for: `UCI_Elo` when `UCI_LimitStrength`
    /// is on, else `Skill Level` (as in Stockfish).
    pub fn skill(&self) -> Skill {
        if self.limit_strength {
            Skill::from_elo(self.elo)
        } else {
            Skill::from_level(self.skill_level)
        }
    }
}

/// `setoption` for search parameter `row` in a tuning build: the value is checked
/// against the parameter's range and read by the searches that start from now on.
#[cfg(feature = "tune")]
fn set_param(row: usize, value: Option<&str>) -> Result<(), OptionError> {
    let param = &crate::search::params::TABLE[row];
    let value = value.ok_or(OptionError::MissingValue(param.name))?;
    let range = param.min..=param.max;
    match value.parse::<i32>() {
        Ok(n) if range.contains(&n) => {
            crate::search::params::set(row, n);
            Ok(())
        }
        _ => Err(OptionError::BadValue {
            name: param.name,
            value: super::preparse::quote(value),
            expected: format!("a whole number from {} to {}", param.min, param.max),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_uci() {
        let lines = declarations();
        assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 33554432".into()));
        assert!(lines.contains(&"option name Clear Hash type button".into()));
        assert!(lines.contains(&"option name UCI_Chess960 type check default false".into()));
        assert!(
            lines.contains(&"option name PerftHash type spin default 0 min 0 max 65536".into())
        );
    }

    #[test]
    fn ranges_and_names() {
        let mut o = Options::default();
        assert_eq!(o.set("hash", Some("64")), Ok(Effect::Hash(64)));
        assert_eq!(o.hash_mb, 64);
        assert!(o.set("Hash", Some("0")).is_err());
        assert!(o.set("Hash", Some("33554433")).is_err());
        assert!(o.set("Hash", Some("-1")).is_err());
        assert!(o.set("Hash", Some("12abc")).is_err());
        assert!(o.set("Hash", None).is_err());
        assert_eq!(o.hash_mb, 64, "refused values change nothing");
        assert_eq!(
            o.set("move overhead", Some("100")),
            Ok(Effect::MoveOverhead(100))
        );
        assert_eq!(o.set("Clear Hash", None), Ok(Effect::ClearHash));
        assert_eq!(
            o.set("uci_chess960", Some("TRUE")),
            Ok(Effect::Chess960(true))
        );
        assert!(o.set("UCI_Chess960", Some("yes")).is_err());
        assert!(o.chess960);
        assert!(matches!(
            o.set("Skill", Some("3")),
            Err(OptionError::Unknown(_))
        ));
        assert_eq!(o.set("Threads", Some("1024")), Ok(Effect::Threads(1024)));
        assert!(o.set("Threads", Some("1025")).is_err());
        assert_eq!(
            o.set("PerftHash", Some("65536")),
            Ok(Effect::PerftHash(65536))
        );
        assert_eq!(o.perft_hash_mb, 65536);
    }

    #[test]
    fn strength_options_share_one_skill() {
        let mut o = Options::default();
        assert_eq!(o.skill(), Skill::FULL);
        assert_eq!(o.set("multipv", Some("3")), Ok(Effect::MultiPv(3)));
        assert!(o.set("MultiPV", Some("0")).is_err());
        assert!(o.set("MultiPV", Some("257")).is_err());
        assert_eq!(
            o.set("Skill Level", Some("5")),
            Ok(Effect::Skill(Skill::from_level(5)))
        );
        assert_eq!(
            o.set("UCI_Elo", Some("1800")),
            Ok(Effect::Skill(Skill::from_level(5))),
            "UCI_Elo applies only with UCI_LimitStrength"
        );
        assert_eq!(
            o.set("UCI_LimitStrength", Some("true")),
            Ok(Effect::Skill(Skill::from_elo(1800)))
        );
        assert!(o.set("UCI_Elo", Some("1319")).is_err());
        assert!(o.set("UCI_Elo", Some("2401")).is_err());
        assert_eq!(o.elo, 1800);
        assert_eq!(
            o.set("UCI_ShowWDL", Some("true")),
            Ok(Effect::ShowWdl(true))
        );
        let lines = declarations();
        for line in [
            "option name MultiPV type spin default 1 min 1 max 256",
            "option name Skill Level type spin default 20 min 0 max 20",
            "option name UCI_LimitStrength type check default false",
            "option name UCI_Elo type spin default 1320 min 1320 max 2400",
            "option name UCI_ShowWDL type check default false",
        ] {
            assert!(lines.contains(&line.to_string()), "{line}");
        }
    }

    #[test]
    fn tablebase_options() {
        let lines = declarations();
        // Stockfish's tablebase options, declared as Stockfish declares them.
        for line in [
            "option name SyzygyPath type string default <empty>",
            "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
            "option name Syzygy50MoveRule type check default true",
            "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        ] {
            assert!(lines.contains(&line.to_string()), "{line}");
        }
        let mut o = Options::default();
        assert_eq!(
            o.set("syzygypath", Some("/a b/c:/d")),
            Ok(Effect::SyzygyPath("/a b/c:/d".into()))
        );
        assert_eq!(o.syzygy_path, "/a b/c:/d");
        assert_eq!(
            o.set("SyzygyPath", None),
            Ok(Effect::SyzygyPath(String::new()))
        );
        let expected = Syzygy {
            probe_depth: 5,
            ..Syzygy::default()
        };
        assert_eq!(
            o.set("SyzygyProbeDepth", Some("5")),
            Ok(Effect::Syzygy(expected))
        );
        assert!(o.set("SyzygyProbeDepth", Some("0")).is_err());
        assert!(o.set("SyzygyProbeLimit", Some("8")).is_err());
        assert!(o.set("Syzygy50MoveRule", Some("maybe")).is_err());
        assert_eq!(
            o.set("Syzygy50MoveRule", Some("false")),
            Ok(Effect::Syzygy(Syzygy {
                rule50: false,
                ..expected
            }))
        );
        assert_eq!(o.syzygy.probe_depth, 5, "refused values change nothing");
    }

    #[test]
    fn eval_file_values() {
        let lines = declarations();
        assert!(lines.contains(&"option name EvalFile type string default <built-in>".into()));
        assert_eq!(
            lines.last().map(String::as_str),
            Some("option name EvalFile type string default <built-in>"),
            "last, as in Stockfish"
        );
        let mut o = Options::default();
        let file = |path: &str| Ok(Effect::EvalFile(EvalFile::File(path.into())));
        assert_eq!(
            o.set("EvalFile", Some("nets/g9.nnue")),
            file("nets/g9.nnue")
        );
        assert_eq!(
            o.set("evalfile", Some("  /a b/My Net.nnue ")),
            file("/a b/My Net.nnue"),
            "trimmed, inner spaces and case kept"
        );
        assert_eq!(
            o.set("EVALFILE", Some("<Built-In>")),
            Ok(Effect::EvalFile(EvalFile::BuiltIn))
        );
        for value in [
            None,
            Some(""),
            Some("   "),
            Some("<built-in>"),
            Some("<empty>"),
        ] {
            assert_eq!(
                o.set("EvalFile", value),
                Ok(Effect::EvalFile(EvalFile::BuiltIn)),
                "{value:?}"
            );
        }
    }
}
