//! `chimera serve`: a local web board for every variant Chimera plays. One module per job: the
//! command line and the listener (here), the HTTP side that hands out the embedded page and
//! upgrades to a WebSocket (`http`), one game per connection driven by JSON messages
//! (`session`), the position as the page sees it (`view`) and PGN in and out (`pgn`).
//!
//! Nothing is fetched at run time: the page's assets are compiled into the binary.

mod http;
mod pgn;
mod session;
mod view;

use std::io::Write;
use std::net::TcpListener;
use std::sync::Arc;

use chimera_engine::registry::Registry;

const USAGE: &str = "usage: chimera serve [--host H] [--port P] [--variants FILE]
  --host H         the address to listen on (127.0.0.1)
  --port P         the port (8080; 0 = any free port)
  --variants FILE  load extra variant definitions (repeatable)
The first line printed is the board's URL.";

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
struct Config {
    host: String,
    port: u16,
    variant_files: Vec<String>,
}

/// Reads the words after `serve`.
fn parse_args(args: &[String]) -> Result<Config, String> {
    let mut config = Config {
        host: "127.0.0.1".into(),
        port: 8080,
        variant_files: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(word) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match word.as_str() {
            "--host" => config.host = value("--host")?,
            "--port" => {
                let v = value("--port")?;
                config.port = v
                    .parse()
                    .map_err(|_| format!("--port {v}: not a port number (0-65535)"))?;
            }
            "--variants" => config.variant_files.push(value("--variants")?),
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    Ok(config)
}

/// `chimera serve ARGS`: listens until killed; returns the exit status on a startup error.
pub fn run(args: &[String]) -> i32 {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return 0;
    }
    let config = match parse_args(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}\n{USAGE}");
            return 2;
        }
    };
    let mut registry = Registry::new();
    for file in &config.variant_files {
        let report = registry.load_file(file);
        if !report.errors.is_empty() {
            // The good sections load; the bad ones are named and left out.
            eprintln!("{}", report.errors_text("\n"));
        }
    }
    let listener = match TcpListener::bind((config.host.as_str(), config.port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!(
                "error: cannot listen on {}:{}: {e}",
                config.host, config.port
            );
            return 1;
        }
    };
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    // The first line is the URL, for a person and for the tests that start the server.
    println!("http://{addr}/");
    let _ = std::io::stdout().flush();
    let registry = Arc::new(registry);
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let registry = registry.clone();
        let spawned = std::thread::Builder::new()
            .name("connection".into())
            .spawn(move || http::handle(stream, &registry));
        if let Err(e) = spawned {
            eprintln!("cannot start a connection thread: {e}");
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn arguments_are_read_and_checked() {
        let c = parse_args(&words("--port 0 --host 0.0.0.0 --variants a.ini")).unwrap();
        assert_eq!(c.port, 0);
        assert_eq!(c.host, "0.0.0.0");
        assert_eq!(c.variant_files, vec!["a.ini".to_string()]);
        assert_eq!(parse_args(&[]).unwrap().host, "127.0.0.1");
        assert!(parse_args(&words("--port 70000")).is_err());
        assert!(parse_args(&words("--port")).is_err());
        assert!(parse_args(&words("--bogus")).is_err());
    }
}
