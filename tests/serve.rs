//! `kyphu serve`: a real server on an ephemeral port of 127.0.0.1, spoken to with a
//! plain `TcpStream` (HTTP/1.1 by hand, no client crate, no network). The API answers
//! with the same objects as the command line; hostile requests get a clear 4xx JSON
//! error and the server goes on answering.

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::{SocketAddr, TcpStream},
    path::Path,
    process::{Child, Command, Stdio},
    time::Duration,
};

use serde_json::{Value, json};

/// A running `kyphu serve --port 0`, stopped when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kyphu"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("kyphu serve starts");
        let stdout = child.stdout.take().expect("stdout piped");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("the address line");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .unwrap_or_else(|e| panic!("{url}: {e}"));
        Server { child, addr }
    }

    /// Sends `head` (request line and headers, without the blank line) and `body`, and
    /// returns the status, the headers (lowercase names) and the body of the answer.
    fn raw(&self, head: &str, body: &[u8]) -> (u16, Vec<(String, String)>, Vec<u8>) {
        let mut s = TcpStream::connect(self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(60))).ok();
        let request = format!("{head}\r\nHost: {}\r\nConnection: close\r\n\r\n", self.addr);
        // the server may answer (and close) before the whole body is sent: a refused
        // body is not an error of the test
        let _ = s
            .write_all(request.as_bytes())
            .and_then(|()| s.write_all(body));
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        parse_answer(&answer)
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let body = body.to_string();
        let (status, _, answer) = self.raw(
            &format!(
                "POST {path} HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: {}",
                body.len()
            ),
            body.as_bytes(),
        );
        (status, json_of(&answer))
    }

    fn get(&self, path: &str) -> (u16, Vec<(String, String)>, Vec<u8>) {
        self.raw(&format!("GET {path} HTTP/1.1"), b"")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn json_of(body: &[u8]) -> Value {
    serde_json::from_slice(body).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}",
            String::from_utf8_lossy(&body[..body.len().min(500)])
        )
    })
}

