//! Timing of `stop`, `quit` and clock use, in a test binary of its own so that no other
//! search competes for the CPU; the tests here take turns (`one_at_a_time`) for the same
//! reason, as the test harness would otherwise run them side by side. Before a clocked `go`
//! each waits for `readyok`, as GUIs do: the engine's clock starts when it reads `go`, and
//! until `readyok` it may still be starting (setting up its hash table took from 7 ms to
//! 124 ms in 15 starts on this machine), which the test's clock would count.

mod common;
use common::engine::Engine;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Held for the whole of each test: one engine searches at a time.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    // A test that failed while holding it poisons it; the others still run.
    TURN.lock().unwrap_or_else(|e| e.into_inner())
}

#[test]
fn stop_and_quit_are_prompt() {
    let _turn = one_at_a_time();
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    e.until("readyok", Duration::from_millis(500));
    let t = Instant::now();
    e.send("stop");
    e.until("bestmove", Duration::from_secs(2));
    assert!(t.elapsed() < Duration::from_millis(50), "stop took {:?}", t.elapsed());
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    e.send("quit");
    let status = loop {
        if let Some(s) = e.child.try_wait().expect("wait") {
            break s;
        }
        assert!(t.elapsed() < Duration::from_secs(2), "quit not honoured");
        std::thread::sleep(Duration::from_millis(2));
    };
    assert!(status.success());
    assert!(t.elapsed() < Duration::from_millis(50), "quit took {:?}", t.elapsed());
}

#[test]
fn timed_search_moves_in_time() {
    let _turn = one_at_a_time();
    let mut e = Engine::start();
    e.send("position startpos");
    e.ready();
    let t = Instant::now();
    e.send("go btime 2000 wtime 2000 byoyomi 0");
    e.until("bestmove", Duration::from_secs(3));
    assert!(t.elapsed() < Duration::from_millis(1200), "used {:?} of a 2 s clock", t.elapsed());
    let t = Instant::now();
    e.send("go movetime 300");
    e.until("bestmove", Duration::from_secs(3));
    assert!(t.elapsed() < Duration::from_millis(600), "movetime 300 took {:?}", t.elapsed());
}

#[test]
fn byoyomi_without_main_time_is_a_per_move_limit() {
    // Some GUIs (cshogi.cli) send `go byoyomi N` with no btime/wtime.
    let _turn = one_at_a_time();
    let mut e = Engine::start();
    e.send("setoption name USI_OwnBook value false");
    e.send("position startpos moves 7g7f 3c3d");
    e.ready();
    let t = std::time::Instant::now();
    e.send("go byoyomi 300");
    e.until("bestmove", Duration::from_secs(10));
    let took = t.elapsed();
    assert!(took < Duration::from_millis(300), "took {took:?}");
    assert!(took > Duration::from_millis(50), "used almost none of the byoyomi: {took:?}");
}
