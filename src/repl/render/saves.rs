//! The `saves` table: the slots of the folder, newest first.

use super::*;

/// The `saves` table, in the player's language: slot, battle, role, turn and
/// time, or why a slot cannot be read; as a list when the table would not
/// fit `columns`.
pub fn saves_table(dir: &std::path::Path, locale: Locale, columns: usize) -> String {
    saves_table_of(dir, crate::save::list(dir), locale, columns)
}

/// The `saves` table of the rows `rows` (the folder's, as [`crate::save::list`]
/// read them, and perhaps [`crate::save::reached`] took on).
pub fn saves_table_of(
    dir: &std::path::Path,
    rows: Result<Vec<crate::save::SlotInfo>, crate::save::SaveError>,
    locale: Locale,
    columns: usize,
) -> String {
    use crate::save;
    let mut rows = match rows {
        Ok(rows) => rows,
        Err(err) => return wrap(&catalogue::save_error(locale, &err), columns, ""),
    };
    // Newest first (the game just saved at the top), unreadable files last;
    // slots of one second in name order.
    rows.sort_by_key(|row| std::cmp::Reverse(row.summary.as_ref().map_or(0, |s| s.saved_at)));
    if rows.is_empty() {
        let text = msg(
            locale,
            ViewMsg::SavesIn {
                dir: &dir.display().to_string(),
            },
        );
        return wrap(&text, columns, "");
    }
    let head = catalogue::saves_head(locale);
    let unreadable = ui(locale, Ui::Unreadable);
    let mut table = vec![head.iter().map(|s| s.to_string()).collect::<Vec<_>>()];
    for row in &rows {
        table.push(match &row.summary {
            Ok(s) => vec![
                row.slot.clone(),
                s.scene.clone(),
                s.role.clone(),
                s.turn.to_string(),
                save::timestamp(s.saved_at),
            ],
            Err(err) => {
                let why = catalogue::short_reason(locale, err);
                vec![row.slot.clone(), format!("{unreadable} ({why})")]
            }
        });
    }
    let widths: Vec<usize> = (0..5)
        .map(|c| {
            table
                .iter()
                .filter(|r| r.len() == 5)
                .filter_map(|r| r.get(c))
                .map(|cell| width(cell))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line_of = |r: &Vec<String>| {
        r.iter()
            .zip(&widths)
            .map(|(cell, w)| pad(cell, *w))
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    let fits = widths.iter().sum::<usize>() + 8 <= columns
        && table.iter().all(|r| width(&line_of(r)) <= columns);
    if fits {
        return table.iter().map(line_of).collect::<Vec<_>>().join("\n");
    }
    // Too narrow: one slot to a line, what it holds below.
    let mut lines = Vec::new();
    for r in table.iter().skip(1) {
        lines.push(wrap(&r[0], columns, ""));
        let detail = if r.len() == 5 {
            let turn = msg(locale, ViewMsg::SaveTurn { turn: &r[3] });
            format!("{} · {} · {turn} · {} UTC", r[1], r[2], r[4])
        } else {
            r[1].clone()
        };
        lines.push(wrap(&detail, columns, "    "));
    }
    lines.join("\n")
}
