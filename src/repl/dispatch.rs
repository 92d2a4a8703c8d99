//! The command loop: a line read, parsed and run, the turns it plays, the
//! autosave after each, and leaving.

use super::*;

impl Session<'_> {
    /// The prompt loop, until quit, end of input or Ctrl-C twice.
    pub fn run(&mut self, input: &mut dyn LineSource) {
        loop {
            if self.closed {
                return;
            }
            if let Some(notice) = input.notice() {
                self.say_wrapped(&notice, "");
            }
            self.autosave_outcome();
            if input.completes() {
                input.set_completions(self.completions());
            }
            input.set_saves(&self.options.saves_dir);
            if self.first_hint && self.game.pending().is_none() && !self.game.is_over() {
                let l = self.options.locale;
                let text = self.options.style.dim(ui(l, Ui::FirstHint));
                self.say_wrapped(&text, "");
                // Said once: a player reading `map` and `status` first has it.
                self.first_hint = false;
            }
            let prompt = self.prompt();
            // What was said is out before the next line is read.
            self.flush_out();
            let read = input.read(&prompt);
            self.refresh_width();
            let line = match read {
                Line::Text(line) if line.len() > MAX_LINE_BYTES => {
                    self.echo(input, &prompt, "");
                    self.refused(Refusal::TooLong(line.len()));
                    continue;
                }
                Line::Text(line) => line,
                Line::Refused(why) => {
                    self.echo(input, &prompt, "");
                    self.refused(why);
                    continue;
                }
                Line::Interrupted => {
                    if self.interrupted {
                        self.leave();
                        return;
                    }
                    self.interrupted = true;
                    let l = self.options.locale;
                    self.say_wrapped(ui(l, Ui::Cancelled), "");
                    continue;
                }
                Line::Eof => {
                    self.leave();
                    return;
                }
                Line::Broken(why) => {
                    let l = self.options.locale;
                    let text = msg(l, PromptMsg::StdinBroken { why: &why });
                    self.say_wrapped(&text, "");
                    self.leave();
                    return;
                }
            };
            self.interrupted = false;
            self.echo(input, &prompt, &line);
            if !self.handle(&line) {
                self.leave();
                return;
            }
        }
    }

    /// Shows (or, on a terminal that echoed it, only records) the line typed,
    /// cleaned of control characters and cut short when long.
    pub(super) fn echo(&mut self, input: &dyn LineSource, prompt: &str, line: &str) {
        let shown = commands::shorten(commands::clean(line).trim_end(), MAX_ECHO_CHARS);
        let text = format!("{prompt}{shown}");
        if input.echoes() {
            self.record(&text);
        } else {
            self.say(&text);
        }
    }

    pub(super) fn refused(&mut self, why: Refusal) {
        let l = self.options.locale;
        let text = match why {
            Refusal::NotText => ui(l, Ui::NotText).to_string(),
            Refusal::TooLong(n) => msg(
                l,
                PromptMsg::TooLong {
                    size: &crate::files::human_bytes(n as u64),
                    max: &crate::files::human_bytes(MAX_LINE_BYTES as u64),
                },
            ),
        };
        self.say(&text);
    }

    /// Autosaves and says so (or says why it could not) before leaving.
    pub(super) fn leave(&mut self) {
        let l = self.options.locale;
        // A game loaded from a save of another name, and left with nothing
        // played: that save holds it (a new resume point each time would
        // list the same game again and again).
        let (slot, result) = match self.unchanged_since_load().map(str::to_string) {
            Some(slot) => {
                self.saver.flush();
                (slot, Ok(()))
            }
            None => {
                let slot = save::autosave_slot(&self.game, "quit");
                let result = self.saver.leave_now(
                    &self.options.saves_dir,
                    &slot,
                    &mut self.game,
                    &self.transcript,
                );
                (slot, result.map(|_| ()))
            }
        };
        let text = match result {
            Ok(_) => msg(
                l,
                SessionMsg::Left {
                    slot: &slot,
                    saves: self.saves_named.as_deref(),
                    over: self.game.is_over(),
                },
            ),
            Err(err) => {
                self.leave_save_failed = true;
                msg(
                    l,
                    SessionMsg::LeaveFailed {
                        err: &catalogue::save_error(l, &err),
                    },
                )
            }
        };
        // A command to type comes on a line of its own, whole to copy: too
        // wide for the terminal, broken with a shell's line continuation.
        match text.split_once('\n') {
            Some((said, command)) => {
                self.say_wrapped(said, "");
                self.say_command(command);
            }
            None => self.say_wrapped(&text, ""),
        }
    }

    /// Runs one line; false to leave.
    pub fn handle(&mut self, line: &str) -> bool {
        let parsed = commands::parse(line);
        if matches!(
            parsed,
            Parsed::Empty
                | Parsed::Command(
                    Action::Next | Action::Wait | Action::Order | Action::Help,
                    _
                )
        ) {
            self.first_hint = false;
        }
        if matches!(parsed, Parsed::Command(Action::Undo | Action::Redo, _)) {
            return self.handle_parsed(parsed, line);
        }
        let loads = matches!(parsed, Parsed::Command(Action::Load, _));
        let depth = self.game.undo_history().len();
        let log = self.game.log().len();
        let go_on = self.handle_parsed(parsed, line);
        let now = self.game.undo_history().len();
        if loads {
            self.undo_marks.clear();
            self.redo.clear();
        } else if now > depth {
            self.undo_marks.push(depth);
            self.redo.clear();
        } else if now < depth || self.game.log().len() < log {
            // A load or a restart: the marks of the old game mean nothing.
            self.undo_marks.clear();
            self.redo.clear();
        }
        go_on
    }

    pub(super) fn handle_parsed(&mut self, parsed: Parsed, line: &str) -> bool {
        let l = self.options.locale;
        match parsed {
            Parsed::Empty => {
                if let Some(tp) = self.game.pending() {
                    let count = tp.options.len();
                    let text = msg(l, PromptMsg::ChooseOption { count });
                    self.say(&text);
                } else {
                    self.advance();
                }
            }
            Parsed::Number(n) => {
                let before = self.own_orders();
                let result = self.game.choose(n);
                match result {
                    Ok(outputs) => {
                        self.show(&outputs);
                        self.say_changed_orders(&before);
                        self.autosave("turn");
                    }
                    Err(err) => self.error(&err),
                }
            }
            Parsed::BadNumber(number) => {
                let max = self.game.pending().map(|tp| tp.options.len());
                let text = msg(
                    l,
                    PromptMsg::TooLarge {
                        number: &number,
                        max,
                    },
                );
                self.say_wrapped(&text, "");
            }
            Parsed::ExtraWords {
                command,
                usage: _,
                extra,
            } if command == "save" || command == "load" => {
                let text = msg(
                    l,
                    PromptMsg::SlotOneWord {
                        command: &command,
                        extra: &extra,
                        max: save::MAX_SLOT_CHARS,
                    },
                );
                self.say_wrapped(&text, "");
            }
            Parsed::ExtraWords {
                command,
                usage,
                extra,
            } => {
                let text = msg(
                    l,
                    PromptMsg::ExtraWords {
                        command: &command,
                        usage,
                        extra: &extra,
                    },
                );
                self.say_wrapped(&text, "");
            }
            // An order's verb alone ("rally", "attack ford"): the order
            // needs the unit it is for.
            Parsed::Unknown { word, .. } if verb(&word).is_some() => {
                let commander = self.game.commander();
                if !commander.gives_orders {
                    let name = commander.name.get(Locale::En).to_string();
                    self.error(&StoryError::NoOrders(name));
                    return true;
                }
                let rest = line
                    .split_whitespace()
                    .skip(1)
                    .collect::<Vec<_>>()
                    .join(" ");
                let example = if rest.is_empty() {
                    format!("order UNIT {word}")
                } else {
                    format!("order UNIT {word} {rest}")
                };
                let message = msg(l, PromptMsg::OrderNamesUnit { example: &example });
                self.say_wrapped(&message, "");
            }
            Parsed::Unknown { word, suggestion } => {
                let message = msg(
                    l,
                    PromptMsg::UnknownCommand {
                        word: &word,
                        suggestion,
                    },
                );
                self.say_wrapped(&message, "");
            }
            Parsed::Command(action, args) => return self.command(action, &args),
        }
        true
    }

    pub(super) fn advance(&mut self) {
        match self.game.next() {
            Ok(outputs) => {
                self.show(&outputs);
                self.autosave("turn");
            }
            Err(err) => self.error(&err),
        }
    }

    /// Lets up to `limit` turns pass (until the battle ends when None),
    /// stopping at the first thing that needs the player and saying why.
    pub(super) fn run_turns(&mut self, limit: Option<u32>) {
        let l = self.options.locale;
        if self.game.is_over() {
            // As a single `next` would: say so rather than pass nothing silently.
            self.error(&StoryError::Ended);
            return;
        }
        let mut passed = 0u32;
        self.running = true;
        let mut stopped = None;
        // Heavy losses: (own dead since the run began, own men then, turns).
        // Counted over the run, not a turn at a time: a slaughter spread
        // over several turns of a large army stops it as well.
        let mut heavy = None;
        let mut run_lost = 0u32;
        let mut run_before = None;
        while limit.is_none_or(|n| passed < n) {
            if self.game.is_over() || self.game.pending().is_some() {
                break;
            }
            let before = self.with_view(|v| v.known.own_men());
            let run_before = *run_before.get_or_insert(before);
            let outputs = match self.game.next() {
                Ok(outputs) => outputs,
                Err(err) => {
                    self.error(&err);
                    break;
                }
            };
            passed += 1;
            let last = limit == Some(passed);
            if last {
                self.running = false;
            }
            let alert = self.show(&outputs);
            let entries: Vec<crate::sim::Entry> = outputs
                .iter()
                .filter_map(|o| match o {
                    Output::Chronicle(entry) => Some(entry.clone()),
                    _ => None,
                })
                .collect();
            let lost = self.with_view(|v| v.own_lost(&entries));
            run_lost = run_lost.saturating_add(lost);
            let share = self.game.field().rules.stop_losses;
            if chronicle::heavy_losses(run_lost, run_before, share) {
                heavy = Some((run_lost, run_before, passed));
            }
            if let Some(alert) = alert {
                stopped = Some(alert);
            }
            if stopped.is_some() || heavy.is_some() {
                break;
            }
        }
        self.running = false;
        self.flush_fold();
        self.autosave("turn");
        if (stopped.is_none() && heavy.is_none()) || limit == Some(passed) {
            return;
        }
        if self.game.pending().is_some() || self.game.is_over() {
            return; // the choice or the ending speaks for itself
        }
        // A heavy loss is said with its figures, whatever else stopped the run.
        let text = match (heavy, stopped) {
            (Some((lost, before, turns)), _) => {
                let men = self.with_view(|v| v.told_men(lost, true));
                let percent = chronicle::percent(lost, before);
                msg(
                    l,
                    SessionMsg::StoppedLosses {
                        men: &men,
                        percent,
                        turns,
                    },
                )
            }
            (None, Some(reason)) => msg(
                l,
                SessionMsg::Stopped {
                    reason: reason.words(l),
                },
            ),
            (None, None) => return,
        };
        self.say(&text);
    }

    pub(super) fn error(&mut self, err: &StoryError) {
        let l = self.options.locale;
        let text = catalogue::story_error(l, err);
        self.say_wrapped(&text, "");
    }

    pub(super) fn command(&mut self, action: Action, args: &[String]) -> bool {
        match action {
            Action::Quit => return false,
            Action::Help => self.help(args),
            Action::Next => self.next_turns(args),
            Action::Wait => {
                if self.game.pending().is_some() {
                    self.error(&StoryError::ChoicePending);
                } else {
                    self.run_turns(None);
                }
            }
            Action::Order => self.order(args),
            Action::Orders => self.show_orders(),
            Action::Report => self.report(),
            Action::Look => self.look(),
            Action::Status => {
                let couriers = self.game.story().couriers.clone();
                let text = self.with_view(|v| v.status_with(&couriers));
                self.say(&text);
            }
            Action::Map => self.map(args),
            Action::Why => {
                let text = self.with_view(|v| v.why());
                self.say(&text);
            }
            Action::Log => self.log(),
            Action::Reload => self.reload(),
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::Sources => self.sources(args.first().map(String::as_str)),
            Action::Lang => self.lang(args),
            Action::Save => self.save_to(args),
            Action::Load => self.load_from(args),
            Action::Saves => {
                self.saver.flush();
                let text = self.saves_table();
                self.say(&text);
            }
        }
        true
    }

    /// `help`, or `help TOPIC`.
    fn help(&mut self, args: &[String]) {
        let l = self.options.locale;
        match args.first() {
            None => {
                let text = commands::help_text(l, self.options.style.columns);
                self.say(text.trim_end());
            }
            Some(topic) => match commands::help_topic(l, topic, self.options.style.columns) {
                Some(text) => self.say(&text),
                None => {
                    let topic = commands::shorten(topic, 24);
                    let text = msg(l, PromptMsg::NoHelp { topic: &topic });
                    self.say_wrapped(&text, "");
                }
            },
        }
    }

    /// `next` or `next N` (at most 1,000 turns), not while a choice waits.
    fn next_turns(&mut self, args: &[String]) {
        let l = self.options.locale;
        let count = match args.first() {
            None => Some(1),
            Some(word) => word.parse::<u32>().ok().filter(|n| (1..=1000).contains(n)),
        };
        match count {
            _ if self.game.pending().is_some() => self.error(&StoryError::ChoicePending),
            Some(1) => self.advance(),
            Some(n) => self.run_turns(Some(n)),
            None => {
                self.say_wrapped(ui(l, Ui::NextTakesNumber), "");
            }
        }
    }

    /// `orders`: each entry with a hanging indent under its name.
    fn show_orders(&mut self) {
        let couriers = self.game.story().couriers.clone();
        let text = self.with_view(|v| v.orders(&couriers));
        for line in text.lines() {
            match line.strip_prefix("  ") {
                // An entry, with a hanging indent under its name.
                Some(entry) => {
                    let wrapped = wrap::wrap(entry, self.options.style.columns, "      ");
                    self.say(&format!("  {}", wrapped.trim_start()));
                }
                None => self.say(line),
            }
        }
    }

    /// `report`: every entry of the last turn the played side saw.
    fn report(&mut self) {
        let l = self.options.locale;
        let entries = self.last_entries.clone();
        let lines = self.with_view(|v| v.entries(&entries));
        if lines.is_empty() {
            self.say_wrapped(ui(l, Ui::NothingToReport), "");
        }
        for line in lines {
            self.say_wrapped(&line, "  ");
        }
    }

    /// `map` (drawn) or `map list`.
    fn map(&mut self, args: &[String]) {
        let l = self.options.locale;
        match args.first().map(|a| a.to_lowercase()) {
            None => {
                let text = self.with_view(|v| v.map());
                self.say(&text);
            }
            Some(word) if word == "list" || word == "列表" => {
                let text = self.with_view(|v| v.map_list());
                self.say(&text);
            }
            Some(word) => {
                let word = commands::shorten(&word, 24);
                let text = msg(l, PromptMsg::MapTakesList { word: &word });
                self.say_wrapped(&text, "");
            }
        }
    }

    /// `lang`: the language in use and those there are, or `lang TAG`.
    fn lang(&mut self, args: &[String]) {
        let l = self.options.locale;
        match args.first() {
            None => {
                let tags: Vec<&str> = Locale::ALL.iter().map(|l| l.tag()).collect();
                self.say(&format!("{} ({})", l.tag(), tags.join(", ")));
            }
            Some(tag) => match Locale::parse(tag) {
                Some(locale) => {
                    self.options.locale = locale;
                    self.say(locale.tag());
                }
                None => {
                    let tags: Vec<&str> = Locale::ALL.iter().map(|l| l.tag()).collect();
                    let tag = commands::shorten(tag, 24);
                    let text = msg(
                        l,
                        PromptMsg::UnknownLanguage {
                            tag: &tag,
                            tags: &tags,
                        },
                    );
                    self.say_wrapped(&text, "");
                }
            },
        }
    }

    /// `save [SLOT]`, waited for.
    fn save_to(&mut self, args: &[String]) {
        let l = self.options.locale;
        let slot = args.first().map(String::as_str).unwrap_or("quick");
        let result = self.saver.save_now(
            &self.options.saves_dir,
            slot,
            &mut self.game,
            &self.transcript,
        );
        match result {
            Ok(path) => {
                let text = msg(
                    l,
                    SessionMsg::Saved {
                        slot,
                        path: &path.display().to_string(),
                    },
                );
                self.say(&text);
            }
            Err(err) => self.say_error(&catalogue::save_error(l, &err)),
        }
    }

    /// The `saves` table, each slot at the turn loading it reaches (as the
    /// start menu says it): the battles not parsed at the start are parsed
    /// if an autosave that reads on through its journal is of one of them.
    fn saves_table(&mut self) -> String {
        let l = self.options.locale;
        let dir = self.options.saves_dir.clone();
        let mut rows = save::list(&dir);
        if let Ok(rows) = rows.as_mut() {
            let unknown = rows.iter().any(|row| {
                row.summary.as_ref().is_ok_and(|s| {
                    s.follows && self.scenes.iter().all(|scene| scene.id() != s.scene)
                })
            });
            if unknown && let Some(load) = self.more_scenes.take() {
                for scene in load() {
                    if self.scenes.iter().all(|s| s.id() != scene.id()) {
                        self.scenes.push(scene);
                    }
                }
            }
            save::reached(&dir, rows, &self.scenes);
        }
        render::saves_table_of(&dir, rows, l, self.options.style.columns)
    }

    /// `load [SLOT]`: the battles not parsed at the start are parsed if the
    /// save names one of them.
    fn load_from(&mut self, args: &[String]) {
        let l = self.options.locale;
        let slot = args.first().map(String::as_str).unwrap_or("quick");
        // Autosaves on their way are on disk before the folder is read.
        self.saver.flush();
        let mut result = save::load(&self.options.saves_dir, slot, &self.scenes);
        if let Err(save::SaveError::UnknownScene(..)) = &result
            && let Some(load) = self.more_scenes.take()
        {
            for scene in load() {
                if self.scenes.iter().all(|s| s.id() != scene.id()) {
                    self.scenes.push(scene);
                }
            }
            result = save::load(&self.options.saves_dir, slot, &self.scenes);
        }
        match result {
            Ok(loaded) => {
                self.game = loaded.game;
                self.note_loaded_from(slot);
                self.saver.forget();
                self.transcript = save::Transcript::new(loaded.transcript);
                self.reset_memory();
                if let Some(notice) = loaded.notice {
                    self.say_wrapped(&catalogue::load_notice(l, &notice), "");
                }
                let text = msg(l, SessionMsg::Loaded { slot });
                self.say(&text);
                self.recap();
            }
            Err(err) => {
                self.say_error(&catalogue::save_error(l, &err));
                let dir = &self.options.saves_dir;
                if let Some(text) = other_save(dir, slot, &err, &self.scenes, l, None) {
                    match text.split_once('\n') {
                        Some((said, command)) => {
                            self.say_wrapped(said, "");
                            self.say_command(command);
                        }
                        None => self.say_wrapped(&text, ""),
                    }
                }
            }
        }
    }

    pub(super) fn autosave(&mut self, why: &str) {
        // Autosaves are a safety net: a failure is told once (not every
        // turn), never fatal; after a success a new failure is told again.
        let slot = save::autosave_slot(&self.game, why);
        let result = self.saver.submit(
            &self.options.saves_dir,
            &slot,
            &mut self.game,
            &self.transcript,
        );
        match result {
            // Written, or handed to the writer: [`Session::autosave_outcome`]
            // says which before the prompt.
            Ok(()) => self.autosave_outcome(),
            Err(err) => self.autosave_failure(&err),
        }
    }

    /// Before each prompt: a failure of an autosave written in the
    /// background is told now, at its turn; one written ends a run of failures.
    pub(super) fn autosave_outcome(&mut self) {
        match self.saver.outcome() {
            save::Outcome::Quiet => {}
            save::Outcome::Written => self.autosave_failed = false,
            save::Outcome::Failed(err) => self.autosave_failure(&err),
        }
    }

    /// Autosaves are a safety net: a failure is told once for each run of
    /// failures (not every turn), never fatal.
    pub(super) fn autosave_failure(&mut self, err: &save::SaveError) {
        if self.autosave_failed {
            return;
        }
        self.autosave_failed = true;
        let l = self.options.locale;
        let text = msg(
            l,
            SessionMsg::AutosaveFailed {
                err: &catalogue::save_error(l, err),
            },
        );
        self.say_wrapped(&text, "");
    }
}
