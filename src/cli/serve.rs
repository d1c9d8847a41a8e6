//! `kyphu serve`: a local web server with a page for arbiters and editors (paste or
//! drop a record, see the board and every diagnostic, fix a move with a click, compare
//! two sheets, export) and the HTTP API under it (`POST /api/check`, `/api/convert`,
//! `/api/diff`, `/api/board`), JSON in and out. The page and its assets are built into
//! the binary: it works offline. See docs/serve.md.
//!
//! Bounds: a request body of at most [`MAX_BODY`] bytes (413 beyond), read within
//! [`READ_TIMEOUT`]; at most `--jobs` ([`BODIES`] by default) requests held at once,
//! from their body read to their answer made, the work (replay and writing) on a
//! blocking pool of as many threads, so that memory stays bounded whatever the number
//! of clients; an answer of at most [`MAX_OUTPUT`] bytes,
//! [`MAX_DIAGNOSTICS`] diagnostics and [`MAX_GAMES`] games listed.

use std::{
    fmt::Write as _,
    io::{self, Write as _},
    net::{IpAddr, Ipv4Addr, SocketAddr},
    process::ExitCode,
    sync::Arc,
    time::Duration,
};

use axum::{
    Router,
    body::Body,
    extract::{Path, State},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use clap::ValueEnum;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

use super::{
    CliError, Counts, GameArg, ReadArgs,
    render::{Fens, Located, move_of_ply},
};
use kyphu::{
    archive::{ArchiveReader, RawGame, ReadOptions, csv::ScoresheetReader},
    emit::{
        Board, CsvOptions, JsonOptions, MoveStyle, PgnOptions, ScoresheetWriter, WriteMoves,
        XiangqiNotation,
        svg::{LastMove, SvgOptions, board_svg},
    },
    model::diag::{Code, LineIndex, Severity},
    model::game::{Game, GameKind, StartPosition},
    notation::chess::{SanStyle, english},
    replay::{
        diff::{Divergence, agreed_fen, compare, table_of},
        replay,
    },
};

/// The largest request body read (a scoresheet is a few kilobytes; a club's archive
/// of a few thousand games fits).
pub const MAX_BODY: usize = 8 << 20;
/// The largest answer written (PGN, JSON or CSV text of a conversion).
pub const MAX_OUTPUT: usize = 16 << 20;
/// The most diagnostics listed in one answer (the rest are counted).
pub const MAX_DIAGNOSTICS: usize = 2_000;
/// The most games listed in a check answer's `games` (the rest are counted).
pub const MAX_GAMES: usize = 2_000;
/// Requests held in memory at once by default, from their body read to their answer
/// made (others wait before their body is read): a 2 MB archive of 2,554 games costs
/// about 20 MB while it is worked on.
pub const BODIES: usize = 2;
/// Time allowed to send a request body.
pub const READ_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port, printed at start)
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on instead of 127.0.0.1, for instance 0.0.0.0 to share the
    /// page on an office network (anyone who reaches the machine can then use it)
    #[arg(long, value_name = "ADDR")]
    pub bind: Option<IpAddr>,
    /// Requests read and worked on at once (each holds its body, up to 8 MB, and what
    /// is made of it; others wait, unread)
    #[arg(long, default_value_t = BODIES,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=64))]
    pub jobs: usize,
}

/// What every handler shares.
struct App {
    /// Permits to hold a request body in memory.
    bodies: Semaphore,
    /// Permits to work (replay, write) on the blocking pool.
    jobs: Semaphore,
}

/// The allocator options a server runs with (see [`allocator_for_a_server`]).
pub const ALLOCATOR_OPTIONS: &[(&str, &str)] = &[
    ("MIMALLOC_PURGE_DELAY", "0"),
    ("MIMALLOC_ARENA_EAGER_COMMIT", "0"),
];

