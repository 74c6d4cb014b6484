//! The engine's options, each declared once in the table (`table.rs`, [`OPTIONS`]): its name,
//! its kind and range, the fronts that offer it and what it sets. The dialects list the options
//! from the table (`wire.rs`) and set them through [`set`], so an option added there is
//! announced, read, range-checked and applied alike in UCI, in XBoard and, marked for it, on
//! the web board. `docs/options.md` shows how to add one.

mod table;
mod wire;

pub(crate) use table::{HASH, THREADS};
pub use table::{MULTIPV, OPTIONS, SKILL_LEVEL};
pub(crate) use wire::{uci_line, xboard_feature};

use crate::state::EngineState;

/// Lines of news a setter has for the GUI beyond "done" (the variants a file loaded, the
/// variant chosen), written by each dialect in its own form.
pub type Notes = Vec<String>;

/// Where options are set: one of the two GUI dialects, or the web board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Front {
    /// UCI's `setoption`.
    Uci,
    /// XBoard's `option NAME=VALUE`.
    Xboard,
    /// The web board's messages.
    Web,
}

/// The fronts an option is offered on, as a set; `UNLISTED` marks one that is accepted there
/// but left out of the announcements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fronts(u8);

impl Fronts {
    /// Offered in UCI.
    pub const UCI: Fronts = Fronts(1);
    /// Offered in XBoard.
    pub const XBOARD: Fronts = Fronts(2);
    /// Offered on the web board.
    pub const WEB: Fronts = Fronts(4);
    /// Accepted but not announced: GUIs send some UCI options unasked (`UCI_AnalyseMode`),
    /// and announcing them would put settings in the GUI's dialog that change nothing.
    pub const UNLISTED: Fronts = Fronts(8);

    /// Both sets.
    pub const fn and(self, other: Fronts) -> Fronts {
        Fronts(self.0 | other.0)
    }

    fn has(self, other: Fronts) -> bool {
        self.0 & other.0 == other.0
    }

    fn of(front: Front) -> Fronts {
        match front {
            Front::Uci => Fronts::UCI,
            Front::Xboard => Fronts::XBOARD,
            Front::Web => Fronts::WEB,
        }
    }
}

/// What a setter returns: `Err` with the reason when the state refuses the value (a table
/// size the machine cannot give, a file that is not a net), the option then keeping its value.
type Applied = Result<(), String>;

/// How a string option's value is shown in XBoard's dialog: a text field, or one with a
/// file or folder chooser (CECP's `-string`, `-file`, `-path`). UCI has strings only.
// Only `File` is in the table today; the others are there so that the next string option
// gets XBoard's right control by one word (the tests write them).
#[allow(dead_code)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TextForm {
    /// Any text.
    Plain,
    /// A file's path.
    File,
    /// A folder's path.
    Path,
}

/// An option's kind, with how to read its value in the state and how to set it. The value is
/// parsed and range-checked by [`set`] before the setter runs, so a setter only applies it.
pub(crate) enum Kind {
    /// A whole number in `min..=max`.
    Spin {
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
        /// The value in effect.
        get: fn(&EngineState) -> i64,
        /// Applies a value within the range.
        set: fn(&mut EngineState, i64) -> Applied,
    },
    /// On or off.
    Check {
        /// The value in effect.
        get: fn(&EngineState) -> bool,
        /// Applies a value.
        set: fn(&mut EngineState, bool) -> Applied,
    },
    /// Text; empty is written `<empty>` in UCI.
    Text {
        /// How XBoard shows it.
        form: TextForm,
        /// The value in effect.
        get: fn(&EngineState) -> String,
        /// Applies a value (trimmed; UCI's `<empty>` arrives as empty).
        set: fn(&mut EngineState, &str, &mut Notes) -> Applied,
    },
    /// One of a list. The setter judges the value, so that it may take names that are not
    /// listed (a variant's aliases).
    Combo {
        /// The choices offered, in order.
        choices: fn(&EngineState) -> Vec<String>,
        /// The value in effect.
        get: fn(&EngineState) -> String,
        /// Applies a value (trimmed).
        set: fn(&mut EngineState, &str, &mut Notes) -> Applied,
    },
    /// An action without a value.
    Button {
        /// Does it.
        press: fn(&mut EngineState),
    },
}

/// One engine option; [`OPTIONS`] holds them all.
pub struct EngineOption {
    /// Its name, as the GUIs show it (matched without regard to case).
    pub name: &'static str,
    /// Its kind, range and effect.
    pub(crate) kind: Kind,
    /// Where it is offered.
    pub(crate) fronts: Fronts,
}

/// The value an option has in the state, for a front that shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Current {
    /// A spin's value.
    Number(i64),
    /// A check's value.
    Flag(bool),
    /// A string's or a combo's value.
    Text(String),
    /// A button has none.
    Nothing,
}

