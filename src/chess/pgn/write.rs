//! The PGN writer: tags, then the movetext with comments, NAGs and variations, wrapped at 80
//! columns.

use super::*;

impl PgnGame {
    /// The game as PGN text, movetext wrapped at 80 columns.
    pub fn to_pgn(&self) -> String {
        let mut s = String::new();
        let mut tags = self.tags.clone();
        if self.start != Board::startpos() && self.tag("FEN").is_none() {
            // Readers that know Chess960 (lichess, python-chess, cutechess) need the tag to read
            // its castling rights and moves.
            if self.start.is_chess960() && self.tag("Variant").is_none() {
                tags.push(("Variant".into(), "Chess960".into()));
            }
            tags.push(("SetUp".into(), "1".into()));
            tags.push(("FEN".into(), self.start.to_fen()));
        }
        for (n, v) in &tags {
            let v = v.replace('\\', "\\\\").replace('"', "\\\"");
            s.push_str(&format!("[{n} \"{v}\"]\n"));
        }
        if !tags.is_empty() {
            s.push('\n');
        }
        let mut words = Vec::new();
        comment_words(&self.comments, &mut words);
        line_words(&self.start, &self.moves, &mut words);
        words.push(self.result.clone());
        let mut line = String::new();
        for w in words {
            // A line that began with '%' would be read as an escape line: such a word stays on
            // the line before, however long.
            if !line.is_empty()
                && line.chars().count() + 1 + w.chars().count() > 79
                && !w.starts_with('%')
            {
                s.push_str(&line);
                s.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&w);
            // A `;` comment runs to the end of its line.
            if w.starts_with(';') {
                s.push_str(&line);
                s.push('\n');
                line.clear();
            }
        }
        s.push_str(&line);
        s.push('\n');
        s
    }
}

fn comment_words(comments: &[String], out: &mut Vec<String>) {
    for c in comments {
        if c.contains('}') {
            // A brace comment cannot hold '}' (a `;` comment read it): write it as one again,
            // and the writer ends the line after it.
            out.push(format!(";{c}"));
            continue;
        }
        // Words to wrap between, except inside a `[%command …]`, which stays on one line for
        // readers that look for it with a simple pattern.
        let mut atoms: Vec<String> = Vec::new();
        let mut open = false;
        for w in c.split_whitespace() {
            match atoms.last_mut() {
                Some(last) if open => {
                    last.push(' ');
                    last.push_str(w);
                }
                _ => atoms.push(w.to_string()),
            }
            if w.starts_with("[%") {
                open = true;
            }
            if w.ends_with(']') {
                open = false;
            }
        }
        // `{ text }` with spaces inside the braces, as lichess writes comments.
        match atoms.len() {
            0 => out.push("{ }".into()),
            n => {
                atoms[0].insert_str(0, "{ ");
                atoms[n - 1].push_str(" }");
                out.extend(atoms);
            }
        }
    }
}

/// The words of a line: move numbers, SAN, NAGs, comments and variations, in PGN's order.
fn line_words(start: &Board, moves: &[PgnMove], out: &mut Vec<String>) {
    let mut board = *start;
    // A black move needs its number at the start of a line and after a comment or variation.
    let mut need_number = true;
    for m in moves {
        // The number and its move are one unit, never split over two lines.
        let white = board.side_to_move() == Color::White;
        let mut san = if white {
            format!("{}. ", board.fullmove_number())
        } else if need_number {
            format!("{}... ", board.fullmove_number())
        } else {
            String::new()
        };
        san.push_str(&board.san(m.mv));
        let mut rest = Vec::new();
        for (k, &n) in m.nags.iter().enumerate() {
            match nag_suffix(n) {
                // A first glyph among the six common ones is written as people write it: `Qxd4??`.
                Some(sfx) if k == 0 => san.push_str(sfx),
                _ => rest.push(format!("${n}")),
            }
        }
        out.push(san);
        out.extend(rest);
        comment_words(&m.comments, out);
        for v in &m.variations {
            let mut inner = Vec::new();
            comment_words(&v.comments, &mut inner);
            line_words(&board, &v.moves, &mut inner);
            // Parentheses join their neighbours, except a `;` comment's: it must stay first on
            // its word and its line must end with it.
            match inner.first_mut() {
                Some(w) if !w.starts_with(';') => w.insert(0, '('),
                _ => inner.insert(0, "(".into()),
            }
            match inner.last_mut() {
                Some(w) if !w.starts_with(';') && w != "(" => w.push(')'),
                Some(w) if w == "(" => w.push(')'),
                _ => inner.push(")".into()),
            }
            out.extend(inner);
        }
        need_number = !m.comments.is_empty() || !m.variations.is_empty();
        board = board.after(m.mv);
    }
}