/// mimalloc, the binary's allocator, keeps the pages a thread frees for a while and
/// commits its arenas whole: right for a batch run, but a server whose requests are
/// read on one thread and worked on another then holds about twice what it uses (two
/// 8 MB requests at once: 127 MB at the peak instead of 57 MB). Its options are read
/// from the environment when the process starts, so `serve` executes itself again,
/// once, with them set. A user who sets either option keeps theirs.
#[cfg(unix)]
fn allocator_for_a_server() {
    use std::os::unix::process::CommandExt;
    if ALLOCATOR_OPTIONS
        .iter()
        .any(|(name, _)| std::env::var_os(name).is_some())
    {
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let mut again = std::process::Command::new(exe);
    again.args(std::env::args_os().skip(1));
    for (name, value) in ALLOCATOR_OPTIONS {
        again.env(name, value);
    }
    // `exec` returns only when it failed: the server then runs as it is
    let e = again.exec();
    eprintln!(
        "kyphu: note: cannot restart with the server's allocator options ({e}); serving anyway"
    );
}

#[cfg(not(unix))]
fn allocator_for_a_server() {}

pub fn run(a: &ServeArgs) -> Result<ExitCode, CliError> {
    allocator_for_a_server();
    let jobs = a.jobs.max(1);
    let ip = a.bind.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(jobs)
        .enable_all()
        .build()
        .map_err(CliError::Io)?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(ip, a.port))
            .await
            .map_err(|e| {
                CliError::Io(io::Error::new(
                    e.kind(),
                    format!("cannot listen on {}: {e}", SocketAddr::new(ip, a.port)),
                ))
            })?;
        let addr = listener.local_addr().map_err(CliError::Io)?;
        if !ip.is_loopback() {
            eprintln!(
                "kyphu: warning: listening on {addr}: anyone who can reach this machine on the network can use the page and the API (records sent are checked in memory and not kept)"
            );
        }
        let shown = if ip.is_unspecified() {
            SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), addr.port())
        } else {
            addr
        };
        {
            let mut out = io::stdout().lock();
            writeln!(out, "kyphu: serving on http://{shown}/ (Ctrl-C to stop)")?;
            out.flush()?;
        }
        let app = Arc::new(App {
            bodies: Semaphore::new(jobs),
            jobs: Semaphore::new(jobs),
        });
        axum::serve(listener, router(app))
            .await
            .map_err(CliError::Io)?;
        Ok(ExitCode::SUCCESS)
    })
}

fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(|| async { asset("index.html") }))
        .route(
            "/{file}",
            get(|Path(f): Path<String>| async move { asset(&f) }),
        )
        .route(
            "/i18n/{file}",
            get(|Path(f): Path<String>| async move { asset(&format!("i18n/{f}")) }),
        )
        .route("/api/options", get(|| async { options() }))
        .route("/api/check", post(check))
        .route("/api/convert", post(convert))
        .route("/api/diff", post(diff))
        .route("/api/board", post(board))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such page or API") })
        .with_state(app)
}

/// The page's files, built into the binary.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("../../web/index.html"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../../web/app.js"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../../web/style.css"),
    ),
    (
        "i18n/en.json",
        "application/json",
        include_str!("../../web/i18n/en.json"),
    ),
    (
        "i18n/vi.json",
        "application/json",
        include_str!("../../web/i18n/vi.json"),
    ),
    (
        "i18n/zh.json",
        "application/json",
        include_str!("../../web/i18n/zh.json"),
    ),
    (
        "sample-slips.pgn",
        "text/plain; charset=utf-8",
        include_str!("../../corpus/chess/scoresheet-vi-slips.pgn"),
    ),
];

/// The languages of the page's own words (web/i18n/*.json).
pub const PAGE_LANGUAGES: &[&str] = &["en", "vi", "zh"];

fn asset(name: &str) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, mime, body)) => (
            [
                (header::CONTENT_TYPE, HeaderValue::from_static(mime)),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            ],
            *body,
        )
            .into_response(),
        None => ApiError::new(StatusCode::NOT_FOUND, format!("no page `{name}`")).into_response(),
    }
}

