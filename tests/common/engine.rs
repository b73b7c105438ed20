//! Drives the real binary through pipes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// A `shishi` process driven through pipes.
pub struct Engine {
    /// The process.
    pub child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts the binary.
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_shishi"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start shishi");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines }
    }
    /// Sends one line.
    pub fn send(&mut self, s: &str) {
        writeln!(self.stdin, "{s}").expect("write");
        self.stdin.flush().expect("flush");
    }
    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no '{prefix}' within {timeout:?}; got {out:?}"));
            let done = line.starts_with(prefix);
            out.push(line);
            if done {
                return out;
            }
        }
    }
    /// Waits for readyok.
    pub fn ready(&mut self) {
        self.send("isready");
        self.until("readyok", Duration::from_secs(5));
    }
}

/// The move of the `bestmove` line that ends `lines` (as `Engine::until("bestmove", …)` returns them).
pub fn best_move(lines: &[String]) -> String {
    lines.last().expect("bestmove").split_whitespace().nth(1).expect("move").to_string()
}

/// The value that follows the word `key` in an `info` line (`nodes`, `cp`, …), if it parses.
pub fn info_field<T: std::str::FromStr>(line: &str, key: &str) -> Option<T> {
    line.split_whitespace().skip_while(|w| *w != key).nth(1).and_then(|v| v.parse().ok())
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}
