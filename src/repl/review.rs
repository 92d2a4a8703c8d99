//! Looking back and around: `sources`, `look`, `log`, `recap`, and the
//! after-action truth at the end.

use super::*;

/// The first sentence of `text`, at most about `max` characters, cut at a
/// word (or, in Chinese, a character) with "…", never inside a word.
/// " (the novel's choice)" / "（书中之选）" after an option the novel took,
/// " (as in history)" / "（史实之选）" after one history records; none for
/// the scene's own.
pub(super) fn source_mark(l: Locale, from: crate::scene::Origin) -> Option<String> {
    let source = match from {
        crate::scene::Origin::Novel => ui(l, Ui::Novel),
        crate::scene::Origin::History => ui(l, Ui::HistoryChoice),
        crate::scene::Origin::Invented => return None,
    };
    Some(msg(l, SessionMsg::ChoiceSource { source }))
}

impl Session<'_> {
    /// `redo`: gives back what the last `undo` took back.
    /// `sources [on|off]`: whether the options say which the novel (or
    /// history) took before the player decides. Kept with the game, so a
    /// save, an autosave and `reload` keep it; `undo` does not touch it.
    pub(super) fn sources(&mut self, arg: Option<&str>) {
        let l = self.options.locale;
        // What the player may type: on/off, or 开/关.
        let on = match arg.map(str::to_lowercase).as_deref() {
            None => None,
            Some("on" | "开" | "開") => Some(true),
            Some("off" | "关" | "關") => Some(false),
            Some(word) => {
                let word = commands::shorten(word, 24);
                self.say_wrapped(&msg(l, PromptMsg::SourcesTakes { word: &word }), "");
                return;
            }
        };
        if let Some(on) = on {
            self.game.show_sources(on);
        }
        let text = msg(
            l,
            SessionMsg::SourcesShown {
                on: self.game.shows_sources(),
            },
        );
        self.say_wrapped(&text, "");
        if on.is_some() && self.game.pending().is_some() {
            self.show_choice();
        }
    }

    /// `look`: where and when, and the choice waiting, told whole.
    pub(super) fn look(&mut self) {
        self.look_with(true);
    }

    /// Where and when, and the choice waiting: with its situation, or (after
    /// `undo` or `redo` back to a point already told) its options alone.
    pub(super) fn look_with(&mut self, situation: bool) {
        let l = self.options.locale;
        let scene = self.game.scene_arc();
        let turn = self.game.turn();
        let minute = self.game.minute();
        let commander = self.game.role_commander();
        let zone = self
            .game
            .world()
            .commanders
            .get(commander)
            // Where he stands now; where the scene put him if the world
            // has no word of him.
            .map_or(scene.commanders()[commander].zone.idx(), |c| c.zone);
        let (header, weather, whereabouts) = self.with_view(|v| {
            (
                v.turn_header(turn, minute),
                v.weather_line(zone),
                v.whereabouts(),
            )
        });
        self.say(&header);
        self.say_wrapped(&weather, "");
        self.say_wrapped(&whereabouts, "");
        if let Some(ending) = self.game.story().ended {
            let title = (scene.endings().get(ending.idx()))
                .map(|e| e.title.get(l).to_string())
                .unwrap_or_default();
            self.say(&format!("{}{title}", ui(l, Ui::Ending)));
        } else if self.game.pending().is_some() {
            self.show_choice_with(situation);
        }
    }

    /// Choices and events so far in the order they came, each with its
    /// turn (None when the history that tells it is gone, after loading a
    /// save whose commands did not replay).
    pub(super) fn log_entries(&mut self) -> Vec<(Option<u32>, String)> {
        let l = self.options.locale;
        let scene = self.game.scene_arc();
        let story = self.game.story().clone();
        let states: Vec<(u32, usize, usize)> = self
            .game
            .undo_history()
            .iter()
            .map(|s| (s.world.turn, s.story.chosen.len(), s.story.happened.len()))
            .chain(std::iter::once((
                self.game.turn(),
                story.chosen.len(),
                story.happened.len(),
            )))
            .collect();
        // The history starts at the game's start unless a save without one
        // was loaded: what came before it has no known turn.
        let from_start = match self.game.undo_history().first() {
            Some(first) => first.log_len == 0,
            None => self.game.log().is_empty(),
        };
        let turn_of = |at: Option<usize>| at.filter(|&i| i > 0 || from_start).map(|i| states[i].0);
        // (index of the state it first appears in, choice before event, turn, text)
        let mut entries: Vec<(usize, u8, Option<u32>, String)> = Vec::new();
        let first_state = |k: usize, count: fn(&(u32, usize, usize)) -> usize| {
            states.iter().position(|s| count(s) > k)
        };
        // The player's own side's choices, and the events as he was told
        // them: what the side nobody plays decided is not his to know.
        let own_side = self.game.role_side();
        let resolved = scene.resolved();
        for (k, &(tp_id, option)) in story.chosen.iter().enumerate() {
            let (Some(tp), Some(r_tp)) = (
                scene.turning_points().get(tp_id.idx()),
                resolved.turning_points.get(tp_id.idx()),
            ) else {
                continue;
            };
            let chooser = r_tp.role.idx();
            if scene.commanders().get(chooser).map(|c| c.side.idx()) != Some(own_side) {
                continue;
            }
            let Some(option) = tp.options.get(option as usize) else {
                continue;
            };
            let at = first_state(k, |s| s.1);
            // A commander who had fallen when the choice was made did not
            // make it: his staff did, in his name.
            let fallen_then = {
                let history = self.game.undo_history();
                let fallen = |world: &crate::sim::WorldState| {
                    (world.commanders.get(chooser)).is_some_and(|c| c.fallen.is_some())
                };
                match at {
                    Some(i) if i < history.len() => fallen(&history[i].world),
                    _ => fallen(&self.game.world()),
                }
            };
            let name = (scene.commanders().get(chooser))
                .map(|c| c.name.get(l).to_string())
                .unwrap_or_default();
            let who = if fallen_then {
                msg(l, SessionMsg::Staff { commander: &name })
            } else {
                name
            };
            let mark = source_mark(l, option.from).unwrap_or_default();
            let colon = ui(l, Ui::Colon);
            let turn = turn_of(at);
            entries.push((
                at.unwrap_or(0),
                0,
                turn,
                format!("★ {who}{colon}{}{mark}", option.text.get(l)),
            ));
        }
        // Events as told: each is kept with its turn when it was told.
        for telling in &story.journal {
            let (turn, Some(told)) = (&telling.turn, telling.told(&scene)) else {
                continue;
            };
            let text = self.with_view(|v| v.told(&told));
            let at = states
                .iter()
                .position(|s| s.0 >= *turn)
                .unwrap_or(states.len().saturating_sub(1));
            entries.push((
                at,
                1,
                Some(*turn),
                format!("· {}", first_sentence(&text, 120)),
            ));
        }
        entries.sort_by_key(|(at, kind, _, _)| (*at, *kind));
        entries
            .into_iter()
            .map(|(_, _, turn, text)| (turn, text))
            .collect()
    }

    pub(super) fn say_log_entry(&mut self, turn: Option<u32>, text: &str) {
        let l = self.options.locale;
        let head = msg(l, SessionMsg::LogTurn { turn });
        let colon = ui(l, Ui::Colon);
        let line = format!("{head}{colon}{text}");
        let wrapped = wrap::wrap(&line, self.options.style.columns, "    ");
        self.say(wrapped.trim_start());
    }

    pub(super) fn log(&mut self) {
        let l = self.options.locale;
        let entries = self.log_entries();
        if entries.is_empty() {
            self.say_wrapped(ui(l, Ui::NoLog), "");
            return;
        }
        for (turn, text) in entries {
            self.say_log_entry(turn, &text);
        }
        self.say_reveal();
    }

    /// "What you did not know", once the battle is over (the ending, the
    /// log): the picture set against the truth.
    pub(super) fn say_reveal(&mut self) {
        let l = self.options.locale;
        let Some(reveal) = self.game.reveal() else {
            return;
        };
        let lines = self.with_view(|v| v.reveal(&reveal));
        if lines.is_empty() {
            return;
        }
        self.say("");
        self.say(&self.options.style.bold(ui(l, Ui::NotKnown)));
        for line in lines {
            let wrapped = wrap::wrap(&line, self.options.style.columns, "    ");
            self.say(&format!("  {}", wrapped.trim_start()));
        }
    }

    /// After `--load`: the battle, the role and side, the turn, the last
    /// things that happened, then the situation.
    pub fn recap(&mut self) {
        let l = self.options.locale;
        let scene = self.game.scene_arc();
        let title = self.options.style.bold(scene.meta().title.get(l));
        self.say(&title);
        let role = self.game.commander().name.get(l).to_string();
        let side = scene
            .sides()
            .get(self.game.role_side())
            .map(|s| s.name.get(l).to_string())
            .unwrap_or_default();
        let turn = self.game.turn();
        let time = crate::story::clock(self.game.minute());
        let line = msg(
            l,
            SessionMsg::RecapLine {
                role: &role,
                side: &side,
                turn,
                time: &time,
                seed: self.game.seed(),
            },
        );
        self.say_wrapped(&line, "");
        let entries = self.log_entries();
        if !entries.is_empty() {
            self.say_wrapped(ui(l, Ui::SoFar), "");
            let skip = entries.len().saturating_sub(4);
            for (turn, text) in entries.into_iter().skip(skip) {
                self.say_log_entry(turn, &text);
            }
        }
        self.say("");
        self.look();
    }
}