fn parse_answer(answer: &[u8]) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let split = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no answer head in {:?}", String::from_utf8_lossy(answer)));
    let head = String::from_utf8_lossy(&answer[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("bad status line in {head}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let mut body = answer[split + 4..].to_vec();
    if headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"))
    {
        body = dechunk(&body);
    }
    (status, headers, body)
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = b.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&b[..eol]).trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.extend_from_slice(&b[eol + 2..eol + 2 + size]);
        b = &b[eol + 4 + size..];
    }
    out
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The command line's output for `args`, run in the crate's folder.
fn cli(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_kyphu"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("kyphu runs");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

const SLIPS: &str = "corpus/chess/scoresheet-vi-slips.pgn";

#[test]
fn check_answers_the_objects_of_check_format_json() {
    let server = Server::start();
    let (status, answer) = server.post(
        "/api/check",
        &json!({"text": read(SLIPS), "name": SLIPS, "strict": true}),
    );
    assert_eq!(status, 200, "{answer}");
    let expected: Vec<Value> = cli(&["check", "--strict", "--format", "json", SLIPS])
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(answer["diagnostics"], Value::Array(expected));
    assert_eq!(answer["counts"]["partial"], 1);
    let game = &answer["game"];
    assert_eq!(game["kind"], "chess");
    assert_eq!(game["status"], "partial");
    assert_eq!(game["reading"]["lang"], "vi");
    assert_eq!(game["reading"]["inferred"], true);
    // the whole sheet, as `check` reads it: replay goes on after the slip under the
    // move assumed (issue 27); each move where it was written, with its position
    let moves = game["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 35);
    assert_eq!(moves[13]["written"], "Mc3");
    assert_eq!(moves[13]["san"], "Nc6");
    assert_eq!(moves[1]["written"], "Mf6");
    assert_eq!(moves[1]["san"], "Nf6");
    assert_eq!(
        (moves[1]["line"].as_u64(), moves[1]["column"].as_u64()),
        (Some(9), Some(7))
    );
    assert_eq!(
        moves[0]["fen"],
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1"
    );
    assert!(game["unread"].is_null(), "{}", game["unread"]);
}

#[test]
fn a_candidate_written_in_fixes_the_slip() {
    let server = Server::start();
    let text = read(SLIPS);
    let (_, answer) = server.post("/api/check", &json!({"text": text}));
    let d = &answer["diagnostics"][0];
    assert_eq!(d["candidates"][0], "Mc6");
    // what the page does on a click: the token at the diagnostic's place rewritten
    let line = d["line"].as_u64().expect("line") as usize;
    let column = d["column"].as_u64().expect("column") as usize;
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let l = &mut lines[line - 1];
    let at: usize = l
        .char_indices()
        .nth(column - 1)
        .map(|(i, _)| i)
        .expect("column");
    assert_eq!(&l[at..at + 3], "Mc3");
    l.replace_range(at..at + 3, "Mc6");
    let (_, after) = server.post("/api/check", &json!({"text": lines.join("\n")}));
    assert!(after["game"]["moves"].as_array().expect("moves").len() > 13);
    assert_ne!(after["diagnostics"][0]["ply"], 14, "{after}");
}

#[test]
fn convert_answers_what_convert_writes() {
    let server = Server::start();
    let file = "corpus/chess/scoresheet-vi.pgn";
    let text = read(file);
    let (status, pgn) = server.post(
        "/api/convert",
        &json!({"text": text, "to": "pgn", "out_lang": "vi", "out_notation": "fide"}),
    );
    assert_eq!(status, 200);
    assert_eq!(
        pgn["output"],
        cli(&[
            "convert",
            "--out-lang",
            "vi",
            "--out-notation",
            "fide",
            file
        ])
    );
    let (_, as_json) = server.post(
        "/api/convert",
        &json!({"text": text, "to": "json", "name": file}),
    );
    let line = cli(&["convert", "--to", "json", file]);
    let expected: Value = serde_json::from_str(line.trim()).expect("a JSON line");
    assert_eq!(as_json["games"], json!([expected]));
    assert_eq!(as_json["output"], line);
    let (_, csv) = server.post("/api/convert", &json!({"text": text, "to": "csv"}));
    assert_eq!(csv["output"], cli(&["convert", "--to", "csv", file]));
    assert_eq!(csv["counts"]["clean"], 1);
}

#[test]
fn a_csv_scoresheet_is_read_by_its_name_or_its_header() {
    let server = Server::start();
    let text = read("corpus/csv/scoresheet-vi.csv");
    for request in [
        json!({"text": text, "name": "sheet.csv"}),
        json!({"text": text}),
    ] {
        let (status, answer) = server.post("/api/check", &request);
        assert_eq!(status, 200);
        assert_eq!(answer["counts"]["read"], 1, "{answer}");
        assert!(
            answer["game"]["moves"]
                .as_array()
                .is_some_and(|m| m.len() > 10)
        );
    }
}

#[test]
fn diff_finds_where_two_sheets_part() {
    let server = Server::start();
    let (status, answer) = server.post(
        "/api/diff",
        &json!({"a": read("corpus/chess/diff/sheet-white.pgn"), "b": read("corpus/chess/diff/sheet-black.pgn")}),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["same"], false);
    let out = cli(&[
        "diff",
        "corpus/chess/diff/sheet-white.pgn",
        "corpus/chess/diff/sheet-black.pgn",
    ]);
    let agreed = answer["agreed"].as_u64().expect("agreed");
    assert!(
        out.contains(&format!("agree on the first {agreed} plies"))
            || out.contains(&format!("agree on {agreed} plies")),
        "{out}\n{answer}"
    );
    let (_, same) = server.post(
        "/api/diff",
        &json!({"a": read("corpus/chess/scoresheet-vi.pgn"), "b": read("corpus/chess/scoresheet-vi.pgn")}),
    );
    assert_eq!(same["same"], true);
    assert_eq!(same["divergence"]["kind"], "identical");
}

#[test]
fn xiangqi_in_chinese_reads_and_draws() {
    let server = Server::start();
    let (_, answer) = server.post(
        "/api/check",
        &json!({"text": read("corpus/xiangqi/tao-hu-1999-chinese.pgn")}),
    );
    let game = &answer["game"];
    assert_eq!(game["kind"], "xiangqi");
    assert_eq!(game["reading"]["notation"], "chinese");
    let first = &game["moves"][0];
    assert_eq!(first["written"], "马八进七");
    let (status, headers, svg) = server.raw(
        "POST /api/board HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: LEN",
        b"",
    );
    // a request without its body is refused (the length is not a number)
    assert!((400..500).contains(&status), "{status}");
    let _ = (headers, svg);
    let body = json!({"fen": first["fen"], "last": first["uci"]}).to_string();
    let (status, headers, svg) = server.raw(
        &format!(
            "POST /api/board HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: {}",
            body.len()
        ),
        body.as_bytes(),
    );
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-type"), Some("image/svg+xml"));
    let svg = String::from_utf8(svg).expect("UTF-8");
    assert_eq!(svg.matches("<circle").count(), 32);
    assert_eq!(svg.matches("class=\"last\"").count(), 2);
}

#[test]
fn hostile_requests_get_a_clear_4xx_and_the_server_goes_on() {
    let server = Server::start();
    let error = |status: u16, body: &[u8]| -> String {
        let v = json_of(body);
        assert_eq!(v["status"], status, "{v}");
        v["error"].as_str().expect("an error message").to_owned()
    };
    // a body declared larger than 8 MB: refused before it is read
    let (status, _, body) = server.raw(
        "POST /api/check HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 9000000",
        b"{\"text\":\"",
    );
    assert_eq!(status, 413);
    assert!(error(413, &body).contains("larger than 8 MB"));
    // a chunked body growing past 8 MB: refused when it does
    let chunk = vec![b' '; 1 << 20];
    let mut chunked = Vec::new();
    for _ in 0..9 {
        chunked.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        chunked.extend_from_slice(&chunk);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let (status, _, body) = server.raw(
        "POST /api/check HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked",
        &chunked,
    );
    assert_eq!(status, 413);
    error(413, &body);
    // not UTF-8
    let bad = b"{\"text\": \"1. e4 \xff\xfe e5\"}";
    let (status, _, body) = server.raw(
        &format!(
            "POST /api/check HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: {}",
            bad.len()
        ),
        bad,
    );
    assert_eq!(status, 400);
    assert!(error(400, &body).contains("not valid UTF-8 (at byte 16)"));
    // nesting far deeper than any parser's stack
    let deep = format!(
        "{{\"text\": \"1. e4\", \"game\": {}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let (status, _, body) = server.raw(
        &format!(
            "POST /api/check HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: {}",
            deep.len()
        ),
        deep.as_bytes(),
    );
    assert_eq!(status, 400);
    error(400, &body);
    let deep = "[".repeat(200_000);
    let (status, _, body) = server.raw(
        &format!(
            "POST /api/convert HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: {}",
            deep.len()
        ),
        deep.as_bytes(),
    );
    assert_eq!(status, 400);
    error(400, &body);
    // the wrong content type, or none
    for ct in [
        "Content-Type: text/plain",
        "Content-Type: application/x-www-form-urlencoded",
        "X-None: 1",
    ] {
        let (status, _, body) = server.raw(
            &format!("POST /api/check HTTP/1.1\r\n{ct}\r\nContent-Length: 2"),
            b"{}",
        );
        assert_eq!(status, 415, "{ct}");
        assert!(error(415, &body).contains("expected a JSON body"));
    }
    // invalid JSON, a wrong shape, a missing record, a misspelt option, bad values
    for (body, code, says) in [
        ("{\"text\": ", 400, "invalid JSON"),
        ("[1, 2]", 400, "wrong shape"),
        ("{}", 400, "missing field `text`"),
        (
            "{\"text\": \"1. e4\", \"langue\": \"vi\"}",
            400,
            "unknown field `langue`",
        ),
        (
            "{\"text\": \"1. e4\", \"lang\": \"xx\"}",
            422,
            "unknown language `xx`",
        ),
        (
            "{\"text\": \"1. e4\", \"game\": \"go\"}",
            422,
            "unknown game `go`",
        ),
        (
            "{\"text\": \"1. e4\", \"to\": \"docx\"}",
            422,
            "unknown output format `docx`",
        ),
        ("{\"fen\": \"not a fen\"}", 422, "bad chess FEN"),
    ] {
        let path = if body.contains("docx") {
            "/api/convert"
        } else if body.contains("fen") {
            "/api/board"
        } else {
            "/api/check"
        };
        let (status, _, answer) = server.raw(
            &format!(
                "POST {path} HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: {}",
                body.len()
            ),
            body.as_bytes(),
        );
        assert_eq!(status, code, "{body}");
        let message = error(code, &answer);
        assert!(message.contains(says), "{body}: {message}");
    }
    let (status, _, body) = server.get("/api/nothing-here");
    assert_eq!(status, 404);
    error(404, &body);
    let (status, _, _) = server.get("/api/check");
    assert_eq!(status, 405);
    // and the server still answers
    let (status, answer) = server.post("/api/check", &json!({"text": "1. e4 e5 *"}));
    assert_eq!(status, 200);
    assert_eq!(answer["counts"]["clean"], 1);
}

/// `POST /api/check` with `body` from a client thread of its own (the whole body sent
/// before the answer is read): the status and the answer's body.
fn check_at(addr: SocketAddr, body: &str, timeout_secs: u64) -> (u16, Vec<u8>) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(timeout_secs)))
        .ok();
    let head = format!(
        "POST /api/check HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).expect("write");
    s.write_all(body.as_bytes()).expect("write");
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).expect("read");
    let (status, _, body) = parse_answer(&answer);
    (status, body)
}

#[test]
fn many_requests_at_once_are_all_answered() {
    let server = Server::start();
    let text = read("corpus/chess/games.pgn");
    let body = json!({"text": text}).to_string();
    let addr = server.addr;
    let threads: Vec<_> = (0..24)
        .map(|_| {
            let body = body.clone();
            std::thread::spawn(move || {
                let (status, body) = check_at(addr, &body, 120);
                (status, json_of(&body)["counts"]["read"].as_u64())
            })
        })
        .collect();
    let expected = cli(&["check", "-q", "corpus/chess/games.pgn"]);
    for t in threads {
        let (status, read) = t.join().expect("a client thread");
        assert_eq!(status, 200);
        let read = read.expect("counts.read");
        assert!(
            expected.contains(&format!("{read} games")),
            "{expected} vs {read}"
        );
    }
}

/// The server's peak memory (VmHWM) in kilobytes, from /proc.
#[cfg(target_os = "linux")]
fn peak_kb(server: &Server) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id()))
        .expect("/proc/PID/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("VmHWM")
}

