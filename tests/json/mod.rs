//! Just enough of JSON for the reference files under tests/data (objects, arrays, strings,
//! numbers), shared by the tests that read them.
#![allow(dead_code)]

/// A JSON value: just enough of JSON for the reference file.
#[derive(Clone, Debug)]
pub enum Json {
    Str(String),
    Num(f64),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
    Other,
}

impl Json {
    pub fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(fields) => fields
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v)
                .unwrap_or(&Json::Other),
            _ => &Json::Other,
        }
    }
    pub fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            _ => panic!("expected a string, found {self:?}"),
        }
    }
    pub fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(a) => a,
            _ => panic!("expected an array, found {self:?}"),
        }
    }
    pub fn obj(&self) -> &[(String, Json)] {
        match self {
            Json::Obj(o) => o,
            _ => panic!("expected an object, found {self:?}"),
        }
    }
}

/// A small recursive-descent JSON reader (the test data has no escapes beyond `\"`).
pub fn parse_json(text: &str) -> Json {
    fn ws(b: &[u8], i: &mut usize) {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    }
    fn value(b: &[u8], i: &mut usize) -> Json {
        ws(b, i);
        match b[*i] {
            b'"' => {
                *i += 1;
                let mut s = String::new();
                while b[*i] != b'"' {
                    if b[*i] == b'\\' {
                        *i += 1;
                    }
                    s.push(b[*i] as char);
                    *i += 1;
                }
                *i += 1;
                Json::Str(s)
            }
            b'[' => {
                *i += 1;
                let mut items = Vec::new();
                loop {
                    ws(b, i);
                    if b[*i] == b']' {
                        *i += 1;
                        return Json::Arr(items);
                    }
                    items.push(value(b, i));
                    ws(b, i);
                    if b[*i] == b',' {
                        *i += 1;
                    }
                }
            }
            b'{' => {
                *i += 1;
                let mut fields = Vec::new();
                loop {
                    ws(b, i);
                    if b[*i] == b'}' {
                        *i += 1;
                        return Json::Obj(fields);
                    }
                    let Json::Str(k) = value(b, i) else {
                        panic!("object key")
                    };
                    ws(b, i);
                    assert_eq!(b[*i], b':');
                    *i += 1;
                    fields.push((k, value(b, i)));
                    ws(b, i);
                    if b[*i] == b',' {
                        *i += 1;
                    }
                }
            }
            _ => {
                let start = *i;
                while *i < b.len()
                    && !matches!(b[*i], b',' | b']' | b'}')
                    && !b[*i].is_ascii_whitespace()
                {
                    *i += 1;
                }
                let t = std::str::from_utf8(&b[start..*i]).unwrap();
                t.parse().map(Json::Num).unwrap_or(Json::Other)
            }
        }
    }
    value(text.as_bytes(), &mut 0)
}