/// `GET /api/options`: the piece-letter languages, the xiangqi notations and the
/// languages of the page, for its menus.
fn options() -> Response {
    let languages: Vec<Value> = kyphu::notation::chess::tables()
        .iter()
        .map(|t| json!({"code": t.code, "name": t.name}))
        .collect();
    let mut notations = vec!["iccs".to_owned()];
    notations.extend(
        kyphu::notation::xiangqi::notations()
            .iter()
            .map(|n| n.name.to_owned())
            .filter(|n| n != "iccs"),
    );
    json_response(
        json!({
            "languages": languages,
            "notations": notations,
            "page_languages": PAGE_LANGUAGES,
        })
        .to_string(),
    )
}

/// An answer that is not a success: its status and a JSON body `{"error": message,
/// "status": code}`.
#[derive(Debug)]
struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
}

impl From<CliError> for ApiError {
    fn from(e: CliError) -> ApiError {
        match e {
            CliError::Usage(m) => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, m),
            CliError::Input(e) => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()),
            CliError::Io(e) => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": self.message, "status": self.status.as_u16()});
        (
            self.status,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            )],
            body.to_string(),
        )
            .into_response()
    }
}

/// A JSON answer.
fn json_response(body: String) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

/// The options of a request: one object for every endpoint, each taking the fields
/// it uses. Unknown fields are refused (a misspelt option would silently do nothing).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    /// The record(s): PGN, typed movetext or a scoresheet CSV (check, convert).
    text: Option<String>,
    /// A name for the text, shown in diagnostics (`.csv` reads it as a scoresheet).
    name: Option<String>,
    /// The two records of diff.
    a: Option<String>,
    b: Option<String>,
    /// auto, chess, chess960, xiangqi.
    game: Option<String>,
    /// Piece-letter language: auto or a code.
    lang: Option<String>,
    /// Xiangqi notation: auto or a name.
    notation: Option<String>,
    /// Input format: auto, pgn or csv.
    from: Option<String>,
    /// check: also the notes of `--strict`.
    #[serde(default)]
    strict: bool,
    /// Keep an illegal move only one piece can make (as `--keep-illegal`).
    #[serde(default)]
    keep_illegal: bool,
    /// check and diff: the game (1 = first) described move by move.
    number: Option<u64>,
    /// convert: pgn, json or csv.
    to: Option<String>,
    /// Output piece letters (a language code), chess style (san, fide, figurine),
    /// xiangqi notation (iccs or a name).
    out_lang: Option<String>,
    out_notation: Option<String>,
    out_xiangqi: Option<String>,
    /// convert: PGN reduced export format.
    #[serde(default)]
    reduced: bool,
    /// board: the position (chess or xiangqi FEN), the move that led to it (`e2e4`,
    /// `h2e2`) and the side seen from.
    fen: Option<String>,
    last: Option<String>,
    #[serde(default)]
    flipped: bool,
}

