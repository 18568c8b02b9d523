//! The real server (`fianchetto serve`) over real sockets: what only a network shows. Slow
//! clients are cut off, a client that vanishes mid-request frees its engine, and a request that
//! overflowed the stack before is answered while the process keeps serving.

use crate::common::games::long_game;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The server process, killed when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fianchetto"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped"))
            .read_line(&mut line)
            .expect("the server prints its address");
        // "Fianchetto is at http://127.0.0.1:PORT/ (Ctrl-C stops it)"
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, addr }
    }

    /// Sends a whole HTTP/1.1 request and returns the status and body.
    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).expect("connects");
        s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).expect("an answer");
        let status = out
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let body = out.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
        (status, body)
    }

    fn alive(&mut self) -> bool {
        self.child.try_wait().expect("waitable").is_none()
    }
}

fn json_body(pgn: &str) -> String {
    serde_json::json!({ "pgn": pgn, "movetime": 2000 }).to_string()
}

#[test]
fn a_stack_breaking_pgn_is_refused_and_the_server_serves_on() {
    let mut server = Server::start();
    let deep = format!(
        "1. e4 {}{} e5 *",
        "(1. d4 ".repeat(20_000),
        ")".repeat(20_000)
    );
    for path in ["/api/pgn", "/api/analyse-pgn"] {
        let (status, body) = server.request("POST", path, &json_body(&deep));
        assert_eq!(status, 400, "{body}");
        assert!(body.contains("nested deeper than"), "{body}");
        assert!(server.alive());
    }
    let (status, body) = server.request("GET", "/api/games/-1", "");
    assert_eq!(status, 400);
    assert!(body.starts_with("{\"error\":"), "{body}");
}

#[test]
fn slow_clients_are_cut_off_and_a_vanished_client_frees_its_engine() {
    let mut server = Server::start();
    // Thirty clients that send half a request line and then nothing.
    let mut slow: Vec<TcpStream> = (0..30)
        .map(|_| {
            let mut s = TcpStream::connect(&server.addr).expect("connects");
            s.write_all(b"GET / HTTP/1.1\r\nHo").unwrap();
            s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
            s
        })
        .collect();
    // A whole-game analysis per engine, of 101 positions at 2 s each (over 3 minutes, three
    // times the minute allowed below for the engines to come back), from clients that leave
    // once every engine is seen busy with them.
    let body = json_body(&long_game(100));
    let engines = std::thread::available_parallelism().map_or(1, |n| n.get());
    let send = || {
        let mut s = TcpStream::connect(&server.addr).expect("connects");
        write!(
            s,
            "POST /api/analyse-pgn HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        s.set_nonblocking(true).unwrap();
        s
    };
    let mut clients: Vec<TcpStream> = (0..engines).map(|_| send()).collect();
    let probe = "/api/analysis?fen=8/8/8/8/8/8/8/K1k5%20w%20-%20-%200%201&movetime=50";
    // Busy: a probe analysis is refused, so every engine is held by these analyses (nothing
    // else asks for one). A probe that finds an engine free takes it for its 50 ms, before an
    // analysis did: one refused meanwhile (answered at once) is sent again.
    let start = Instant::now();
    loop {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the analyses never took every engine"
        );
        for c in &mut clients {
            let mut buf = [0u8; 512];
            match c.read(&mut buf) {
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Ok(0) => panic!("an analysis's connection was closed without an answer"),
                Ok(n) => {
                    let answer = String::from_utf8_lossy(&buf[..n]);
                    assert!(answer.contains(" 429 "), "an analysis ended: {answer:?}");
                    *c = send();
                }
                Err(e) => panic!("an analysis's connection failed: {e}"),
            }
        }
        let (status, _) = server.request("GET", probe, "");
        if status == 429 {
            break;
        }
        assert_eq!(status, 200);
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(clients);
    // Every engine comes back (within a generous minute) long before those analyses would have
    // ended.
    let start = Instant::now();
    loop {
        let (status, _) = server.request("GET", probe, "");
        if status == 200 {
            break;
        }
        assert_eq!(status, 429);
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the engines were not freed"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // The slow clients are closed once their headers are overdue (10 s; generous here).
    for s in &mut slow {
        let mut buf = [0u8; 256];
        let closed = match s.read(&mut buf) {
            Ok(0) => true,
            // A 408 before closing is fine too.
            Ok(n) => String::from_utf8_lossy(&buf[..n]).contains(" 408 "),
            Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
        };
        assert!(closed, "a slow socket stayed open");
    }
    assert!(server.alive());
    let (status, _) = server.request(
        "POST",
        "/api/position",
        "{\"fen\": \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"}",
    );
    assert_eq!(status, 200);
}
