//! Orders in words: what was ordered, the couriers on their way, what each
//! unit is doing, and how far a courier rides.

use super::*;

impl View<'_> {
    /// An order as the player reads it: "hold", "advance to the ford".
    pub fn order_words(&self, order: &UnitCommand) -> String {
        let l = self.locale;
        let place = match order {
            UnitCommand::Advance(z) | UnitCommand::Attack(z) => self.zone_name(z.idx()),
            _ => String::new(),
        };
        let order = match order {
            UnitCommand::Hold => Order::Hold,
            UnitCommand::Advance(_) => Order::Advance(&place),
            UnitCommand::Attack(_) => Order::Attack(&place),
            UnitCommand::Withdraw => Order::Withdraw,
            UnitCommand::Rally => Order::Rally,
        };
        msg(l, OrderMsg::Order(order))
    }

    /// What the player is told when he sends an order.
    pub fn ordered(&self, unit: usize, order: &UnitCommand, arrives: Option<u32>) -> String {
        let l = self.locale;
        let name = self.unit_name(unit);
        let what = self.order_words(order);
        let minute = |turn: u32| {
            let meta = self.scene.meta();
            meta.start_minute
                .saturating_add(turn.saturating_mul(meta.turn_minutes))
        };
        // "The Red Banners have the order", "reach them": a plural name
        // takes the plural, as in the chronicle.
        let plural = self.scene.units().get(unit).is_some_and(|u| u.plural);
        let (unit, what) = (name.as_str(), what.as_str());
        msg(
            l,
            match arrives {
                None => OrderMsg::OrderedNow { unit, what, plural },
                Some(turn) => OrderMsg::OrderedRider {
                    unit,
                    what,
                    plural,
                    minute: minute(turn),
                },
            },
        )
    }

    /// A courier reached his unit, or found it broken.
    pub fn order_delivered(&self, unit: usize, lost: bool) -> String {
        let l = self.locale;
        let name = self.unit_name(unit);
        let unit = name.as_str();
        msg(
            l,
            if lost {
                OrderMsg::OrderLost { unit }
            } else {
                OrderMsg::OrderDelivered { unit }
            },
        )
    }

    /// `orders`: what each of the player's units is doing, and the orders on
    /// their way.
    pub fn orders(&self, couriers: &[crate::story::Courier]) -> String {
        use crate::sim::movement::UnitOrder;
        let l = self.locale;
        let mut lines = Vec::new();
        lines.push(self.style.bold(ui(l, Ui::OrdersInForce)));
        for (idx, word) in self.known.own.iter().enumerate() {
            let Some(word) = word else { continue };
            let unit = &word.record;
            if !self.owns(idx)
                || !unit.location.present
                || !unit.location.state().can_fight_or_flee()
                || unit.men == 0
            {
                continue;
            }
            let mut doing = if unit.location.state() == MoraleState::Routing {
                ui(l, Ui::RunningDeaf).to_string()
            } else if unit.orders.order() == UnitOrder::MoveTo(unit.location.zone()) {
                // There: it holds where it was sent, not "making for" it.
                self.doing(UnitOrder::Hold)
            } else {
                self.doing(unit.orders.order())
            };
            // Where it is bound, when it should get there: a zone a turn by
            // the shortest road (crowded crossings and fights slow it).
            let goal = match unit.orders.order() {
                UnitOrder::MoveTo(z) => Some(z),
                UnitOrder::RallyTo(c) => self
                    .known
                    .commanders
                    .get(c)
                    .and_then(|c| c.as_ref())
                    .map(|c| c.zone),
                _ => None,
            };
            if unit.location.state() != MoraleState::Routing
                && let Some(goal) = goal
                && goal != unit.location.zone()
                && let Some(hops) = self.hops(unit.location.zone(), goal)
            {
                let at = clock(self.minute_of(self.known.turn.saturating_add(hops)));
                doing = msg(
                    l,
                    OrderMsg::DoingThereBy {
                        doing: &doing,
                        at: &at,
                    },
                );
            }
            let id = self
                .scene
                .units()
                .get(idx)
                .map(|u| u.id.as_str())
                .unwrap_or("");
            let at = self.zone_name(unit.location.zone());
            lines.push(msg(
                l,
                OrderMsg::OrdersLine {
                    unit: &self.unit_name(idx),
                    id,
                    at: &at,
                    doing: &doing,
                },
            ));
        }
        if !couriers.is_empty() {
            lines.push(self.style.bold(ui(l, Ui::OnTheirWay)));
            for courier in couriers {
                let idx = courier.unit.idx();
                let meta = self.scene.meta();
                let minute = meta
                    .start_minute
                    .saturating_add(courier.arrives.saturating_mul(meta.turn_minutes));
                let what = self.order_words(&courier.order);
                lines.push(msg(
                    l,
                    OrderMsg::CourierLine {
                        unit: &self.unit_name(idx),
                        what: &what,
                        minute,
                    },
                ));
            }
        }
        lines.join("\n")
    }

    /// What a unit's order has it do: "holding", "making for the ford".
    pub fn doing(&self, order: crate::sim::movement::UnitOrder) -> String {
        use crate::sim::movement::UnitOrder;
        let goal = match order {
            UnitOrder::MoveTo(z) => self.zone_name(z),
            UnitOrder::RallyTo(c) => self.commander_name(c),
            UnitOrder::Hold | UnitOrder::Pursue => String::new(),
        };
        let doing = match order {
            UnitOrder::Hold => Doing::Hold,
            UnitOrder::MoveTo(_) => Doing::MoveTo(&goal),
            UnitOrder::Pursue => Doing::Pursue,
            UnitOrder::RallyTo(_) => Doing::RallyTo(&goal),
        };
        msg(self.locale, OrderMsg::Doing(doing))
    }

    /// Zones between two, by the roads (None: no road joins them).
    pub fn hops(&self, from: usize, to: usize) -> Option<u32> {
        let n = self.field.neighbours.len();
        let mut dist = vec![u32::MAX; n];
        let mut queue = std::collections::VecDeque::new();
        *dist.get_mut(from)? = 0;
        queue.push_back(from);
        while let Some(z) = queue.pop_front() {
            if z == to {
                return Some(dist[z]);
            }
            for &o in self.field.neighbours.get(z).map_or(&[][..], Vec::as_slice) {
                if o < n && dist[o] == u32::MAX {
                    dist[o] = dist[z] + 1;
                    queue.push_back(o);
                }
            }
        }
        None
    }
}