impl Request {
    fn read_args(&self, name: &str) -> Result<ReadArgs, ApiError> {
        let game = match self.game.as_deref().map(str::trim) {
            None | Some("") => GameArg::Auto,
            Some(g) => GameArg::from_str(g, true).map_err(|_| {
                ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    format!("unknown game `{g}`; expected auto, chess, chess960 or xiangqi"),
                )
            })?,
        };
        let read = ReadArgs {
            files: vec![name.to_owned()],
            lang: self.lang.clone().unwrap_or_else(|| "auto".to_owned()),
            encoding: "auto".to_owned(),
            threads: 1,
            game,
            notation: self.notation.clone().unwrap_or_else(|| "auto".to_owned()),
            keep_illegal: self.keep_illegal,
            log: None,
        };
        read.lang()?;
        read.notation()?;
        Ok(read)
    }

    fn name(&self) -> &str {
        self.name.as_deref().unwrap_or("input")
    }

    /// Is `text` a scoresheet CSV: `from`, else the name, else its first line.
    fn is_csv(&self, text: &str) -> Result<bool, ApiError> {
        match self.from.as_deref().map(str::trim) {
            None | Some("" | "auto") => Ok(self.name().to_ascii_lowercase().ends_with(".csv")
                || kyphu::archive::csv::looks_like_scoresheet(
                    text.as_bytes().get(..4096).unwrap_or(text.as_bytes()),
                )),
            Some("csv") => Ok(true),
            Some("pgn") => Ok(false),
            Some(other) => Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("unknown input format `{other}`; expected auto, pgn or csv"),
            )),
        }
    }

    /// The output style, as `convert --out-lang --out-notation --out-xiangqi`.
    fn style(&self) -> Result<MoveStyle, ApiError> {
        let unknown = |m: String| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, m);
        let table = match self.out_lang.as_deref() {
            None | Some("" | "en") => english(),
            Some(code) => kyphu::notation::chess::table(code).ok_or_else(|| {
                unknown(format!(
                    "unknown output language `{code}`; expected one of: {}",
                    super::language_codes()
                ))
            })?,
        };
        let chess = match self.out_notation.as_deref() {
            None | Some("" | "san") => SanStyle {
                table,
                ..SanStyle::pgn()
            },
            Some("fide") => SanStyle::fide(table),
            Some("figurine") => SanStyle::figurine(),
            Some(other) => {
                return Err(unknown(format!(
                    "unknown output notation `{other}`; expected san, fide or figurine"
                )));
            }
        };
        let xiangqi = match self.out_xiangqi.as_deref() {
            None | Some("" | "iccs") => XiangqiNotation::Iccs,
            Some(other) => {
                XiangqiNotation::Dialect(super::notation_named(other).ok_or_else(|| {
                    unknown(format!(
                        "unknown xiangqi notation `{other}`; expected iccs or one of: {}",
                        super::notation_names(", ")
                    ))
                })?)
            }
        };
        Ok(MoveStyle { chess, xiangqi })
    }

    fn text(&self) -> Result<&str, ApiError> {
        self.text
            .as_deref()
            .ok_or_else(|| ApiError::bad("missing field `text` (the record, as a string)"))
    }
}

/// The games of `text`, streamed: a scoresheet CSV or PGN and typed movetext.
fn raw_games<'t>(
    text: &'t str,
    csv: bool,
) -> Result<Box<dyn Iterator<Item = io::Result<RawGame>> + 't>, ApiError> {
    Ok(if csv {
        let sheet = ScoresheetReader::new(
            io::BufReader::with_capacity(64 << 10, text.as_bytes()),
            None,
        )
        .map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
        Box::new(sheet.map(|g| g.map(|g| g.raw)))
    } else {
        // read through a buffer of its own, as from a file: a slice handed whole would
        // be split and decoded whole (all its games at once)
        Box::new(ArchiveReader::new(
            io::BufReader::with_capacity(64 << 10, text.as_bytes()),
            ReadOptions::default(),
        ))
    })
}

/// Reads the body of a request: JSON (by its content type), at most [`MAX_BODY`]
/// bytes, valid UTF-8, then the request object.
async fn read_request(headers: &HeaderMap, body: Body) -> Result<Request, ApiError> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let mime = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    if mime != "application/json" {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "expected a JSON body (Content-Type: application/json), found {}",
                if content_type.is_empty() {
                    "no Content-Type".to_owned()
                } else {
                    format!("Content-Type: {content_type}")
                }
            ),
        ));
    }
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "request body larger than {} MB; check a larger file with the command line (kyphu check FILE)",
                MAX_BODY >> 20
            ),
        )
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return Err(too_large());
    }
    let bytes = match tokio::time::timeout(READ_TIMEOUT, axum::body::to_bytes(body, MAX_BODY)).await
    {
        Err(_) => {
            return Err(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body was not sent within {} seconds",
                    READ_TIMEOUT.as_secs()
                ),
            ));
        }
        Ok(Err(e)) => {
            let limit = std::error::Error::source(&e)
                .is_some_and(|s| s.is::<http_body_util::LengthLimitError>())
                || e.to_string().contains("length limit");
            return Err(if limit {
                too_large()
            } else {
                ApiError::bad(format!("cannot read the request body: {e}"))
            });
        }
        Ok(Ok(bytes)) => bytes,
    };
    if let Err(e) = std::str::from_utf8(&bytes) {
        return Err(ApiError::bad(format!(
            "the request body is not valid UTF-8 (at byte {}); send JSON in UTF-8, the record as a JSON string",
            e.valid_up_to()
        )));
    }
    // serde_json refuses nesting deeper than 128 levels (no stack overflow)
    serde_json::from_slice::<Request>(&bytes).map_err(|e| {
        let what = match e.classify() {
            serde_json::error::Category::Data => "a request object of the wrong shape",
            _ => "invalid JSON",
        };
        ApiError::bad(format!("{what}: {e}"))
    })
}

