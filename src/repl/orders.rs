//! `order` at the prompt: the verbs and names the player types, in every
//! language, and what is said of the orders given and refused.

use super::*;

/// The verbs of `order`, in English and Chinese.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Verb {
    Hold,
    Advance,
    Attack,
    Withdraw,
    Rally,
}

/// The verbs as typed in English (the Chinese ones are whole words, not typos' targets).
const VERBS: [&str; 5] = ["hold", "advance", "attack", "withdraw", "rally"];

pub(super) fn verb(word: &str) -> Option<Verb> {
    Some(match word.to_lowercase().as_str() {
        "hold" | "坚守" | "堅守" => Verb::Hold,
        "advance" | "前进" | "前進" | "进至" | "進至" => Verb::Advance,
        "attack" | "进攻" | "進攻" => Verb::Attack,
        "withdraw" | "撤退" => Verb::Withdraw,
        "rally" | "收拢" | "收攏" => Verb::Rally,
        _ => return None,
    })
}

/// A name in every language it is written in.
pub(super) fn names(text: &crate::scene::Text) -> Vec<&str> {
    match text {
        crate::scene::Text::Plain(name) => vec![name.as_str()],
        crate::scene::Text::Localized(map) => map.values().collect(),
    }
}

/// Why words name no one thing: the nearest (a typo's), if any, or the
/// several they could be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Miss<'a> {
    Near(Option<&'a str>),
    Several(Vec<&'a str>),
}

/// The most things a [`Miss::Several`] names.
const MOST_NAMED: usize = 4;

/// The id whose id or name (in any language) the words give: exactly,
/// else the one that begins so (case and a leading "the" aside). Else the
/// several that begin so, or the nearest by its id or a name, whole or its
/// beginning (`plian-blue` for `plain-blue-…`): a typo's target.
pub(super) fn find<'a>(words: &str, items: &[(&'a str, Vec<&str>)]) -> Result<&'a str, Miss<'a>> {
    // Case, a leading "the", and hyphens or underscores for spaces aside:
    // `old-mill` is "The old mill".
    let norm = |s: &str| {
        let lower = s.trim().to_lowercase().replace(['-', '_'], " ");
        let lower = lower.split_whitespace().collect::<Vec<_>>().join(" ");
        lower
            .strip_prefix("the ")
            .map(str::to_string)
            .unwrap_or(lower)
    };
    let wanted = norm(words);
    if wanted.is_empty() {
        return Err(Miss::Near(None));
    }
    // Each item's id and names, normalised once.
    let said: Vec<(&'a str, Vec<String>)> = items
        .iter()
        .map(|(id, names)| {
            let mut all = vec![norm(id)];
            all.extend(names.iter().map(|n| norm(n)));
            (*id, all)
        })
        .collect();
    let exact: Vec<&str> = (said.iter())
        .filter(|(_, all)| all.contains(&wanted))
        .map(|(id, _)| *id)
        .collect();
    if let [one] = exact.as_slice() {
        return Ok(one);
    }
    let begins: Vec<&str> = (said.iter())
        .filter(|(_, all)| all.iter().any(|n| n.starts_with(&wanted)))
        .map(|(id, _)| *id)
        .collect();
    match begins.as_slice() {
        [one] => return Ok(one),
        [] => {}
        several => {
            return Err(Miss::Several(
                several.iter().take(MOST_NAMED).copied().collect(),
            ));
        }
    }
    Err(nearest(&wanted, &said))
}

/// The items nearest `wanted` by edit distance to an id or name, whole (as
/// [`crate::scene::diag::closest`] allows) or to its beginning as long as
/// the words (a quarter of their characters may differ): none, the one,
/// or the several as near.
fn nearest<'a>(wanted: &str, said: &[(&'a str, Vec<String>)]) -> Miss<'a> {
    use crate::scene::diag::edit_distance;
    let len = wanted.chars().count();
    // Past this a word is no typo of a name (and distance costs its square).
    if len > 64 {
        return Miss::Near(None);
    }
    let distance = |name: &str| {
        let whole = edit_distance(wanted, name);
        let whole = (whole <= (name.chars().count() / 3).max(2)).then_some(whole);
        let begin: String = name.chars().take(len).collect();
        let begun = (len >= 4 && begin.chars().count() == len)
            .then(|| edit_distance(wanted, &begin))
            .filter(|d| *d <= len / 4);
        whole.into_iter().chain(begun).min()
    };
    let scored: Vec<(usize, &'a str)> = (said.iter())
        .filter_map(|(id, all)| {
            all.iter()
                .filter_map(|n| distance(n))
                .min()
                .map(|d| (d, *id))
        })
        .collect();
    let Some(best) = scored.iter().map(|(d, _)| *d).min() else {
        return Miss::Near(None);
    };
    let at_best: Vec<&str> = (scored.iter())
        .filter(|(d, _)| *d == best)
        .map(|(_, id)| *id)
        .take(MOST_NAMED)
        .collect();
    match at_best.as_slice() {
        [one] => Miss::Near(Some(one)),
        _ => Miss::Several(at_best),
    }
}