/// Two requests of nearly the largest body at once (what `--jobs 2` lets in) keep the
/// server under the 64 MB every kyphu command keeps to: with mimalloc's batch-run
/// defaults they took 127 MB, so the server restarts itself with its own options.
#[cfg(target_os = "linux")]
#[test]
fn two_large_archives_at_once_stay_under_64_mb() {
    let server = Server::start();
    let environ =
        std::fs::read(format!("/proc/{}/environ", server.child.id())).expect("/proc/PID/environ");
    assert!(
        environ
            .split(|&b| b == 0)
            .any(|v| v == b"MIMALLOC_PURGE_DELAY=0"),
        "the server runs with its allocator options"
    );
    let games = read("corpus/chess/games.pgn");
    let mut text = String::new();
    while text.len() + games.len() < 7 << 20 {
        text.push_str(&games);
        text.push('\n');
    }
    let body = json!({"text": text, "name": "big.pgn"}).to_string();
    let addr = server.addr;
    let threads: Vec<_> = (0..2)
        .map(|_| {
            let body = body.clone();
            std::thread::spawn(move || check_at(addr, &body, 300).0)
        })
        .collect();
    for t in threads {
        assert_eq!(t.join().expect("a client thread"), 200);
    }
    let peak = peak_kb(&server);
    assert!(peak < 64 << 10, "peak {peak} kB");
}