/// Runs `work` on the blocking pool once a job permit is free.
async fn on_pool(
    app: &App,
    work: impl FnOnce() -> Result<Response, ApiError> + Send + 'static,
) -> Result<Response, ApiError> {
    let _permit =
        app.jobs.acquire().await.map_err(|_| {
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping")
        })?;
    tokio::task::spawn_blocking(work).await.map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("internal error: {e}"),
        )
    })?
}

async fn handle(
    app: Arc<App>,
    headers: HeaderMap,
    body: Body,
    work: fn(Request) -> Result<Response, ApiError>,
) -> Response {
    // a body is held from the moment it is read until its answer is made: requests
    // beyond BODIES wait unread, so that memory does not grow with the clients
    let result = match app.bodies.acquire().await {
        Err(_) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is stopping",
        )),
        Ok(_held) => match read_request(&headers, body).await {
            Ok(req) => on_pool(&app, move || work(req)).await,
            Err(e) => Err(e),
        },
    };
    result.unwrap_or_else(IntoResponse::into_response)
}

async fn check(State(app): State<Arc<App>>, headers: HeaderMap, body: Body) -> Response {
    handle(app, headers, body, check_json).await
}

async fn convert(State(app): State<Arc<App>>, headers: HeaderMap, body: Body) -> Response {
    handle(app, headers, body, convert_json).await
}

async fn diff(State(app): State<Arc<App>>, headers: HeaderMap, body: Body) -> Response {
    handle(app, headers, body, diff_json).await
}

async fn board(State(app): State<Arc<App>>, headers: HeaderMap, body: Body) -> Response {
    handle(app, headers, body, board_svg_response).await
}

/// How the moves of a game were read: the piece letters of a chess game (code and
/// name), the notation of a xiangqi game, and whether each was asked for or inferred.
fn reading(game: &Game, req: &Request) -> Value {
    match game.kind() {
        GameKind::Chess => {
            let asked = req.lang.as_deref().filter(|l| *l != "auto");
            let table = asked
                .and_then(kyphu::notation::chess::table)
                .unwrap_or_else(|| table_of(game));
            json!({"lang": table.code, "lang_name": table.name, "inferred": asked.is_none()})
        }
        GameKind::Xiangqi => {
            let asked = req
                .notation
                .as_deref()
                .filter(|n| *n != "auto")
                .and_then(super::notation_named);
            let dialect = asked.unwrap_or_else(|| match &game.start {
                StartPosition::Xiangqi(start) => {
                    let tokens: Vec<&str> =
                        game.moves.moves.iter().map(|n| game.written(n)).collect();
                    kyphu::notation::xiangqi::infer_dialect(start, &tokens).0
                }
                StartPosition::Chess(_) => kyphu::notation::xiangqi::Dialect::Iccs,
            });
            json!({"notation": dialect.to_string(), "inferred": asked.is_none()})
        }
    }
}

