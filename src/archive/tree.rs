//! A game tree read from a binary or tagged format (XQF, DhtmlXQ), turned into the
//! [`RawGame`] the PGN reader makes: tags, and movetext elements whose spans index a
//! PGN rendering of the tree written here. The stages after the archive (replay, the
//! writers) see no difference from a PGN game.

use crate::{
    archive::{CommentKind, Element, Limits, MovetextCounts, RawGame, RawTag},
    model::diag::{Code, Diagnostic, Span},
    model::game::GameResult,
    text::DecodeReport,
};

/// One move of a tree (the root, node 0, holds no move).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    /// The move as a token the notation stage reads (ICCS for xiangqi: `h2e2`).
    pub mv: String,
    /// The comment after the move (on the root: the game comment).
    pub comment: Option<String>,
    /// Index of the first child in [`Tree::nodes`]: the continuation, then the
    /// alternatives to it in order (linked through [`Node::next`]).
    pub first: Option<u32>,
    /// The next alternative to this move (its next sibling).
    pub next: Option<u32>,
}

/// A tree of moves in an arena; node 0 is the start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    pub nodes: Vec<Node>,
    /// The last child of each node, to append in constant time.
    last: Vec<Option<u32>>,
}

impl Default for Tree {
    fn default() -> Self {
        Tree::new()
    }
}

impl Tree {
    pub fn new() -> Tree {
        Tree {
            nodes: vec![Node::default()],
            last: vec![None],
        }
    }

    /// Appends a child (as the last alternative) to `parent`; returns its index.
    pub fn push(&mut self, parent: u32, mv: String) -> u32 {
        let id = u32::try_from(self.nodes.len()).unwrap_or(u32::MAX);
        self.nodes.push(Node {
            mv,
            ..Node::default()
        });
        self.last.push(None);
        let p = parent as usize;
        match self.last.get(p).copied().flatten() {
            Some(prev) => self.nodes[prev as usize].next = Some(id),
            None => {
                if let Some(n) = self.nodes.get_mut(p) {
                    n.first = Some(id);
                }
            }
        }
        if let Some(l) = self.last.get_mut(p) {
            *l = Some(id);
        }
        id
    }

    /// The number of moves (nodes but the root).
    pub fn moves(&self) -> usize {
        self.nodes.len() - 1
    }
}

/// A game read from a tree format, before it becomes a [`RawGame`].
pub struct TreeGame {
    /// Tags in order (name, value); `Game`, `FEN` and `Result` are added by
    /// [`TreeGame::into_raw`].
    pub tags: Vec<(String, String)>,
    /// The start position when it is not the standard one (FEN with the side to move).
    pub fen: Option<String>,
    pub tree: Tree,
    pub result: GameResult,
    /// Findings of the reader (no spans: they are about the file, not the text).
    pub diagnostics: Vec<Diagnostic>,
    pub decoding: DecodeReport,
    /// Black moves first (for the move numbers of the rendering).
    pub black_first: bool,
    pub byte_start: u64,
    pub byte_end: u64,
    pub first_line: u64,
}

/// What [`TreeGame::into_raw`] does next.
enum Task {
    /// Write the move `node` (at `ply`, `depth` variations deep), then its
    /// alternatives (if `main`: it is the first child) and its continuation.
    Move {
        node: u32,
        ply: u32,
        depth: u32,
        main: bool,
    },
    /// Open a variation starting at `node`.
    Var { node: u32, ply: u32, depth: u32 },
    /// Close a variation.
    End,
}

