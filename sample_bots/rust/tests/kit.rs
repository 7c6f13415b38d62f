//! The kit as a whole: the `bot` program round-trips the arena's fixture and
//! plays a session; the greedy sample picks the same moves, by the same rules,
//! as every other kit's on five fixed positions; `Strategy::choose` returns a
//! legal `Decision` naming its rule, and with `eps` 1 a seeded random one.

use std::ffi::OsStr;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use arena_bot::cards::Move;
use arena_bot::greedy::greedy;
use arena_bot::protocol::{Decision, Message, Request};
use arena_bot::strategy::Strategy;

/// The positions of `sample_bots/go/bot_test.go`: a request, the greedy move, its rule.
const POSITIONS: [(&str, &str, &str); 5] = [
    // Naming trumps with the jack of clubs alone.
    (
        r#"{"type": "request", "id": 86, "action": "trump", "legal": ["C", "H", "D", "S"], "state": {"seat": 2, "hand": 7, "hand_size": 1, "dealer": 1, "trump": null, "cards": ["JC"], "leader": 2, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["out", "dog", "active"], "turn_up": null, "history": [], "blind": [], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 10000}}"#,
        "C",
        "strongest_suit",
    ),
    // A weak hand declares its rainbow.
    (
        r#"{"type": "request", "id": 54, "action": "rainbow", "legal": ["pass", "declare"], "state": {"seat": 1, "hand": 4, "hand_size": 4, "dealer": 1, "trump": "C", "cards": ["3H", "4S", "TD", "QC"], "leader": 2, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["out", "active", "active"], "turn_up": null, "history": [], "blind": [], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 10000}}"#,
        "declare",
        "weak_hand",
    ),
    // Following hearts: the ten wins the four cheaply.
    (
        r#"{"type": "request", "id": 46, "action": "play", "legal": ["2H", "TH"], "state": {"seat": 0, "hand": 3, "hand_size": 5, "dealer": 2, "trump": "D", "cards": ["2H", "5S", "TH", "AS"], "leader": 2, "trick": [[2, "4H"]], "played": [[0, "3C"], [1, "6C"], [2, "9C"], [2, "4H"]], "tricks": [0, 0, 1], "statuses": ["active", "active", "active"], "turn_up": null, "history": [{"leader": 0, "moves": [[0, "3C"], [1, "6C"], [2, "9C"]], "winner": 2}], "blind": [], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 9340}}"#,
        "TH",
        "cheapest_winner",
    ),
    // A dog leading with the queen of trumps while the ace and king are out: knock.
    (
        r#"{"type": "request", "id": 81, "action": "play", "legal": ["knock", "QD"], "state": {"seat": 1, "hand": 6, "hand_size": 2, "dealer": 0, "trump": "D", "cards": ["QD"], "leader": 1, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["active", "dog", "active"], "turn_up": null, "history": [], "blind": [], "knocked": [], "dog_cards": {"1": "QD"}}, "time": {"move_ms": 1000, "bank_ms": 10000}}"#,
        "knock",
        "dog_knock",
    ),
    // A blind dog leading: knock.
    (
        r#"{"type": "request", "id": 81, "action": "play", "legal": ["knock", "blind"], "state": {"seat": 1, "hand": 6, "hand_size": 2, "dealer": 2, "trump": "D", "cards": [], "leader": 1, "trick": [], "played": [], "tricks": [0, 0, 0], "statuses": ["out", "dog", "active"], "turn_up": null, "history": [], "blind": [1], "knocked": []}, "time": {"move_ms": 1000, "bank_ms": 10000}}"#,
        "knock",
        "dog_knock",
    ),
];

fn request(line: &str) -> Request {
    serde_json::from_str(line).expect(line)
}

/// The `bot` program (built by `cargo test`) run with `args` on `input`: its stdout.
fn run_bot(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bot"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the bot starts");
    let mut stdin = child.stdin.take().expect("a pipe");
    stdin.write_all(input.as_bytes()).expect("the bot reads");
    drop(stdin); // end of input: the bot exits
    let done = child.wait_with_output().expect("the bot runs");
    assert!(
        done.status.success(),
        "bot {args:?} exited with {}",
        done.status
    );
    String::from_utf8(done.stdout).expect("UTF-8 output")
}