/// A game move by move, for the page: each main-line move as written and where, in
/// the output style, its coordinates and the position after it.
fn detail(game: &Game, req: &Request, style: &MoveStyle) -> Value {
    let index = LineIndex::new(&game.source.text, game.source.first_line);
    let mut board = Board::new(&game.start);
    let mut moves = Vec::with_capacity(game.moves.moves.len());
    for (i, node) in game.moves.moves.iter().enumerate() {
        let ply = i as u32 + 1;
        let (number, side) = move_of_ply(game, ply);
        let mut san = String::new();
        let mut coords = String::new();
        board.write_coords(&mut coords, &node.mv);
        board.write_and_play(&mut san, &node.mv, style);
        let at = index.locate(&game.source.text, node.span.start as usize);
        moves.push(json!({
            "ply": ply,
            "move": number,
            "side": side.fold("white", "black"),
            "written": game.written(node),
            "san": san,
            "uci": coords,
            "line": at.line,
            "column": at.column,
            "illegal": node.illegal,
            "fen": board.fen(),
        }));
    }
    let tags = &game.tags;
    json!({
        "game": game.source.game_index + 1,
        "kind": game.kind(),
        "variant": game.variant.name(),
        "status": game.status(),
        "white": tags.get("White").or_else(|| tags.get("Red")),
        "black": tags.get("Black"),
        "result": game.result.as_str(),
        "reading": reading(game, req),
        "start_fen": game.start.fen(),
        "moves": moves,
        "unread": game.unparsed,
    })
}

/// `POST /api/check`: every diagnostic as `kyphu check --format json` writes it, the
/// counts, a summary of each game and the game asked for (`number`) move by move.
fn check_json(req: Request) -> Result<Response, ApiError> {
    let text = req.text()?;
    let name = req.name();
    let read = req.read_args(name)?;
    let options = kyphu::ReplayOptions {
        // every slip of a game in one run, as `kyphu check` (issue 27)
        go_on: true,
        ..read.replay_options(name)?
    };
    let style = req.style()?;
    let min = if req.strict {
        Severity::Note
    } else {
        Severity::Warning
    };
    let wanted = req.number.unwrap_or(1).max(1) - 1;
    let mut counts = Counts::default();
    let mut diagnostics = Vec::new();
    let mut more = 0u64;
    let mut games = Vec::new();
    let mut shown = Value::Null;
    for raw in raw_games(text, req.is_csv(text)?)? {
        let raw =
            raw.map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
        let junk = raw.junk;
        let game = replay(raw, &options);
        let index = LineIndex::new(&game.source.text, game.source.first_line);
        let mut fens = Fens::new(&game);
        for d in game
            .diagnostics
            .iter()
            .filter(|d| d.severity >= min && d.code != Code::EncodingGuessed)
        {
            if diagnostics.len() >= MAX_DIAGNOSTICS {
                more += 1;
                continue;
            }
            let located = Located::new(name, &game, d, &index, &mut fens);
            diagnostics.push(serde_json::to_value(&located).unwrap_or(Value::Null));
        }
        if junk {
            counts.junk += 1;
            continue;
        }
        counts.add(game.status(), Counts::encoding_of(&game));
        if game.source.game_index == wanted {
            shown = detail(&game, &req, &style);
        }
        if games.len() < MAX_GAMES {
            let tags = &game.tags;
            games.push(json!({
                "game": game.source.game_index + 1,
                "kind": game.kind(),
                "status": game.status(),
                "white": tags.get("White").or_else(|| tags.get("Red")),
                "black": tags.get("Black"),
                "plies": game.moves.moves.len(),
                "line": game.source.first_line,
            }));
        }
    }
    let body = json!({
        "counts": {
            "read": counts.read,
            "clean": counts.clean,
            "repaired": counts.repaired,
            "partial": counts.partial,
            "failed": counts.failed,
            "junk": counts.junk,
        },
        "summary": counts.summary(name),
        "diagnostics": diagnostics,
        "diagnostics_not_listed": more,
        "games_not_listed": counts.read.saturating_sub(games.len() as u64),
        "games": games,
        "game": shown,
    });
    Ok(json_response(body.to_string()))
}