#[test]
fn the_page_and_its_words_are_built_in() {
    let server = Server::start();
    let (status, headers, page) = server.get("/");
    assert_eq!(status, 200);
    assert_eq!(
        header(&headers, "content-type"),
        Some("text/html; charset=utf-8")
    );
    let page = String::from_utf8(page).expect("UTF-8");
    assert!(page.contains("<script src=\"app.js\">"));
    for (path, mime) in [
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/style.css", "text/css; charset=utf-8"),
        ("/sample-slips.pgn", "text/plain; charset=utf-8"),
    ] {
        let (status, headers, _) = server.get(path);
        assert_eq!(
            (status, header(&headers, "content-type")),
            (200, Some(mime)),
            "{path}"
        );
    }
    let (_, _, options) = server.get("/api/options");
    let options = json_of(&options);
    assert!(
        options["languages"]
            .as_array()
            .is_some_and(|l| l.iter().any(|l| l["code"] == "vi"))
    );
    assert!(
        options["notations"]
            .as_array()
            .is_some_and(|n| n.contains(&json!("chinese")))
    );
    // every language of the page has every word of the English file
    let (_, _, en) = server.get("/i18n/en.json");
    let en = json_of(&en);
    let keys: Vec<&String> = en.as_object().expect("an object").keys().collect();
    for lang in options["page_languages"].as_array().expect("languages") {
        let (status, _, words) = server.get(&format!("/i18n/{}.json", lang.as_str().unwrap_or("")));
        assert_eq!(status, 200, "{lang}");
        let words = json_of(&words);
        let theirs: Vec<&String> = words.as_object().expect("an object").keys().collect();
        assert_eq!(theirs, keys, "{lang}");
    }
    let (status, _, _) = server.get("/i18n/../Cargo.toml");
    assert_eq!(status, 404);
}
