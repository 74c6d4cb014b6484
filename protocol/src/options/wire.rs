//! How each dialect announces an option: UCI's `option name ... type ...` line and XBoard's
//! `feature option="..."` line, both made from the table's entry and the value in effect.

use super::{EngineOption, Kind, TextForm};
use crate::state::EngineState;

/// UCI's line for `option`, with the value in `state` as its default (UCI writes an empty
/// string as `<empty>`).
pub fn uci_line(option: &EngineOption, state: &EngineState) -> String {
    let head = format!("option name {} type {}", option.name, option.kind_name());
    match option.kind {
        Kind::Spin { min, max, get, .. } => {
            format!("{head} default {} min {min} max {max}", get(state))
        }
        Kind::Check { get, .. } => format!("{head} default {}", get(state)),
        Kind::Text { get, .. } => {
            let value = get(state);
            let shown = if value.is_empty() { "<empty>" } else { &value };
            format!("{head} default {shown}")
        }
        Kind::Combo { choices, get, .. } => {
            let vars: String = choices(state).iter().map(|c| format!(" var {c}")).collect();
            format!("{head} default {}{vars}", get(state))
        }
        Kind::Button { .. } => head,
    }
}

/// XBoard's `feature option="..."` line for `option` (CECP's option feature), with the value
/// in `state`: a spin `NAME -spin VALUE MIN MAX`, a check `-check 0|1`, text as `-string`,
/// `-file` or `-path`, a combo `-combo A /// *B` (the star marks the value) and `-button`.
pub fn xboard_feature(option: &EngineOption, state: &EngineState) -> String {
    let name = option.name;
    let body = match option.kind {
        Kind::Spin { min, max, get, .. } => format!("{name} -spin {} {min} {max}", get(state)),
        Kind::Check { get, .. } => format!("{name} -check {}", u8::from(get(state))),
        Kind::Text { form, get, .. } => {
            let control = match form {
                TextForm::Plain => "string",
                TextForm::File => "file",
                TextForm::Path => "path",
            };
            format!("{name} -{control} {}", get(state))
        }
        Kind::Combo { choices, get, .. } => {
            let value = get(state);
            let marked: Vec<String> = choices(state)
                .into_iter()
                .map(|c| if c == value { format!("*{c}") } else { c })
                .collect();
            format!("{name} -combo {}", marked.join(" /// "))
        }
        Kind::Button { .. } => format!("{name} -button"),
    };
    format!("feature option=\"{body}\"")
}
