//! Orders to units: who may be ordered, the courier that carries an order
//! and when it arrives, and the order taking effect.

use super::*;

impl Game {
    /// The player orders one of his units. A unit his commander stands with
    /// obeys at once; any other gets it by courier, later the farther it is,
    /// the thicker the smoke on the way and the shakier the unit
    /// (`courier_*` rules). Logged, saved, replayed and undone like a turn.
    pub fn order(&mut self, unit: UnitId, order: UnitCommand) -> Result<Vec<Output>, StoryError> {
        if self.is_over() {
            return Err(StoryError::Ended);
        }
        if self.story.pending.is_some() {
            return Err(StoryError::ChoicePending);
        }
        let scene = Arc::clone(&self.scene);
        let commander = self.commander();
        if !commander.gives_orders {
            return Err(StoryError::NoOrders(
                commander.name.get(crate::scene::Locale::En).to_string(),
            ));
        }
        let own = self.player_units();
        let idx = unit.idx();
        if own.binary_search(&idx).is_err() {
            return Err(StoryError::NoSuchUnit(scene.id_of(unit).to_string()));
        }
        if let UnitCommand::Advance(zone) | UnitCommand::Attack(zone) = order
            && zone.idx() >= scene.zones().len()
        {
            return Err(StoryError::NoSuchZone(format!("#{}", zone.idx())));
        }
        let world = self.battle.state();
        // A unit with no men left has left the field (destroyed), whatever
        // its morale still says until the next turn's reckoning.
        let gone = |record: &crate::sim::state::UnitRecord| {
            !record.location.present
                || !record.location.state().can_fight_or_flee()
                || record.men == 0
        };
        let deaf = |record: &crate::sim::state::UnitRecord| !record.location.state().obeys();
        // Refused only where the commander knows why: a unit out of his
        // sight, gone or running since the last word he had of it, is sent
        // the order, and the rider finds it so (the order is lost then).
        let word = (self.picture.own.get(idx))
            .and_then(Option::as_ref)
            .map(|word| &word.record)
            .filter(|_| self.tells);
        let record = &world.units[idx];
        if gone(record) && word.is_none_or(gone) {
            return Err(StoryError::NotOnField);
        }
        if deaf(record) && word.is_none_or(|w| gone(w) || deaf(w)) {
            return Err(StoryError::WillNotListen);
        }
        let delay = self.courier_turns(idx, &world).ok_or(StoryError::NoRoad)?;
        if self.log.len() >= order_room(&scene) {
            let orders = self
                .log
                .iter()
                .filter(|c| matches!(c, Command::Order { .. }))
                .count();
            return Err(StoryError::TooManyOrders(orders));
        }
        self.push_undo();
        self.log.push(Command::Order { unit, order });
        let mut out = Vec::new();
        // A later order to the same unit overtakes one still on its way.
        self.story.couriers.retain(|c| c.unit != unit);
        if delay == 0 {
            self.deliver(idx, &order);
            out.push(Output::Ordered {
                unit: idx,
                order,
                arrives: None,
            });
        } else {
            let arrives = self.turn().saturating_add(delay);
            self.story.couriers.push(Courier {
                unit,
                order,
                arrives,
            });
            out.push(Output::Ordered {
                unit: idx,
                order,
                arrives: Some(arrives),
            });
        }
        Ok(out)
    }

    /// Turns a courier needs from the player's commander to the unit: none
    /// if the commander stands with it; else the ride by the zone graph,
    /// slowed by thick smoke anywhere on the way, and a turn more for a
    /// wavering unit.
    pub(super) fn courier_turns(&self, unit: usize, world: &WorldState) -> Option<u32> {
        let Some(from) = world.commanders.get(self.role_commander()).map(|c| c.zone) else {
            return Some(0);
        };
        self.courier_turns_from(from, unit, world)
    }

    /// Turns a courier needs from a commander in zone `from` to the unit
    /// (see [`Game::courier_turns`]); None if no road leads there.
    pub(super) fn courier_turns_from(
        &self,
        from: usize,
        unit: usize,
        world: &WorldState,
    ) -> Option<u32> {
        let scene = &self.scene;
        let rules = scene.rules();
        let to = world.units[unit].location.zone();
        if from == to {
            return Some(0);
        }
        // Breadth-first over the zone graph: the way the rider takes.
        let n = scene.zones().len();
        let mut previous = vec![usize::MAX; n];
        let mut queue = std::collections::VecDeque::from([from]);
        previous[from] = from;
        while let Some(zone) = queue.pop_front() {
            if zone == to {
                break;
            }
            for next in scene.neighbours(zone) {
                if previous[next] == usize::MAX {
                    previous[next] = zone;
                    queue.push_back(next);
                }
            }
        }
        if previous[to] == usize::MAX {
            return None; // no way there: no rider can reach it
        }
        let mut hops = 0u32;
        let mut smoky = false;
        let mut zone = to;
        while zone != from {
            hops += 1;
            smoky |= world
                .zones
                .get(zone)
                .is_some_and(|z| z.burning.smoke >= rules.smoke_blind);
            zone = previous[zone];
        }
        let mut minutes = f64::from(hops) * rules.courier_minutes_per_zone;
        if smoky {
            minutes *= rules.courier_smoke_factor;
        }
        let turn_minutes = f64::from(scene.meta().turn_minutes.max(1));
        let mut turns = (minutes / turn_minutes).ceil() as u32;
        if world.units[unit].location.state() == crate::scene::MoraleState::Wavering {
            turns += rules.courier_panic_turns as u32;
        }
        Some(turns)
    }

    /// Puts an order in force.
    pub(super) fn deliver(&mut self, unit: usize, order: &UnitCommand) {
        let scene = Arc::clone(&self.scene);
        let side = self.role_side();
        let commander = Some(self.role_commander());
        let field = self.battle.field();
        let order_now = match order {
            UnitCommand::Hold => Some(crate::sim::movement::UnitOrder::Hold),
            UnitCommand::Advance(zone) | UnitCommand::Attack(zone) => {
                Some(crate::sim::movement::UnitOrder::MoveTo(zone.idx()))
            }
            UnitCommand::Withdraw => field
                .retreat_of(unit, side)
                .map(crate::sim::movement::UnitOrder::MoveTo),
            UnitCommand::Rally => commander.map(crate::sim::movement::UnitOrder::RallyTo),
        };
        let boost = match order {
            UnitCommand::Attack(_) => scene.rules().attack_morale,
            _ => 0.0,
        };
        if let Some(order_now) = order_now {
            self.battle.order_unit(unit, order_now, boost);
        }
        // The side nobody plays answers what it sees of it.
        self.answer(unit, order);
    }

    /// Couriers whose time has come reach their units.
    pub(super) fn deliver_couriers(&mut self, out: &mut Vec<Output>) {
        let now = self.turn();
        let (due, waiting): (Vec<Courier>, Vec<Courier>) = std::mem::take(&mut self.story.couriers)
            .into_iter()
            .partition(|c| c.arrives <= now);
        self.story.couriers = waiting;
        if due.is_empty() {
            return;
        }
        let world = self.battle.state();
        for courier in due {
            let idx = courier.unit.idx();
            let listens = world
                .units
                .get(idx)
                .is_some_and(|u| u.location.present && u.location.state().obeys());
            if listens {
                self.deliver(idx, &courier.order);
                self.say(out, || Output::OrderArrived { unit: idx });
            } else {
                self.say(out, || Output::OrderLost { unit: idx });
            }
        }
    }
}