pub(super) fn not_found(locale: Locale, words: &str, miss: &Miss, zone: bool) -> String {
    let words = commands::shorten(words, 30);
    match miss {
        Miss::Near(near) => msg(
            locale,
            PromptMsg::NotFound {
                words: &words,
                near: *near,
                zone,
            },
        ),
        Miss::Several(several) => msg(
            locale,
            PromptMsg::Several {
                words: &words,
                several,
                zone,
            },
        ),
    }
}

/// Own units' orders in force (by unit) and the orders on their way.
pub(super) type OwnOrders = (
    Vec<(usize, crate::sim::movement::UnitOrder)>,
    Vec<crate::story::Courier>,
);

impl Session<'_> {
    /// `order UNIT VERB [ZONE]`: finds the unit and the zone by id or name
    /// (English or Chinese, a unique beginning is enough), then sends it.
    pub(super) fn order(&mut self, args: &[String]) {
        let l = self.options.locale;
        let usage = ui(l, Ui::OrderUsage);
        let verb_at = args.iter().position(|w| verb(w).is_some());
        let Some(verb_at) = verb_at.filter(|at| *at > 0) else {
            // A verb mistyped (`advnce`): name the one meant, then the form.
            let near = args.iter().skip(1).find_map(|w| {
                let word = w.to_lowercase();
                crate::scene::diag::closest(&word, VERBS).map(|near| (w, near))
            });
            match near {
                Some((word, near)) => {
                    let word = commands::shorten(word, 30);
                    let text = msg(
                        l,
                        PromptMsg::NotAnOrder {
                            word: &word,
                            near,
                            usage,
                        },
                    );
                    self.say_wrapped(&text, "");
                }
                None => self.say_wrapped(usage, ""),
            }
            return;
        };
        let unit_words = args[..verb_at].join(" ");
        let zone_words = args[verb_at + 1..].join(" ");
        let scene = self.game.scene_arc();
        let own = self.game.player_units();
        let units: Vec<(&str, Vec<&str>)> = own
            .iter()
            .filter_map(|i| scene.units().get(*i))
            .map(|u| (u.id.as_str(), names(&u.name)))
            .collect();
        // The player's words become ids here, at the edge.
        let unit = match find(&unit_words, &units) {
            Ok(id) => match scene.unit_idx(id) {
                Some(idx) => UnitId::at(idx),
                None => return,
            },
            Err(miss) => {
                self.say_wrapped(&not_found(l, &unit_words, &miss, false), "");
                return;
            }
        };
        let needs_zone = matches!(verb(&args[verb_at]), Some(Verb::Advance | Verb::Attack));
        if needs_zone && zone_words.trim().is_empty() {
            // `order X attack` with no place: say how, not "no place named ''".
            self.say_wrapped(usage, "");
            return;
        }
        let zone = if needs_zone {
            let labels: Vec<String> = (0..scene.zones().len()).map(drawn::zone_label).collect();
            let zones: Vec<(&str, Vec<&str>)> = scene
                .zones()
                .iter()
                .zip(&labels)
                .map(|(z, label)| {
                    let mut names = names(&z.name);
                    names.push(label.as_str());
                    (z.id.as_str(), names)
                })
                .collect();
            // A letter the map prints names its place, whatever else begins so.
            let by_label = drawn::zone_of_label(&scene, &zone_words)
                .and_then(|z| scene.zones().get(z))
                .map(|z| z.id.as_str());
            match by_label
                .ok_or(Miss::Near(None))
                .or_else(|_| find(&zone_words, &zones))
            {
                Ok(id) => match scene.zone_idx(id) {
                    Some(idx) => Some(ZoneId::at(idx)),
                    None => return,
                },
                Err(miss) => {
                    self.say_wrapped(&not_found(l, &zone_words, &miss, true), "");
                    return;
                }
            }
        } else {
            if !zone_words.is_empty() {
                self.say_wrapped(usage, "");
                return;
            }
            None
        };
        let order = match (verb(&args[verb_at]), zone) {
            (Some(Verb::Hold), _) => UnitCommand::Hold,
            (Some(Verb::Advance), Some(zone)) => UnitCommand::Advance(zone),
            (Some(Verb::Attack), Some(zone)) => UnitCommand::Attack(zone),
            (Some(Verb::Withdraw), _) => UnitCommand::Withdraw,
            _ => UnitCommand::Rally,
        };
        match self.game.order(unit, order) {
            Ok(outputs) => {
                self.show(&outputs);
                self.autosave("turn");
            }
            Err(err) => self.order_refused(unit.idx(), &err),
        }
    }

    /// Each own unit's order in force (of those on the field: one still to
    /// come up is not yet his to hear of), and the orders on their way.
    pub(super) fn own_orders(&mut self) -> OwnOrders {
        let known = self.game.known();
        let units = known
            .own
            .iter()
            .enumerate()
            .filter_map(|(idx, w)| {
                let w = w.as_ref()?;
                w.record
                    .location
                    .present
                    .then_some((idx, w.record.orders.order()))
            })
            .collect();
        (units, self.game.story().couriers.clone())
    }

    /// A choice that changed the orders of the player's units says which,
    /// from what to what (the choice replaces what he had ordered).
    pub(super) fn say_changed_orders(&mut self, before: &OwnOrders) {
        let after = self.own_orders();
        let l = self.options.locale;
        let mut lines = Vec::new();
        for &(idx, now) in &after.0 {
            let Some(&(_, was)) = before.0.iter().find(|(i, _)| *i == idx) else {
                continue;
            };
            if was == now {
                continue;
            }
            let line = self.with_view(|v| {
                let name = v.unit_name(idx);
                let (was, now) = (v.doing(was), v.doing(now));
                msg(
                    l,
                    OrderMsg::ChangedOrder {
                        unit: &name,
                        was: &was,
                        now: &now,
                    },
                )
            });
            lines.push(line);
        }
        for courier in &before.1 {
            if after.1.contains(courier) {
                continue;
            }
            // Delivered at the end of a turn, not by a choice: only a
            // courier still due is one the choice called back.
            if courier.arrives <= self.game.turn() {
                continue;
            }
            let idx = courier.unit.idx();
            let line = self.with_view(|v| {
                let name = v.unit_name(idx);
                let what = v.order_words(&courier.order);
                msg(
                    l,
                    OrderMsg::CalledBack {
                        unit: &name,
                        what: &what,
                    },
                )
            });
            lines.push(line);
        }
        if lines.is_empty() {
            return;
        }
        self.say_wrapped(ui(l, Ui::OrdersChanged), "");
        for line in lines {
            let line = super::wrap::capitalize(line.trim_start());
            self.say(&drawn::hang(
                &line,
                self.options.style.columns,
                "  ",
                "      ",
            ));
        }
    }

    /// Why a unit refused an order, and what would work instead.
    pub(super) fn order_refused(&mut self, idx: usize, err: &StoryError) {
        let l = self.options.locale;
        let name = self.with_view(|v| v.unit_name(idx));
        let Some(text) = catalogue::order_refused(l, &name, err) else {
            self.error(err);
            return;
        };
        let text = super::wrap::capitalize(&text);
        self.say_wrapped(&text, "");
    }
}