/// `POST /api/convert`: the text as `kyphu convert --to pgn|json|csv` writes it
/// (`output`), and for JSON the game objects themselves (`games`).
fn convert_json(req: Request) -> Result<Response, ApiError> {
    let text = req.text()?;
    let name = req.name();
    let read = req.read_args(name)?;
    let options = read.replay_options(name)?;
    let style = req.style()?;
    let to = req.to.as_deref().unwrap_or("pgn");
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the output would be larger than {} MB; convert this file with the command line (kyphu convert FILE)",
                MAX_OUTPUT >> 20
            ),
        )
    };
    let mut counts = Counts::default();
    let mut output: Vec<u8> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    let pgn = PgnOptions {
        reduced: req.reduced,
        moves: style,
        ..PgnOptions::default()
    };
    let json_options = JsonOptions { moves: style };
    let mut csv = match to {
        "pgn" | "json" => None,
        "csv" => Some(ScoresheetWriter::new(
            Vec::new(),
            None::<Vec<u8>>,
            CsvOptions {
                moves: style,
                raw_cells: false,
            },
        )),
        other => {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("unknown output format `{other}`; expected pgn, json or csv"),
            ));
        }
    };
    for raw in raw_games(text, req.is_csv(text)?)? {
        let raw =
            raw.map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
        let junk = raw.junk;
        let game = replay(raw, &options);
        if junk {
            counts.junk += 1;
        } else {
            counts.add(game.status(), Counts::encoding_of(&game));
        }
        // text that is not a game is kept too, as a non-game record
        match (&mut csv, to, junk) {
            (Some(w), _, _) => {
                let wrote = if junk {
                    w.write_non_game(&game.source.text)
                } else {
                    w.write_game(&game)
                };
                wrote
                    .and_then(|()| w.take_moves())
                    .map(|rows| output.extend_from_slice(&rows))
                    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
            }
            (None, "json", true) => {
                lines.push(
                    String::from_utf8_lossy(&kyphu::emit::json::non_game_json(&game)).into_owned(),
                );
            }
            (None, "json", false) => {
                lines.push(kyphu::emit::json::to_json_string(&game, &json_options));
            }
            (None, _, true) => {
                output.extend_from_slice(&kyphu::emit::pgn::non_game_bytes(&game.source.text));
            }
            (None, _, false) => {
                output.extend_from_slice(&kyphu::emit::pgn::to_pgn_bytes(&game, &pgn));
            }
        }
        let len = output.len() + lines.iter().map(String::len).sum::<usize>();
        if len > MAX_OUTPUT {
            return Err(too_large());
        }
    }
    let counts = json!({
        "read": counts.read,
        "clean": counts.clean,
        "repaired": counts.repaired,
        "partial": counts.partial,
        "failed": counts.failed,
        "junk": counts.junk,
    });
    // the game objects are put in as written (each is one JSON object per line)
    let mut body = String::with_capacity(
        output.len() + 2 * lines.iter().map(String::len).sum::<usize>() + 256,
    );
    let _ = write!(body, "{{\"format\":{},\"counts\":{counts}", json!(to));
    if to == "json" {
        body.push_str(",\"games\":[");
        for (i, line) in lines.iter().enumerate() {
            if i > 0 {
                body.push(',');
            }
            body.push_str(line.trim_end());
        }
        body.push(']');
        let joined: String = lines.concat();
        let _ = write!(body, ",\"output\":{}", json!(joined));
    } else {
        let _ = write!(
            body,
            ",\"output\":{}",
            json!(String::from_utf8_lossy(&output))
        );
    }
    body.push('}');
    Ok(json_response(body))
}

/// The game `number` (1 = first) of `text`.
fn load(text: &str, name: &str, req: &Request, number: u64) -> Result<Game, ApiError> {
    let read = req.read_args(name)?;
    let options = read.replay_options(name)?;
    let wanted = number.max(1) - 1;
    for raw in raw_games(text, req.is_csv(text)?)? {
        let raw =
            raw.map_err(|e| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
        if !raw.junk && raw.index == wanted {
            return Ok(replay(raw, &options));
        }
    }
    Err(ApiError::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        format!("{name} has no game {number} (games are numbered from 1)"),
    ))
}

