//! The views of the battle as the commander knows it: the turn header,
//! `status`, `whereabouts`, `why`, `losses`, the weather and what hides a
//! zone.

use super::*;

/// The columns of a header's opening rule (`── `) and closing one (` ──`).
pub(super) const RULE_OPEN: usize = 3;
pub(super) const RULE_CLOSE: usize = 3;

impl View<'_> {
    /// The turn header: "── Turn 3 · 15:45 · a light wind from the south ──",
    /// 「── 申初三刻（15:45）· 微微南风 ──」 (the clock in the period's terms
    /// names the moment; a turn number would mean nothing to the reader).
    /// One of the scene's obscurants hiding a zone, or lifting, in its own name.
    pub(super) fn obscurant_line(&self, zone: usize, by: usize, thick: bool) -> String {
        let l = self.locale;
        let name = self
            .scene
            .obscurants()
            .nth(by)
            .map(|(_, o)| o.name.get(l).to_string())
            .unwrap_or_default();
        let key = if thick {
            Detail::Obscured
        } else {
            Detail::Unobscured
        };
        fill(
            template(l, key),
            &[("name", name), ("zone", self.zone_name(zone))],
        )
    }

    /// The turn header: "── Turn 3 · 15:45 · a fresh wind, blowing north ──".
    pub fn turn_header(&self, turn: u32, minute: u32) -> String {
        self.turn_header_in(turn, minute, &self.known.weather)
    }

    /// [`View::turn_header`] with the wind as it blew then (a quiet turn
    /// told once a later one has been played).
    pub fn turn_header_in(
        &self,
        turn: u32,
        minute: u32,
        weather: &crate::sim::weather::Weather,
    ) -> String {
        let l = self.locale;
        let wind = super::wind_phrase(l, weather.wind, weather.toward);
        let head = msg(
            l,
            ViewMsg::TurnHeader {
                turn,
                minute,
                wind: &wind,
            },
        );
        self.rule(&head)
    }

    /// The header of quiet turns told together: "── Turns 3–6 · 15:15 to 16:00 ──".
    /// A header between rules; the closing rule is left off when it would
    /// not fit the line (it would wrap onto a line of its own).
    pub(super) fn rule(&self, head: &str) -> String {
        // The head measured once: each rule and space around it is a column.
        let w = width(head);
        if w + RULE_OPEN + RULE_CLOSE <= self.style.columns {
            self.style.bold(&format!("── {head} ──"))
        } else if w + RULE_OPEN <= self.style.columns {
            self.style.bold(&format!("── {head}"))
        } else {
            let open = format!("── {head}");
            // Too wide even without its closing rule: wrapped at a word, as
            // the terminal would otherwise break it mid-word.
            let wrapped = wrap(&open, self.style.columns, "   ");
            self.style
                .bold(wrapped.strip_prefix("   ").unwrap_or(&wrapped))
        }
    }

    pub fn turns_header(&self, first: u32, last: u32, from: u32, to: u32) -> String {
        self.turns_header_in((first, last), (from, to), &self.known.weather)
    }

    /// [`View::turns_header`] with the wind as it blew at the last of them.
    pub fn turns_header_in(
        &self,
        (first, last): (u32, u32),
        (from, to): (u32, u32),
        weather: &crate::sim::weather::Weather,
    ) -> String {
        let l = self.locale;
        let wind = super::wind_phrase(l, weather.wind, weather.toward);
        let head = msg(
            l,
            ViewMsg::TurnsHeader {
                first,
                last,
                from,
                to,
                wind: &wind,
            },
        );
        self.rule(&head)
    }

    /// `status` with no order on its way.
    pub fn status(&self) -> String {
        self.status_with(&[])
    }

    /// `status`: every unit the player can see, with strength, state and a
    /// morale bar, under headings; as a list when the table would not fit.
    /// `status`, with the orders on their way (`couriers`), which say why a
    /// unit has not moved yet.
    pub fn status_with(&self, couriers: &[crate::story::Courier]) -> String {
        let l = self.locale;
        let head: Vec<String> = catalogue::status_head(l)
            .iter()
            .map(|h| h.to_string())
            .collect();
        let mut sides: Vec<usize> = (0..self.scene.sides().len()).collect();
        sides.sort_by_key(|s| *s != self.side);
        // Per side: its heading and its rows (None: a unit out of sight).
        let mut groups: Vec<(String, Vec<StatusRow>)> = Vec::new();
        for side in sides {
            let mine = if side == self.side {
                ui(l, Ui::YourSide)
            } else {
                ""
            };
            let heading = self
                .style
                .bold(&capitalize(&format!("{}{mine}", self.side_name(side))));
            let mut rows = Vec::new();
            if side == self.side {
                rows = self.own_status_rows(couriers);
            } else {
                // The other side as the picture holds it: only units that
                // were ever seen or reported, with estimates, never morale.
                for (name, sighting) in self.enemy_groups(side) {
                    rows.push((capitalize(&name), Some(self.sighting_cells(&sighting))));
                }
                if rows.is_empty() {
                    rows.push((self.style.dim(ui(l, Ui::NoneSeen)), None));
                }
            }
            groups.push((heading, rows));
        }
        let unknown = String::new();
        // The table: widths from every row, the men right-aligned.
        let mut widths = head.iter().map(|h| width(h)).collect::<Vec<_>>();
        for (_, rows) in &groups {
            for (name, cells) in rows {
                widths[0] = widths[0].max(width(name));
                match cells {
                    Some(cells) => {
                        for (i, cell) in cells.iter().enumerate() {
                            widths[i + 1] = widths[i + 1].max(width(cell));
                        }
                    }
                    None => widths[1] = widths[1].max(width(&unknown)),
                }
            }
        }
        let total = 2 + widths.iter().sum::<usize>() + 2 * (widths.len() - 1);
        let mut lines = vec![wrap(&self.whereabouts(), self.style.columns, "")];
        if total <= self.style.columns {
            let row = |cells: &[String]| {
                let mut line = String::from("  ");
                for (i, cell) in cells.iter().enumerate() {
                    let w = widths[i];
                    if i == 2 {
                        line.push_str(&" ".repeat(w.saturating_sub(width(cell))));
                        line.push_str(cell);
                    } else if i + 1 == cells.len() {
                        line.push_str(cell);
                    } else {
                        line.push_str(&pad(cell, w));
                    }
                    if i + 1 < cells.len() {
                        line.push_str("  ");
                    }
                }
                line.trim_end().to_string()
            };
            lines.push(self.style.dim(&row(&head)));
            for (heading, rows) in groups {
                lines.push(heading);
                for (name, cells) in rows {
                    match cells {
                        Some([a, b, c, d]) => lines.push(row(&[name, a, b, c, d])),
                        None => lines.push(row(&[name, unknown.clone()])),
                    }
                }
            }
        } else {
            // Too narrow for the table: each unit on a line, its numbers below.
            let sep = " · ";
            for (heading, rows) in groups {
                lines.push(heading);
                for (name, cells) in rows {
                    lines.push(wrap(&name, self.style.columns, "  "));
                    let detail = match cells {
                        Some([place, men, morale, state]) => {
                            let men = if men.is_empty() || men.ends_with(ui(l, Ui::UnknownNumbers))
                            {
                                men
                            } else {
                                msg(l, ViewMsg::MenCell { men: &men })
                            };
                            // The bar, its figure and the state move as one.
                            let morale = morale.split_whitespace().collect::<Vec<_>>();
                            let state = if morale.is_empty() {
                                state
                            } else {
                                let keep = KEEP.to_string();
                                format!("{}{KEEP}{state}", morale.join(&keep))
                            };
                            [place, men, state]
                                .into_iter()
                                .filter(|cell| !cell.is_empty())
                                .collect::<Vec<_>>()
                                .join(sep)
                        }
                        None => unknown.clone(),
                    };
                    lines.push(wrap(&detail, self.style.columns, "      "));
                }
            }
        }
        lines.join("\n")
    }

    /// `status`'s rows for the player's own units: where each is, its men,
    /// its morale as a bar and a figure, its state (with the age of the word
    /// it came by, and why it is held up); a unit with no men left as
    /// destroyed, where it was last.
    fn own_status_rows(&self, couriers: &[crate::story::Courier]) -> Vec<StatusRow> {
        let l = self.locale;
        let mut rows = Vec::new();
        for (idx, word) in self.known.own.iter().enumerate() {
            let Some(word) = word else { continue };
            let unit = &word.record;
            if self.unit_side(idx) != self.side || !unit.location.present {
                continue;
            }
            let name = capitalize(&self.unit_name(idx));
            // No men left: it has left the field, where it was last.
            if unit.men == 0 {
                rows.push((
                    name,
                    Some([
                        capitalize(&self.zone_name(unit.location.zone())),
                        String::new(),
                        String::new(),
                        ui(l, Ui::UnitDestroyed).to_string(),
                    ]),
                ));
                continue;
            }
            let filled = (unit.morale.value / 10.0).round().clamp(0.0, 10.0) as usize;
            let bar = format!("{}{}", "█".repeat(filled), "░".repeat(10 - filled));
            let mut state = state_name(l, unit.location.state()).to_string();
            if word.turn < self.known.turn {
                state = self.stale(&state, word.turn);
            }
            if let Some(why) = self.stuck(idx, couriers) {
                state = format!("{state}{}{}", ui(l, Ui::ClauseSep), ui(l, why));
            }
            rows.push((
                name,
                Some([
                    capitalize(&self.zone_name(unit.location.zone())),
                    group_thousands(unit.men),
                    format!("{bar} {:>3.0}", unit.morale.value),
                    state,
                ]),
            ));
        }
        rows
    }

    /// A state or place with the age of the word that gave it: "holding
    /// (word of 15:45)", 「坚守（15:45消息）」.
    pub(super) fn stale(&self, what: &str, turn: u32) -> String {
        let at = clock(self.minute_of(turn));
        msg(self.locale, ViewMsg::Stale { what, at: &at })
    }

    /// The clock minute of a turn.
    pub(crate) fn minute_of(&self, turn: u32) -> u32 {
        let meta = self.scene.meta();
        meta.start_minute
            .saturating_add(turn.saturating_mul(meta.turn_minutes))
    }

    /// Where the commander stands and what he sees from there: "You are at
    /// the main camp; you see the south bank and the ford." (issue 20).
    pub fn whereabouts(&self) -> String {
        let l = self.locale;
        let picture = &self.known.picture;
        let Some(at) = picture.at.filter(|_| !picture.fallen) else {
            return ui(l, Ui::NotInField).to_string();
        };
        let seen: Vec<String> = picture
            .sees
            .iter()
            .enumerate()
            .filter(|&(z, &s)| s && z != at)
            .map(|(z, _)| self.zone_name(z))
            .collect();
        let here = self.zone_name(at);
        let blind_here = !picture.sees.get(at).copied().unwrap_or(false);
        let smoky = self
            .known
            .zones
            .get(at)
            .is_some_and(|z| z.burning.smoke >= self.field.rules.smoke_blind);
        let text = msg(
            l,
            ViewMsg::Whereabouts {
                here: &here,
                blind: blind_here,
                smoky,
                seen: &seen,
            },
        );
        capitalize(&text)
    }

    /// `why`: what moved each of the player's units' morale last turn, of
    /// those whose word of this turn came as things happened. Of one whose
    /// word a text alone brought, only that: the text said how it stands,
    /// not why.
    pub fn why(&self) -> String {
        let mut lines = Vec::new();
        for (idx, word) in self.known.own.iter().enumerate() {
            if self.unit_side(idx) != self.side {
                continue;
            }
            if word.is_some() && self.known.picture.units_told.contains(&idx) {
                lines.push(format!(
                    "{}{}{}",
                    capitalize(&self.unit_name(idx)),
                    ui(self.locale, Ui::Colon),
                    ui(self.locale, Ui::WhyToldOnly)
                ));
                continue;
            }
            let Some(word) = word.as_ref().filter(|_| self.known.heard_now(idx)) else {
                continue;
            };
            let unit = &word.record;
            if unit.morale.last().is_empty() {
                continue;
            }
            // One term per cause (a turn of several quarter-hours notes a
            // cause at each), in the order first met, in whole points;
            // what rounds to nothing is left out.
            let mut merged: Vec<(crate::sim::morale::Modifier, f64)> = Vec::new();
            for (modifier, delta) in unit.morale.last() {
                match merged.iter_mut().find(|(m, _)| m == modifier) {
                    Some((_, total)) => *total += delta,
                    None => merged.push((*modifier, *delta)),
                }
            }
            let parts: Vec<String> = merged
                .iter()
                .filter(|(_, delta)| delta.round() != 0.0)
                .map(|(modifier, delta)| {
                    format!(
                        "{} {:+.0}",
                        modifier_name(self.locale, *modifier),
                        delta.round()
                    )
                })
                .collect();
            if parts.is_empty() {
                continue;
            }
            let sep = ui(self.locale, Ui::ClauseSep);
            lines.push(format!(
                "{}{}{}",
                capitalize(&self.unit_name(idx)),
                ui(self.locale, Ui::Colon),
                parts.join(sep)
            ));
        }
        if lines.is_empty() {
            return ui(self.locale, Ui::NoWhy).to_string();
        }
        lines
            .into_iter()
            .map(|l| wrap(&l, self.style.columns, "  ").trim_start().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The losses table of the ending screen: the player's own side as
    /// counted, the other side as he reckons it (the reveal tells the truth).
    pub fn losses(&self) -> String {
        let l = self.locale;
        let mut lines = Vec::new();
        for side in 0..self.scene.sides().len() {
            let name = self.side_name(side);
            if side == self.side {
                let left = self.known.own_men();
                // Men brought: of the units that came to the field.
                let brought: u32 = self
                    .known
                    .own
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| w.as_ref().is_some_and(|w| w.record.location.present))
                    .filter_map(|(i, _)| self.field.units.get(i))
                    .map(|u| u.start_men)
                    .sum();
                let lost = catalogue::count(l, brought.saturating_sub(left));
                let left = catalogue::count(l, left);
                lines.push(msg(
                    l,
                    RevealMsg::OwnLosses {
                        side: &name,
                        lost: &lost,
                        left: &left,
                    },
                ));
            } else {
                let standing = match self.known.picture.reckon(
                    self.field,
                    crate::picture::Body::Side,
                    |_, u| u.side == side,
                ) {
                    Reckoning::About(men) => Some(self.said(men, Sure::Estimated)),
                    Reckoning::Rough(men) => Some(self.said(men, Sure::Rough)),
                    Reckoning::Unknown => None,
                };
                lines.push(msg(
                    l,
                    RevealMsg::TheirReckoning {
                        side: &name,
                        men: standing.as_deref(),
                    },
                ));
            }
        }
        lines
            .iter()
            .map(|line| {
                let wrapped = wrap(line.trim_start(), self.style.columns, "    ");
                format!("  {}", wrapped.trim_start())
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// A line about the weather where the player's commander is.
    pub fn weather_line(&self, zone: usize) -> String {
        let l = self.locale;
        let smoke = self
            .known
            .zones
            .get(zone)
            .map(|z| z.burning.smoke)
            .unwrap_or(0.0);
        let weather = &self.known.weather;
        let wind = super::wind_phrase(l, weather.wind, weather.toward);
        msg(
            l,
            ViewMsg::WeatherLine {
                wind: &wind,
                zone: &self.zone_name(zone),
                smoke: smoke_words(l, self.field, smoke),
            },
        )
    }
}
