//! The after-action truth, once the battle is over: what the other side
//! had, did and lost, beside what the commander believed.

use super::*;

impl View<'_> {
    /// "What you did not know": after the ending, the commander's picture
    /// against the truth — the other side's real strength and losses,
    /// where its units really were when he could not see them, what he
    /// reckoned wrong, and the cries his men heard, true or false.
    pub fn reveal(&self, reveal: &Reveal) -> Vec<String> {
        let l = self.locale;
        let mut lines = Vec::new();
        let reckoned = |r: Reckoning| match r {
            Reckoning::About(n) => Some(self.said(n, Sure::Estimated)),
            Reckoning::Rough(n) => Some(self.said(n, Sure::Rough)),
            Reckoning::Unknown => None,
        };
        // The truth, counted: figures in English, said in Chinese numerals.
        let count = |n: u32| catalogue::count(l, n);
        for side in &reveal.others {
            let name = self.side_in_prose(side.side);
            let (brought, lost, standing) =
                (count(side.brought), count(side.lost), count(side.standing));
            let guess = reckoned(side.reckoned);
            lines.push(msg(
                l,
                RevealMsg::RevealSide {
                    side: &name,
                    brought: &brought,
                    lost: &lost,
                    standing: &standing,
                    guess: guess.as_deref(),
                },
            ));
        }
        self.reveal_unseen(reveal, &mut lines);
        self.reveal_moved(reveal, &mut lines);
        self.reveal_wrong(reveal, &mut lines);
        self.reveal_cries(reveal, &mut lines);
        lines
    }

    /// Units never seen at all, though they were on the field.
    fn reveal_unseen(&self, reveal: &Reveal, lines: &mut Vec<String>) {
        let l = self.locale;
        let unseen: Vec<String> = reveal
            .units
            .iter()
            .filter(|u| u.known.is_none() && u.standing)
            .map(|u| {
                let (name, men, zone) = (
                    self.true_name(u.unit),
                    catalogue::count(l, u.men),
                    self.zone_name(u.zone),
                );
                msg(
                    l,
                    RevealMsg::UnseenUnit {
                        unit: &name,
                        men: &men,
                        zone: &zone,
                    },
                )
            })
            .collect();
        if !unseen.is_empty() {
            let items = self.reveal_list(unseen);
            lines.push(msg(l, RevealMsg::NeverSeen { items: &items }));
        }
    }

    /// Units last seen elsewhere than they were.
    fn reveal_moved(&self, reveal: &Reveal, lines: &mut Vec<String>) {
        let l = self.locale;
        let moved: Vec<String> = reveal
            .units
            .iter()
            .filter_map(|u| {
                let s = u.known?;
                let current = s.turn == self.known.picture.turn && !s.lost;
                if current || !u.standing || s.zone == u.zone {
                    return None;
                }
                let at = time_words(l, self.minute_of(s.turn));
                let (name, was, is) = (
                    self.true_name(u.unit),
                    self.zone_name(s.zone),
                    self.zone_name(u.zone),
                );
                Some(msg(
                    l,
                    RevealMsg::MovedUnit {
                        unit: &name,
                        at: &at,
                        was: &was,
                        is: &is,
                    },
                ))
            })
            .collect();
        if !moved.is_empty() {
            let items = self.reveal_list(moved);
            lines.push(msg(l, RevealMsg::NotWhereThought { items: &items }));
        }
    }

    /// Reckoned wrong: the last estimate a third or more off the truth, for
    /// units still seen at the end.
    fn reveal_wrong(&self, reveal: &Reveal, lines: &mut Vec<String>) {
        let l = self.locale;
        let wrong: Vec<String> = reveal
            .units
            .iter()
            .filter_map(|u| {
                let s = u.known?;
                let current = s.turn == self.known.picture.turn && !s.lost;
                if !current || !u.standing || u.men == 0 {
                    return None;
                }
                let off = (f64::from(s.men) - f64::from(u.men)).abs() / f64::from(u.men);
                if off < 0.33 {
                    return None;
                }
                let (name, guess, truth) = (
                    self.true_name(u.unit),
                    self.said(s.men, Sure::Estimated),
                    catalogue::count(l, u.men),
                );
                Some(msg(
                    l,
                    RevealMsg::WrongUnit {
                        unit: &name,
                        guess: &guess,
                        truth: &truth,
                    },
                ))
            })
            .collect();
        if !wrong.is_empty() {
            let items = self.reveal_list(wrong);
            lines.push(msg(l, RevealMsg::ReckonedWrong { items: &items }));
        }
    }

    /// The cries his men heard, and whether each was true then.
    fn reveal_cries(&self, reveal: &Reveal, lines: &mut Vec<String>) {
        let l = self.locale;
        for cry in &reveal.cries {
            let about = self.side_in_prose(cry.about);
            let at = time_words(l, self.minute_of(cry.turn));
            let claim = msg(
                l,
                RevealMsg::Claim {
                    side: &about,
                    routed: cry.routed,
                },
            );
            // Named as it was heard, when its words are known.
            if let Some(words) = &cry.words {
                let words = self.told(&crate::story::Told {
                    text: words.clone(),
                    args: Vec::new(),
                });
                let words =
                    words.trim_matches(|c: char| matches!(c, '"' | '“' | '”' | '「' | '」'));
                lines.push(msg(
                    l,
                    RevealMsg::CryHeard {
                        words,
                        believers: cry.believers,
                        at: &at,
                        true_then: cry.true_then,
                    },
                ));
                continue;
            }
            lines.push(msg(
                l,
                RevealMsg::Cry {
                    claim: &claim,
                    believers: cry.believers,
                    at: &at,
                    true_then: cry.true_then,
                },
            ));
        }
    }

    /// At most six items; more are five and "and N more".
    fn reveal_list(&self, items: Vec<String>) -> String {
        let l = self.locale;
        let sep = ui(l, Ui::ItemSep);
        let n = items.len();
        if n > 6 {
            let more = n - 5;
            let mut shown = items.into_iter().take(5).collect::<Vec<_>>();
            shown.push(msg(l, ViewMsg::AndMore { more }));
            shown.join(sep)
        } else {
            items.join(sep)
        }
    }

    /// A unit's true name, painted in its side's colour, as a name mid-sentence.
    fn true_name(&self, unit: usize) -> String {
        let l = self.locale;
        let name = self
            .scene
            .units()
            .get(unit)
            .map(|u| u.name.get(l).to_string())
            .unwrap_or_default();
        let name = self.style.paint(
            self.scene
                .sides()
                .get(self.unit_side(unit))
                .map_or(Colour::Yellow, |s| s.colour),
            &name,
        );
        format!("{NAME_OPEN}{}{NAME_CLOSE}", self.mid_sentence_owned(name))
    }

    /// [`View::mid_sentence`] of a name already painted.
    pub(super) fn mid_sentence_owned(&self, name: String) -> String {
        if capitalizes(self.locale) && name.contains("The ") {
            name.replacen("The ", "the ", 1)
        } else {
            name
        }
    }
}