/// `POST /api/diff`: what `kyphu diff` finds, as data.
fn diff_json(req: Request) -> Result<Response, ApiError> {
    let (Some(a), Some(b)) = (req.a.as_deref(), req.b.as_deref()) else {
        return Err(ApiError::bad(
            "missing field `a` or `b` (the two records, as strings)",
        ));
    };
    let number = req.number.unwrap_or(1);
    let style = req.style()?;
    let ga = load(a, "A", &req, number)?;
    let gb = load(b, "B", &req, number)?;
    let (ta, tb) = (table_of(&ga), table_of(&gb));
    let c = compare(&ga, &gb, ta, tb);
    let divergence = match &c.divergence {
        Divergence::Identical => json!({"kind": "identical"}),
        Divergence::Prefix { a_plies, b_plies } => {
            json!({"kind": "prefix", "a_plies": a_plies, "b_plies": b_plies})
        }
        Divergence::Different { at, a, b } => {
            let (number, side) = move_of_ply(&ga, *at);
            json!({"kind": "different", "ply": at, "move": number,
                "side": side.fold("white", "black"), "a": a, "b": b})
        }
        Divergence::Missing {
            at,
            in_record,
            missing,
            agree_after,
        } => {
            let (number, side) = move_of_ply(&ga, *at);
            json!({"kind": "missing", "ply": at, "move": number,
                "side": side.fold("white", "black"), "in": in_record.to_string(),
                "missing": missing, "agree_after": agree_after})
        }
    };
    let mut common = ga.clone();
    common.moves.moves.truncate(c.agreed);
    for node in &mut common.moves.moves {
        node.take_variations();
    }
    common.unparsed = None;
    common.result = kyphu::model::game::GameResult::Unknown;
    let common_pgn = kyphu::emit::pgn::to_pgn_string(
        &common,
        &PgnOptions {
            reduced: true,
            moves: style,
            ..PgnOptions::default()
        },
    );
    let body = json!({
        "same": c.divergence == Divergence::Identical,
        "agreed": c.agreed,
        "divergence": divergence,
        "common_pgn": common_pgn,
        "agreed_fen": agreed_fen(&ga, c.agreed),
        "a": detail(&ga, &req, &style),
        "b": detail(&gb, &req, &style),
    });
    Ok(json_response(body.to_string()))
}

/// `POST /api/board`: the SVG picture of a position (`fen`), with the last move
/// marked (`last`) and seen from either side (`flipped`).
fn board_svg_response(req: Request) -> Result<Response, ApiError> {
    let fen = req
        .fen
        .as_deref()
        .ok_or_else(|| ApiError::bad("missing field `fen`"))?;
    let unprocessable = |m: String| ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, m);
    // ten ranks: xiangqi, unless the game is named
    let xiangqi = match req.game.as_deref() {
        Some("xiangqi") => true,
        Some("chess" | "chess960") => false,
        _ => {
            fen.split_whitespace()
                .next()
                .unwrap_or("")
                .split('/')
                .count()
                == 10
        }
    };
    let board = if xiangqi {
        Board::Xiangqi(
            kyphu::xiangqi::Position::from_fen(fen)
                .map_err(|e| unprocessable(format!("bad xiangqi FEN `{fen}`: {e}")))?,
        )
    } else {
        let parsed = match req.game.as_deref() {
            Some("chess960") => kyphu::chess::Position::from_fen_chess960(fen),
            _ => kyphu::chess::Position::from_fen(fen),
        };
        Board::Chess(parsed.map_err(|e| unprocessable(format!("bad chess FEN `{fen}`: {e}")))?)
    };
    let last = req
        .last
        .as_deref()
        .and_then(|l| LastMove::parse(l, xiangqi));
    let svg = board_svg(
        &board,
        &SvgOptions {
            flipped: req.flipped,
            last,
        },
    );
    Ok((
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("image/svg+xml"),
        )],
        svg,
    )
        .into_response())
}