impl TreeGame {
    /// The game as the PGN reader would give it: a PGN rendering of the tree as its
    /// text, tags and elements with spans into it. A variation nested deeper than
    /// the limits' depth, or moves beyond the element budget, are left out with an
    /// error naming how many moves were not read.
    pub fn into_raw(self, limits: &Limits) -> RawGame {
        let TreeGame {
            tags,
            fen,
            tree,
            result,
            mut diagnostics,
            decoding,
            black_first,
            byte_start,
            byte_end,
            first_line,
        } = self;
        let mut text = String::with_capacity(256 + tree.nodes.len() * 8);
        let mut raw_tags = Vec::with_capacity(tags.len() + 3);
        let mut all_tags: Vec<(String, String)> = Vec::with_capacity(tags.len() + 3);
        all_tags.push(("Game".into(), "Chinese Chess".into()));
        all_tags.extend(tags);
        if let Some(f) = fen {
            all_tags.push(("FEN".into(), f));
        }
        all_tags.push(("Result".into(), result.as_str().into()));
        for (name, value) in &all_tags {
            let start = text.len();
            text.push('[');
            let ns = text.len();
            text.push_str(name);
            let ne = text.len();
            text.push_str(" \"");
            let vs = text.len();
            let mut escaped = false;
            for c in value.chars() {
                match c {
                    '"' | '\\' => {
                        escaped = true;
                        text.push('\\');
                        text.push(c);
                    }
                    // a tag is one line: line breaks become spaces
                    '\r' | '\n' => text.push(' '),
                    _ => text.push(c),
                }
            }
            let ve = text.len();
            text.push_str("\"]");
            raw_tags.push(RawTag {
                span: Span::from_range(start, text.len()),
                name: Span::from_range(ns, ne),
                value: Span::from_range(vs, ve),
                escaped,
            });
            text.push('\n');
        }
        text.push('\n');

        let mut movetext = Vec::with_capacity(tree.nodes.len() + 8);
        let comment = |text: &mut String, movetext: &mut Vec<Element>, c: &str| {
            text.push_str(" {");
            let bs = text.len();
            text.push_str(c);
            let be = text.len();
            text.push('}');
            movetext.push(Element::Comment {
                kind: CommentKind::Brace,
                closed: true,
                body: Span::from_range(bs, be),
            });
        };
        if let Some(c) = tree.nodes[0].comment.as_deref() {
            comment(&mut text, &mut movetext, c);
        }
        let mut stack = Vec::new();
        if let Some(first) = tree.nodes[0].first {
            stack.push(Task::Move {
                node: first,
                ply: 1,
                depth: 0,
                main: true,
            });
        }
        let mut counts = MovetextCounts::default();
        let mut skipped = 0usize;
        let mut too_deep = 0usize;
        let mut need_number = true;
        while let Some(task) = stack.pop() {
            match task {
                Task::End => {
                    text.push_str(" )");
                    movetext.push(Element::EndVariation {
                        span: Span::from_range(text.len() - 1, text.len()),
                    });
                    need_number = true;
                }
                Task::Var { node, ply, depth } => {
                    if depth as usize > limits.max_depth {
                        too_deep += subtree_size(&tree, node);
                        continue;
                    }
                    text.push_str(" (");
                    movetext.push(Element::StartVariation {
                        span: Span::from_range(text.len() - 1, text.len()),
                    });
                    stack.push(Task::End);
                    stack.push(Task::Move {
                        node,
                        ply,
                        depth,
                        main: false,
                    });
                    need_number = true;
                }
                Task::Move {
                    node,
                    ply,
                    depth,
                    main,
                } => {
                    if movetext.len() >= limits.max_elements {
                        skipped += subtree_size(&tree, node);
                        if main {
                            let mut alt = tree.nodes[node as usize].next;
                            while let Some(a) = alt {
                                skipped += subtree_size(&tree, a);
                                alt = tree.nodes[a as usize].next;
                            }
                        }
                        continue;
                    }
                    let n = &tree.nodes[node as usize];
                    // ply 1 is Red's first move, or Black's when Black starts
                    let black = (ply % 2 == 0) != black_first;
                    let number = (ply + u32::from(black_first)).div_ceil(2);
                    if !black {
                        text.push(' ');
                        text.push_str(itoa::Buffer::new().format(number));
                        text.push('.');
                    } else if need_number {
                        text.push(' ');
                        text.push_str(itoa::Buffer::new().format(number));
                        text.push_str("...");
                    }
                    need_number = false;
                    text.push(' ');
                    let ms = text.len();
                    text.push_str(&n.mv);
                    movetext.push(Element::Move {
                        span: Span::from_range(ms, text.len()),
                        ep: None,
                    });
                    counts.moves += 1;
                    if let Some(c) = n.comment.as_deref() {
                        comment(&mut text, &mut movetext, c);
                        need_number = true;
                    }
                    if let Some(cont) = n.first {
                        stack.push(Task::Move {
                            node: cont,
                            ply: ply + 1,
                            depth,
                            main: true,
                        });
                    }
                    if main {
                        let mut alts = Vec::new();
                        let mut alt = n.next;
                        while let Some(a) = alt {
                            alts.push(a);
                            alt = tree.nodes[a as usize].next;
                        }
                        for &a in alts.iter().rev() {
                            counts.variations = true;
                            stack.push(Task::Var {
                                node: a,
                                ply,
                                depth: depth + 1,
                            });
                        }
                    }
                }
            }
        }
        text.push(' ');
        let rs = text.len();
        text.push_str(result.as_str());
        let result_span = Span::from_range(rs, text.len());
        text.push('\n');
        if too_deep > 0 {
            diagnostics.push(Diagnostic::error(
                Code::VariationTooDeep,
                format!(
                    "variations nested more than {} deep: {too_deep} moves in them not read",
                    limits.max_depth
                ),
            ));
        }
        if skipped > 0 {
            diagnostics.push(Diagnostic::error(
                Code::GameTooLong,
                format!(
                    "the game has more than {} moves, comments and variations: the last {skipped} moves not read",
                    limits.max_elements
                ),
            ));
        }
        let mut all = decoding.diagnostics();
        all.append(&mut diagnostics);
        RawGame {
            index: 0,
            junk: false,
            tags: raw_tags,
            movetext,
            result: Some((result, result_span)),
            text,
            byte_start,
            byte_end,
            first_line,
            decoding,
            diagnostics: all,
            move_letters: None,
            counts: Some(counts),
            sheet: None,
        }
    }
}