impl EngineOption {
    /// Whether `front` accepts the option.
    pub fn offered_on(&self, front: Front) -> bool {
        self.fronts.has(Fronts::of(front))
    }

    /// Whether `front` announces the option (offered there and not `UNLISTED`).
    pub fn listed_on(&self, front: Front) -> bool {
        self.offered_on(front) && !self.fronts.has(Fronts::UNLISTED)
    }

    /// The kind's name as UCI writes it (`spin`, `check`, `string`, `combo`, `button`).
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            Kind::Spin { .. } => "spin",
            Kind::Check { .. } => "check",
            Kind::Text { .. } => "string",
            Kind::Combo { .. } => "combo",
            Kind::Button { .. } => "button",
        }
    }

    /// A spin's range.
    pub fn range(&self) -> Option<(i64, i64)> {
        match self.kind {
            Kind::Spin { min, max, .. } => Some((min, max)),
            _ => None,
        }
    }

    /// A combo's choices (none for other kinds).
    pub fn choices(&self, state: &EngineState) -> Vec<String> {
        match self.kind {
            Kind::Combo { choices, .. } => choices(state),
            _ => Vec::new(),
        }
    }

    /// The value in effect: what the dialects announce as the option's default, so that a
    /// GUI asking again (or an engine started with `--net`) sees what is set.
    pub fn current(&self, state: &EngineState) -> Current {
        match self.kind {
            Kind::Spin { get, .. } => Current::Number(get(state)),
            Kind::Check { get, .. } => Current::Flag(get(state)),
            Kind::Text { get, .. } | Kind::Combo { get, .. } => Current::Text(get(state)),
            Kind::Button { .. } => Current::Nothing,
        }
    }

    /// Sets a spin to `n` taken into its range: XBoard's `memory` and `cores` give the means
    /// of the whole machine, which the option takes up to its bounds. The state may still
    /// refuse (a table the machine cannot give).
    pub fn set_within_range(&self, state: &mut EngineState, n: u64) -> Result<(), String> {
        match self.kind {
            Kind::Spin { min, max, set, .. } => {
                let n = i64::try_from(n).unwrap_or(i64::MAX).clamp(min, max);
                set(state, n)
            }
            _ => Err(format!("option '{}' is not a number", self.name)),
        }
    }

    /// Reads `value` as this option's kind, checks it and applies it (`front` picks the words
    /// of the error that names the values a check takes).
    fn apply(
        &self,
        front: Front,
        state: &mut EngineState,
        value: Option<&str>,
        notes: &mut Notes,
    ) -> Result<(), String> {
        let name = self.name;
        let need = || {
            value
                .map(str::trim)
                .ok_or_else(|| format!("option '{name}' needs a value"))
        };
        match self.kind {
            Kind::Spin { min, max, set, .. } => {
                let v = need()?;
                let n = v
                    .parse::<i64>()
                    .ok()
                    .filter(|n| (min..=max).contains(n))
                    .ok_or_else(|| format!("bad value '{v}' for option '{name}' ({min}..{max})"))?;
                set(state, n)
            }
            Kind::Check { set, .. } => {
                let v = need()?;
                let on = match v.to_ascii_lowercase().as_str() {
                    "true" | "1" => true,
                    "false" | "0" => false,
                    _ => {
                        // Each dialect's own words for a check's values.
                        let words = match front {
                            Front::Xboard => "0 or 1",
                            Front::Uci | Front::Web => "true or false",
                        };
                        return Err(format!("bad value '{v}' for option '{name}' ({words})"));
                    }
                };
                set(state, on)
            }
            Kind::Text { set, .. } => {
                let v = need()?;
                set(state, if v == "<empty>" { "" } else { v }, notes)
            }
            Kind::Combo { set, .. } => set(state, need()?, notes),
            Kind::Button { press } => {
                press(state);
                Ok(())
            }
        }
    }
}

/// The option `name` (any case) if `front` offers it.
fn find(front: Front, name: &str) -> Option<&'static EngineOption> {
    OPTIONS
        .iter()
        .find(|o| o.offered_on(front) && o.name.eq_ignore_ascii_case(name.trim()))
}

/// Sets the option `name` to `value` as `front` gave them (text; none for a button): the
/// option must be offered on `front`, the value must be of its kind and in its range, and then
/// the state must take it. What the setter has to tell is added to `notes`, even when it
/// fails (a variant file that loaded some variants and not others). The error is the reason
/// alone; each front puts it in its own form.
pub fn set(
    front: Front,
    state: &mut EngineState,
    name: &str,
    value: Option<&str>,
    notes: &mut Notes,
) -> Result<(), String> {
    let option = find(front, name).ok_or_else(|| format!("unknown option '{name}'"))?;
    option.apply(front, state, value, notes)
}