#[test]
fn every_line_of_the_round_trip_fixture_comes_back_the_same() {
    let kit = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixture = kit.join("../../protocol/examples/roundtrip.jsonl");
    let in_the_arena = kit.parent().and_then(Path::file_name) == Some(OsStr::new("sample_bots"));
    if !in_the_arena {
        // A bot made by `arena new-bot` has no copy of the arena's fixture; the
        // arena's own suite round-trips every kit (tests/test_kits.py).
        eprintln!("not in the arena repository: no {}", fixture.display());
        return;
    }
    let lines = std::fs::read_to_string(&fixture).expect("the arena's round-trip fixture");
    let sent: Vec<&str> = lines.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(sent.len() > 100, "only {} lines in the fixture", sent.len());
    let output = run_bot(&["--roundtrip"], &lines);
    let back: Vec<&str> = output.lines().collect();
    assert_eq!(back.len(), sent.len());
    for (sent, back) in sent.iter().zip(back) {
        let parse = |line: &str| serde_json::from_str::<Value>(line).expect(line);
        assert_eq!(parse(back), parse(sent), "{sent}");
    }
}

#[test]
fn a_session_answers_hello_and_each_request_with_a_legal_move_and_its_rule() {
    let hello = r#"{"type": "hello", "protocol": 1, "limits": {"startup_ms": 10000, "move_ms": 1000, "bank_ms": 10000}}"#;
    let news = r#"{"type": "event", "event": "knock", "seat": 2}"#;
    let lines = [
        hello,
        news,
        POSITIONS[2].0,
        POSITIONS[3].0,
        r#"{"type": "bye"}"#,
    ];
    let output = run_bot(&[], &(lines.join("\n") + "\n"));
    let replies: Vec<Value> = output
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), 3, "{output}");
    assert_eq!(replies[0]["type"], "ready");
    assert_eq!(
        replies[1],
        json!({"type": "move", "id": 46, "move": "TH", "info": {"rule": "cheapest_winner"}})
    );
    assert_eq!(
        replies[2],
        json!({"type": "move", "id": 81, "move": "knock", "info": {"rule": "dog_knock"}})
    );
}

#[test]
fn an_eps_out_of_range_is_a_one_line_usage_error_with_status_2() {
    for eps in ["1.5", "-0.1", "NaN", "half"] {
        let done = Command::new(env!("CARGO_BIN_EXE_bot"))
            .args(["--eps", eps])
            .stdin(Stdio::null())
            .output()
            .expect("the bot runs");
        assert_eq!(done.status.code(), Some(2), "--eps {eps}");
        assert_eq!(String::from_utf8_lossy(&done.stderr).lines().count(), 1);
        assert!(done.stdout.is_empty());
    }
}

#[test]
fn greedy_plays_the_five_fixed_positions() {
    for (line, want, rule) in POSITIONS {
        let request = request(line);
        let (chosen, named) = greedy(&request.state, &request.legal, request.action);
        assert_eq!((chosen.to_string().as_str(), named), (want, rule), "{line}");
    }
}

#[test]
fn choose_returns_a_legal_decision_with_its_rule() {
    let mut strategy = Strategy::new(0.0);
    for (line, want, rule) in POSITIONS {
        let request = request(line);
        let decision = strategy.choose(&request.state, &request.legal, &request);
        let expected =
            Decision::new(want.parse::<Move>().unwrap()).with_info(json!({ "rule": rule }));
        assert_eq!(decision, expected, "{line}");
        assert!(request.legal.contains(&decision.chosen));
    }
}

#[test]
fn eps_one_plays_seeded_random_legal_moves() {
    let start: Message = serde_json::from_str(r#"{"type": "game_start", "game": "g7-1", "seat": 0, "players": ["a", "b", "c"], "rules": {"players": 3, "dog_life": "standard", "dog_first_hand_only": false, "blind_dog": false, "upside_dog": false, "rainbow": false, "no_picture": false, "trumps_broken": false, "eliminated_deals": false, "sweep_wins": false, "tie_break": "cut"}}"#).unwrap();
    let play = |strategy: &mut Strategy| -> Vec<Decision> {
        strategy.observe(&start);
        let mut decisions = Vec::new();
        for _ in 0..10 {
            for (line, _, _) in POSITIONS {
                let request = request(line);
                decisions.push(strategy.choose(&request.state, &request.legal, &request));
            }
        }
        decisions
    };
    let mut strategy = Strategy::new(1.0);
    let first = play(&mut strategy);
    for (decision, (line, _, _)) in first.iter().zip(POSITIONS.iter().cycle()) {
        assert!(
            request(line).legal.contains(&decision.chosen),
            "{decision:?}"
        );
        assert_eq!(decision.info, Some(json!({"rule": "random"})));
    }
    // Not always legal[0]; and the same game and seat replay the same moves.
    assert!(first.iter().any(|d| d.chosen.to_string() == "TH"));
    assert_eq!(play(&mut strategy), first);
}
