//! Going back: `reload`, `undo` (a whole command at a time) and `redo`.

use super::*;

impl Session<'_> {
    /// `reload`: reads the battle again from its folder and replays this
    /// game's commands on the new version, saying where play parts from
    /// the game as it was. A file with problems changes nothing: the
    /// problems are shown and the game goes on as it was.
    pub(super) fn reload(&mut self) {
        let l = self.options.locale;
        let Some(folder) = self.scene_folder.clone() else {
            self.say_wrapped(ui(l, Ui::NoSceneFolder), "");
            return;
        };
        let id = self.game.scene().id().to_string();
        let scene = match crate::scene::load_dir(&folder) {
            Ok(scenes) => scenes.into_iter().find(|s| s.id() == id),
            Err(problems) => {
                for problem in &problems {
                    self.say(problem.to_string().trim_end());
                }
                let text = msg(
                    l,
                    SessionMsg::SceneProblems {
                        count: problems.len(),
                    },
                );
                self.say_wrapped(&text, "");
                return;
            }
        };
        let Some(scene) = scene else {
            let text = msg(
                l,
                SessionMsg::NoBattleIn {
                    id: &id,
                    folder: &folder.display().to_string(),
                },
            );
            self.say_wrapped(&text, "");
            return;
        };
        let file = match save::save_file(&mut self.game, self.transcript.as_str()) {
            Ok(file) => file,
            Err(why) => {
                self.say_wrapped(&why, "");
                return;
            }
        };
        let (others, player) = self.game.policies();
        let fresh = Game::with_policies(
            Arc::new(scene),
            self.game.role(),
            self.game.seed(),
            others,
            player,
        );
        let mut game = match fresh {
            Ok((game, _)) => game,
            Err(err) => {
                let text = msg(
                    l,
                    SessionMsg::CannotOpen {
                        err: &err.to_string(),
                    },
                );
                self.say_wrapped(&text, "");
                return;
            }
        };
        game.show_sources(self.game.shows_sources());
        let report = save::replay(&mut game, &file);
        let describe = report.describe();
        let how = match (&report.failed, report.diverged_at, report.same_end) {
            (Some((n, why)), _, _) => Reload::Failed {
                command: n + 1,
                why,
            },
            (None, Some((_, turn)), _) => Reload::PartsAt { turn },
            (None, None, true) => Reload::Same,
            (None, None, false) => Reload::Differs {
                describe: &describe,
            },
        };
        let text = msg(l, SessionMsg::Reloaded { id: &id, how });
        let scene = game.scene_arc();
        if let Some(old) = self.scenes.iter_mut().find(|s| s.id() == scene.id()) {
            *old = scene;
        }
        self.game = game;
        // The new game's history is one step a command, as after a load.
        self.undo_marks.clear();
        self.redo.clear();
        self.reset_memory();
        self.say_wrapped(&text, "");
    }

    /// `undo`: the last command taken back whole (every turn of a `wait`).
    pub(super) fn undo(&mut self) {
        let l = self.options.locale;
        let depth = self.game.undo_history().len();
        // Without a mark (after a load) a command is one step.
        let mark = self
            .undo_marks
            .last()
            .copied()
            .filter(|m| *m < depth)
            .unwrap_or(depth.saturating_sub(1));
        let after = (
            self.game.snapshot(),
            self.game.log().to_vec(),
            self.game.undo_history().to_vec(),
        );
        let mut steps = 0;
        while self.game.undo_history().len() > mark {
            match self.game.undo() {
                Ok(()) => steps += 1,
                Err(err) => {
                    if steps == 0 {
                        self.error(&err);
                        return;
                    }
                    break;
                }
            }
        }
        if steps == 0 {
            self.error(&StoryError::NothingToUndo);
            return;
        }
        self.undo_marks.pop();
        self.redo.push(Redo {
            snapshot: after.0,
            log: after.1,
            undo: after.2,
            mark,
        });
        let text = msg(l, SessionMsg::TakenBack { steps });
        self.say_wrapped(&text, "");
        self.reset_memory();
        // Back at a point already told: its options, not its situation
        // again (`look` tells it whole).
        self.look_with(false);
    }

    pub(super) fn redo(&mut self) {
        let l = self.options.locale;
        let Some(redo) = self.redo.pop() else {
            self.say_wrapped(ui(l, Ui::NothingToRedo), "");
            return;
        };
        self.game.restore_saved(&redo.snapshot, redo.log, redo.undo);
        self.undo_marks.push(redo.mark);
        self.say_wrapped(ui(l, Ui::GivenBack), "");
        self.reset_memory();
        self.look_with(false);
        self.autosave("turn");
    }
}
