//! The engine options the web board offers, taken from the protocol crate's options table
//! (those marked for the web): described for the page, so that its controls get their ranges
//! from the table, and set from a message's field through the table, which checks them as it
//! does for UCI and XBoard.

use chimera_protocol::options::{self, Current, EngineOption, Front, OPTIONS};
use chimera_protocol::state::EngineState;
use serde_json::{json, Value};

/// `{"type":"options","list":[...]}`: each web option's name, kind (UCI's words), value and,
/// where it has them, range and choices.
pub fn describe(state: &EngineState) -> Value {
    let list: Vec<Value> = OPTIONS
        .iter()
        .filter(|o| o.listed_on(Front::Web))
        .map(|o| {
            let value = match o.current(state) {
                Current::Number(n) => json!(n),
                Current::Flag(on) => json!(on),
                Current::Text(t) => json!(t),
                Current::Nothing => Value::Null,
            };
            let mut entry = json!({ "name": o.name, "type": o.kind_name(), "value": value });
            if let Some((min, max)) = o.range() {
                entry["min"] = json!(min);
                entry["max"] = json!(max);
            }
            let choices = o.choices(state);
            if !choices.is_empty() {
                entry["choices"] = json!(choices);
            }
            entry
        })
        .collect();
    json!({ "type": "options", "list": list })
}

/// Sets `option` from the message field `key`, whose JSON type must fit the option's kind
/// (a number for a spin, true or false for a check, text otherwise); the table checks the
/// range. The web's options tell nothing beyond their value, which the state message shows,
/// so a setter's notes are not passed on.
pub fn set(
    state: &mut EngineState,
    option: &EngineOption,
    key: &str,
    value: &Value,
) -> Result<(), String> {
    let text = match (option.kind_name(), value) {
        ("spin", Value::Number(n)) => n.to_string(),
        ("check", Value::Bool(on)) => on.to_string(),
        ("string" | "combo", Value::String(s)) => s.clone(),
        ("button", _) => String::new(),
        (kind, _) => {
            let wanted = match kind {
                "spin" => "a whole number",
                "check" => "true or false",
                _ => "text",
            };
            return Err(format!("'{key}' must be {wanted}"));
        }
    };
    options::set(Front::Web, state, option.name, Some(&text), &mut Vec::new())
}
