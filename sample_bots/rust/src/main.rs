//! A Knockout Whist bot for the arena, protocol v1 (see `protocol/README.md`).
//!
//! * `bot` plays a session: JSON lines from the referee on stdin, replies
//!   on stdout, until `bye` or the end of input;
//! * `bot --eps E` plays a random legal move with probability E (0 to 1);
//! * `bot --roundtrip` parses each JSON line of stdin into the typed model
//!   and prints it back, one line each (a test of the model).
//!
//! The strategy lives in `src/strategy.rs` (the `arena_bot` library, with
//! the protocol types, the helpers and the greedy sample); this file only
//! does the talking.
//! stdout carries protocol lines only: log with `eprintln!`, never `println!`.

use std::collections::BTreeSet;
use std::io::{self, BufRead, BufWriter, Write};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;
use serde_json::{json, Value};

use arena_bot::protocol::{Message, MoveReply, Ready, Request, ToReferee};
use arena_bot::strategy::Strategy;

/// What the bot calls itself in `ready` (the arena shows its own name for it).
const NAME: &str = "rust-greedy";
const PROTOCOL: u32 = 1;
/// The largest `info` the arena keeps as sent (bytes of compact JSON); a
/// larger one is kept as `{"truncated": true, "bytes": N}`, never a fault.
const MAX_INFO_BYTES: usize = 4096;
/// Whether an `info` over [`MAX_INFO_BYTES`] was logged (once per process).
static WARNED_BIG_INFO: AtomicBool = AtomicBool::new(false);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let outcome = match args.as_slice() {
        [] => play(Strategy::new(0.0)).map_err(|e| e.to_string()),
        ["--roundtrip"] => roundtrip(),
        ["--eps", eps] => match eps.parse::<f64>() {
            Ok(eps) if (0.0..=1.0).contains(&eps) => {
                play(Strategy::new(eps)).map_err(|e| e.to_string())
            }
            _ => return usage(&format!("--eps takes a share from 0 to 1, not {eps:?}")),
        },
        _ => return usage(&format!("unknown arguments {args:?}")),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("bot: {message}");
            ExitCode::FAILURE
        }
    }
}

/// A command line the bot cannot run: one line on stderr, and exit status 2
/// (as every kit's bot, and Python's `argparse`, answer one).
fn usage(problem: &str) -> ExitCode {
    eprintln!("bot: {problem} (usage: bot [--eps E | --roundtrip])");
    ExitCode::from(2)
}

/// Plays a whole session: answers `hello` and every `request`, until `bye`
/// or the end of input. Everything else is news for [`Strategy::observe`].
fn play(mut strategy: Strategy) -> io::Result<()> {
    let mut input = io::stdin().lock();
    let mut out = io::stdout().lock();
    let mut ignored = BTreeSet::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(()); // end of input: the referee is gone
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let sent = match serde_json::from_slice::<Message>(&line) {
            Ok(Message::Hello(hello)) => {
                if hello.protocol != PROTOCOL {
                    eprintln!(
                        "bot: written for protocol {PROTOCOL}, got {}",
                        hello.protocol
                    );
                }
                send(&mut out, &ready())
            }
            Ok(Message::Request(request)) => match answer(&mut strategy, &request) {
                Some(reply) => send(&mut out, &reply),
                None => Ok(()),
            },
            Ok(Message::Bye) => return Ok(()),
            Ok(news) => {
                // A panic in observe costs nothing more: the next request is answered.
                if caught(|| strategy.observe(&news)).is_none() {
                    eprintln!("bot: observe() panicked on a message; playing on");
                }
                Ok(())
            }
            Err(error) => match recover(&line, &error, &mut ignored) {
                Some(reply) => send(&mut out, &reply),
                None => Ok(()),
            },
        };
        match sent {
            // The referee closed our stdout: nobody is listening any more.
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => return Ok(()),
            other => other?,
        }
    }
}

fn ready() -> ToReferee {
    ToReferee::Ready(Ready {
        name: NAME.to_owned(),
        version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        author: None,
    })
}

/// The reply to a request: the strategy's move (with its `info`, if any)
/// when it is legal, else the first legal move without `info` (the one the
/// arena itself would play for a faulted seat).
fn answer(strategy: &mut Strategy, request: &Request) -> Option<ToReferee> {
    let legal = &request.legal;
    let Some(&first) = legal.first() else {
        eprintln!(
            "bot: request {} has no legal move, cannot answer",
            request.id
        );
        return None;
    };
    // A panic in the strategy costs one move, not the game.
    let decided = match caught(|| strategy.choose(&request.state, legal, request)) {
        Some(decided) if legal.contains(&decided.chosen) => decided,
        Some(decided) => {
            let chosen = decided.chosen;
            eprintln!("bot: choose() returned {chosen}, not in legal; playing {first}");
            first.into()
        }
        None => {
            eprintln!("bot: choose() panicked; playing {first}");
            first.into()
        }
    };
    // No `info` key at all without info, never `"info": null`.
    let info = decided.info.filter(|info| !info.is_null());
    if let Some(info) = &info {
        let bytes = serde_json::to_vec(info).map_or(0, |text| text.len());
        if bytes > MAX_INFO_BYTES && !WARNED_BIG_INFO.swap(true, Ordering::Relaxed) {
            eprintln!("bot: an info of {bytes} bytes: the arena keeps only its size (at most {MAX_INFO_BYTES})");
        }
    }
    Some(ToReferee::Move(MoveReply {
        id: request.id,
        chosen: decided.chosen,
        info,
    }))
}

