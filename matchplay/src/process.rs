//! One engine process: spawning it, writing command lines to its standard input, and reading
//! its output on a thread of its own so that the game loop can wait for a line with a
//! deadline. Each line is stamped with the moment it arrived, so the clock charges the engine
//! for its thinking and not for the time the referee took to look at the line. Dropping the
//! process kills it if it is still running.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// What the reader thread saw.
#[derive(Debug)]
enum Output {
    Line(String, Instant),
    Closed,
}

/// Why no line came.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadError {
    /// The deadline passed first.
    Timeout,
    /// The engine closed its output (exited or crashed).
    Closed,
}

/// A running engine.
pub struct EngineProcess {
    /// The name used in messages.
    pub name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Output>,
    closed: bool,
    /// Every line in and out goes to standard error when set (`--debug`).
    debug: bool,
}

/// Splits a command line into words; single or double quotes group words with spaces.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unbalanced quote in '{text}'"));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

impl EngineProcess {
    /// Starts `command` (program and arguments, split as by [`split_command`]) in `dir`.
    pub fn spawn(
        name: &str,
        command: &str,
        dir: Option<&str>,
        debug: bool,
    ) -> Result<EngineProcess, String> {
        let words = split_command(command)?;
        let (program, args) = words
            .split_first()
            .ok_or_else(|| format!("engine {name}: empty command"))?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(d) = dir {
            cmd.current_dir(d);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("engine {name}: cannot start '{command}': {e}"))?;
        let stdin = child.stdin.take();
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| format!("engine {name}: no output pipe"))?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        // Engines are not always clean UTF-8 (Sjaak prints colour codes).
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(Output::Line(line, Instant::now())).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = tx.send(Output::Closed);
        });
        Ok(EngineProcess {
            name: name.to_string(),
            child,
            stdin,
            lines: rx,
            closed: false,
            debug,
        })
    }

    /// Writes one line. A write to a dead engine fails; the caller sees that as a crash.
    pub fn send(&mut self, line: &str) -> Result<(), ReadError> {
        if self.debug {
            eprintln!("{} < {line}", self.name);
        }
        let stdin = self.stdin.as_mut().ok_or(ReadError::Closed)?;
        writeln!(stdin, "{line}")
            .and_then(|_| stdin.flush())
            .map_err(|_| ReadError::Closed)
    }

    /// The next line and when it arrived, waiting until `deadline` at most.
    pub fn read_line(&mut self, deadline: Instant) -> Result<(String, Instant), ReadError> {
        if self.closed {
            return Err(ReadError::Closed);
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Output::Line(l, at)) => {
                if self.debug {
                    eprintln!("{} > {l}", self.name);
                }
                Ok((l, at))
            }
            Ok(Output::Closed) | Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Err(ReadError::Closed)
            }
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
        }
    }

    /// Reads lines until one satisfies `done`, or the deadline passes.
    pub fn wait_for(
        &mut self,
        timeout: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<String, ReadError> {
        let deadline = Instant::now() + timeout;
        loop {
            let (line, _) = self.read_line(deadline)?;
            if done(&line) {
                return Ok(line);
            }
        }
    }

    /// Whether the process has exited.
    pub fn exited(&mut self) -> bool {
        self.closed || matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Sends `quit_line`, gives the engine `grace` to exit, then kills it.
    pub fn quit(&mut self, quit_line: &str, grace: Duration) {
        let _ = self.send(quit_line);
        self.stdin = None;
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Kills the process and reaps it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.closed = true;
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            self.kill();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_commands_with_quotes() {
        assert_eq!(
            split_command(r#"/bin/eng -x "a b" 'c d'e"#).unwrap(),
            vec!["/bin/eng", "-x", "a b", "c de"]
        );
        assert!(split_command("eng \"open").is_err());
        assert!(split_command("   ").unwrap().is_empty());
    }

    #[test]
    fn a_missing_program_is_an_error() {
        assert!(EngineProcess::spawn("x", "/nonexistent/engine", None, false).is_err());
    }
}
