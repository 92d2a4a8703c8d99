//! `map list`: the zones as boxes side by side where a road joins them,
//! with what the commander knows stands in each.

use super::*;

impl View<'_> {
    /// `map list`: the zones listed north to south, with smoke, fire and
    /// the men seen.
    pub fn map_list(&self) -> String {
        let mut rows: Vec<i32> = self.scene.zones().iter().map(|z| z.at.1).collect();
        rows.sort_unstable_by(|a, b| b.cmp(a));
        rows.dedup();
        let mut lines = vec![wrap(&self.whereabouts(), self.style.columns, "")];
        let l = self.locale;
        lines.push(self.style.dim(ui(l, Ui::NorthUp)));
        for y in &rows {
            let mut zones: Vec<usize> = (0..self.scene.zones().len())
                .filter(|z| self.scene.zones()[*z].at.1 == *y)
                .collect();
            zones.sort_by_key(|z| self.scene.zones()[*z].at.0);
            let cells: Vec<String> = zones.iter().map(|&z| self.zone_cell(z)).collect();
            // The row of zones, broken before a " ─ " where it would not fit.
            // A cell wider than the line itself is wrapped.
            let columns = self.style.columns;
            let fit = |row: String| {
                if width(&row) > columns {
                    wrap(&row, columns, "    ")
                } else {
                    row
                }
            };
            // Two zones side by side are joined by " ─ " only where a road
            // runs between them; every other road is listed under the row.
            let adjacent = |a: usize, b: usize| self.scene.adjacent(a).contains(&b);
            let mut row = String::new();
            for (k, cell) in cells.into_iter().enumerate() {
                let link = if k > 0 && adjacent(zones[k - 1], zones[k]) {
                    " ─ "
                } else {
                    "   "
                };
                if row.is_empty() {
                    row = cell;
                } else if width(&row) + 3 + width(&cell) <= columns {
                    row.push_str(link);
                    row.push_str(&cell);
                } else {
                    lines.push(fit(std::mem::take(&mut row)));
                    row = format!(" {link}{cell}");
                }
            }
            if !row.is_empty() {
                lines.push(fit(row));
            }
            let sep = ui(l, Ui::ItemSep);
            for &z in &zones {
                let units = self.zone_units(z);
                if units.is_empty() {
                    continue;
                }
                let line = if zones.len() > 1 {
                    let colon = ui(l, Ui::Colon);
                    format!(
                        "{}{colon}{}",
                        capitalize(&self.zone_name(z)),
                        units.join(sep)
                    )
                } else {
                    units.join(sep)
                };
                lines.push(wrap(&line, self.style.columns, "    "));
            }
            // The roads from this row not drawn in it, each once: to a zone
            // of a row below, or to one of its own row not beside it.
            for (k, &z) in zones.iter().enumerate() {
                let others: Vec<String> = self
                    .scene
                    .adjacent(z)
                    .iter()
                    .filter(|&&o| {
                        let at = self.scene.zones()[o].at.1;
                        let beside = zones
                            .iter()
                            .position(|&x| x == o)
                            .is_some_and(|p| p + 1 == k || k + 1 == p);
                        at < *y || (at == *y && o > z && !beside)
                    })
                    .map(|&o| self.zone_name(o))
                    .collect();
                if others.is_empty() {
                    continue;
                }
                let list = others.join(ui(l, Ui::ListSep));
                let line = format!("    │ {} ─ {list}", capitalize(&self.zone_name(z)));
                lines.push(self.style.dim(&wrap(&line, self.style.columns, "      ")));
            }
        }
        let legend = ui(l, Ui::Legend);
        lines.push(wrap(&self.style.dim(legend), self.style.columns, ""));
        lines.join("\n")
    }
}