/// What `run` returned, or `None` if it panicked (the panic hook has logged
/// the panic on stderr by then): a bug in the strategy is caught here, for
/// `choose` and `observe` alike.
fn caught<T>(run: impl FnOnce() -> T) -> Option<T> {
    panic::catch_unwind(AssertUnwindSafe(run)).ok()
}

/// A line the typed model refused. A `request` still gets its first legal
/// move and a `hello` its `ready`, so that a referee newer than this model
/// costs no game; anything else is ignored (logged once per type).
fn recover(
    line: &[u8],
    error: &serde_json::Error,
    ignored: &mut BTreeSet<String>,
) -> Option<Value> {
    let end = line
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    let shown = String::from_utf8_lossy(&line[..end.min(200)]);
    let Ok(message) = serde_json::from_slice::<Value>(line) else {
        eprintln!("bot: ignoring a line that is not JSON ({error}): {shown}");
        return None;
    };
    match message.get("type").and_then(Value::as_str) {
        Some("request") => {
            let id = message.get("id").and_then(Value::as_i64);
            let first = message
                .get("legal")
                .and_then(|legal| legal.get(0))
                .and_then(Value::as_str);
            if let (Some(id), Some(first)) = (id, first) {
                eprintln!("bot: cannot read this request ({error}), playing {first}: {shown}");
                Some(json!({"type": "move", "id": id, "move": first}))
            } else {
                eprintln!("bot: a request without an id or a legal move ({error}): {shown}");
                None
            }
        }
        Some("hello") => {
            eprintln!("bot: cannot read hello ({error}), answering anyway");
            serde_json::to_value(ready()).ok()
        }
        // Protocol v1: ignore a message type you do not know (a later version's).
        Some(kind) => {
            if ignored.insert(kind.to_owned()) {
                eprintln!("bot: ignoring {kind} messages I cannot read ({error}), e.g. {shown}");
            }
            None
        }
        None => {
            eprintln!("bot: ignoring a line without a type: {shown}");
            None
        }
    }
}

/// Writes one reply line and flushes it: an unflushed reply is a late reply.
fn send(out: &mut impl Write, reply: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, reply)?;
    out.write_all(b"\n")?;
    out.flush()
}

/// `--roundtrip`: each line through the typed model and back, in order.
/// Stops at the first line that does not parse, with a non-zero exit.
fn roundtrip() -> Result<(), String> {
    let mut out = BufWriter::new(io::stdout().lock());
    let mut outcome = Ok(());
    for (index, line) in io::stdin().lock().lines().enumerate() {
        let echoed = line.map_err(|e| e.to_string()).and_then(|line| {
            if line.trim().is_empty() {
                return Ok(None);
            }
            echo(&line).map(Some).map_err(|e| {
                let shown: String = line.chars().take(200).collect();
                format!("{e}: {shown}")
            })
        });
        let written = match echoed {
            Ok(Some(text)) => writeln!(out, "{text}").map_err(|e| e.to_string()),
            Ok(None) => Ok(()),
            Err(error) => Err(error),
        };
        if let Err(error) = written {
            outcome = Err(format!("--roundtrip: line {}: {error}", index + 1));
            break;
        }
    }
    out.flush().map_err(|e| e.to_string())?;
    outcome
}

/// One message parsed into the typed model (by its `type`: `ready` and
/// `move` are the bot's replies, the rest come from the referee), printed back.
fn echo(line: &str) -> serde_json::Result<String> {
    let message: Value = serde_json::from_str(line)?;
    match message.get("type").and_then(Value::as_str) {
        Some("ready" | "move") => {
            serde_json::to_string(&serde_json::from_value::<ToReferee>(message)?)
        }
        _ => serde_json::to_string(&serde_json::from_value::<Message>(message)?),
    }
}

#[cfg(test)]
mod tests {
    use super::caught;

    #[test]
    fn a_panic_in_the_strategy_is_caught() {
        assert_eq!(caught(|| -> u8 { panic!("a bug in observe") }), None);
        assert_eq!(caught(|| 7), Some(7));
    }
}