/// The moves of the subtree of `node` and of its later siblings' subtrees are not
/// counted: only `node`, its continuation and the alternatives below it.
fn subtree_size(tree: &Tree, node: u32) -> usize {
    let mut n = 0;
    let mut stack = vec![node];
    let mut top = true;
    while let Some(x) = stack.pop() {
        n += 1;
        let nd = &tree.nodes[x as usize];
        if let Some(f) = nd.first {
            stack.push(f);
        }
        if !top && let Some(s) = nd.next {
            stack.push(s);
        }
        top = false;
    }
    n
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::text::EncodingSource;

    #[test]
    fn a_tree_becomes_pgn_movetext() {
        let mut t = Tree::new();
        t.nodes[0].comment = Some("game".into());
        let a = t.push(0, "h2e2".into());
        let b = t.push(0, "b2e2".into());
        t.nodes[b as usize].comment = Some("alt".into());
        let c = t.push(a, "h9g7".into());
        t.push(a, "b9c7".into());
        t.push(c, "h0g2".into());
        let g = TreeGame {
            tags: vec![("Red".into(), "A \"B\"".into())],
            fen: None,
            tree: t,
            result: GameResult::Unknown,
            diagnostics: Vec::new(),
            decoding: DecodeReport {
                encoding: encoding_rs::GB18030.into(),
                source: EncodingSource::Forced,
                had_replacements: false,
            },
            black_first: false,
            byte_start: 0,
            byte_end: 10,
            first_line: 1,
        };
        let raw = g.into_raw(&Limits::default());
        assert!(
            raw.text.ends_with(
                "\n\n {game} 1. h2e2 ( 1. b2e2 {alt} ) 1... h9g7 ( 1... b9c7 ) 2. h0g2 *\n"
            ),
            "{}",
            raw.text
        );
        assert_eq!(raw.tag("Red").unwrap(), "A \"B\"");
        assert_eq!(
            raw.move_tokens().collect::<Vec<_>>(),
            ["h2e2", "b2e2", "h9g7", "b9c7", "h0g2"]
        );
        assert_eq!(
            raw.main_line().collect::<Vec<_>>(),
            ["h2e2", "h9g7", "h0g2"]
        );
    }
}
