//! Timing of `stop`, `quit` and clock use, in a test binary of its own so that no other
//! search competes for the CPU.

mod common;
use common::engine::Engine;
use std::time::{Duration, Instant};

#[test]
fn stop_and_quit_are_prompt() {
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
    let mut e = Engine::start();
    e.send("position startpos");
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
    let mut e = Engine::start();
    e.send("setoption name USI_OwnBook value false");
    e.send("position startpos moves 7g7f 3c3d");
    let t = std::time::Instant::now();
    e.send("go byoyomi 300");
    e.until("bestmove", Duration::from_secs(10));
    let took = t.elapsed();
    assert!(took < Duration::from_millis(300), "took {took:?}");
    assert!(took > Duration::from_millis(50), "used almost none of the byoyomi: {took:?}");
}
