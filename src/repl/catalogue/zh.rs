//! Chinese: every message of the catalogue, written in Simplified
//! characters. Traditional is converted from it: a fixed phrase by the
//! dispatch in `mod.rs`, a message with values here, its fixed words (and,
//! where a whole line is converted, the names in it: they come converted
//! already and read the same again).

use super::{Detail, Doing, Msg, Order, Say, Troops, Ui};
use crate::picture::Bearing;
use crate::repl::chronicle::Alert;
use crate::scene::{Compass, Locale, MoraleState};
use crate::sim::morale::Modifier;
use crate::story::clock;

pub(super) fn ui(phrase: Ui) -> &'static str {
    match phrase {
        Ui::Turn => "第",
        Ui::TurnSuffix => "回合",
        Ui::Choose => "请抉择",
        Ui::Ending => "结局：",
        Ui::AfterAction => "战后",
        Ui::History => "书中所记",
        Ui::HistoryRecords => "史实",
        Ui::NotKnown => "你所不知道的",
        Ui::NoneSeen => "尚未见到敌军",
        Ui::YouAre => "你扮演",
        Ui::YourChoice => "你选择",
        Ui::Novel => "书中之选",
        Ui::HistoryChoice => "史实之选",
        Ui::Men => "人",
        Ui::NoWhy => "上一回合各部士气并无起落。",
        Ui::NoLog => "尚无抉择。",
        Ui::Seed => "局号",
        Ui::UnknownNumber => "不知多少",
        Ui::Nobody => "无人",
        Ui::You => "我军",
        Ui::ListSep => "、",
        Ui::ClauseSep => "，",
        Ui::ItemSep => "；",
        Ui::Colon => "：",
        Ui::OrdersInForce => "各部军令",
        Ui::RunningDeaf => "溃逃中，不听号令",
        Ui::OnTheirWay => "在途军令",
        Ui::NorthUp => "北 ↑",
        Ui::Legend => {
            "图例：★ 你所在　▲ 营寨　· 道路　≈ 渡口　= 桥　（火、烟）　│ 道路相通　？未见　淡色：先前所见"
        }
        Ui::Destroyed => "已毁",
        Ui::Fire => "火",
        Ui::Unseen => "？未见",
        Ui::NoOneInSight => "不见人影",
        Ui::UnknownNumbers => "不知多少",
        Ui::NotInField => "你已不在阵中：各部的消息由你的幕僚收拢。",
        Ui::YourSide => " · 我方",
        Ui::ThickSmoke => "浓烟",
        Ui::ThinSmoke => "薄烟",
        Ui::ClearAir => "晴明",
        Ui::Unreadable => "✗ 无法读取",
        Ui::LabelGap => "",
        Ui::SentenceGap => "",
        Ui::LossesSep => "，",
    }
}

pub(super) fn template(key: Detail) -> &'static str {
    match key {
        Detail::Wind => "风势：{wind}。",
        Detail::FireStarts => "{zone}火起。",
        Detail::FireSpreads => "火势蔓延至{zone}。",
        Detail::FireOut => "{zone}的火烧尽了。",
        Detail::SmokeThick => "浓烟笼罩{zone}，对面不见人影。",
        Detail::SmokeClears => "{zone}上空烟消。",
        Detail::RumorLost => "{unit}听见喊声，信以为大势已去。",
        Detail::RumorWon => "{unit}听见喊声，士气大振。",
        Detail::RumorDoubted => "{unit}亲眼所见，不为喊声所动。",
        Detail::Moves => "{unit}自{from}移至{to}。",
        Detail::Crossed => "{unit}渡过了{zone}。",
        Detail::Trampled => "{zone}人马拥塞，{men}人被挤倒践踏。",
        Detail::Clash => "{zone}交战：{losses}。",
        Detail::ClashSide => "{side}折损{men}人",
        Detail::Casualties => "{unit}折损{men}人。",
        Detail::Wavers => "{unit}阵脚动摇。",
        Detail::Steadies => "{unit}重新稳住阵脚。",
        Detail::Routs => "{unit}溃散奔逃！",
        Detail::Cascade => "见左右奔逃，{unit}亦随之溃散！",
        Detail::Shattered => "{unit}已然崩散，收拢不住了。",
        Detail::Drums => "{commander}的战鼓在{zone}擂响。",
        Detail::DrumsFar => "{zone}方向鼓声大作。",
        Detail::DrumsHeard => "{unit}听见{drums}。",
        Detail::Rallies => "{unit}重整旗鼓。",
        Detail::Surrenders => "{unit}弃械投降，降者{men}人。",
        Detail::Officers => "不肯降的军官{men}人被部下砍倒。",
        Detail::Arrives => "{unit}赶到{zone}。",
        Detail::GHeartened => "闻声振奋：{units}。",
        Detail::GShaken => "闻声以为大势已去：{units}。",
        Detail::GDoubted => "亲眼所见，不为喊声所动：{units}。",
        Detail::GMoves => "移往{zone}：{units}。",
        Detail::GCrossed => "渡过{zone}：{units}。",
        Detail::GWavers => "阵脚动摇：{units}。",
        Detail::GSteadies => "重新稳住：{units}。",
        Detail::GRouts => "溃散奔逃：{units}！",
        Detail::GCascade => "见左右奔逃，随之溃散：{units}！",
        Detail::GShattered => "崩散，收拢不住：{units}。",
        Detail::GDrumsHeard => "听见{drums}：{units}。",
        Detail::GRallies => "重整旗鼓：{units}。",
        Detail::Destroyed => "{zone}被毁！{men}人随之罹难。",
        Detail::Obscured => "{name}笼罩{zone}，对面不见人影。",
        Detail::Unobscured => "{zone}的{name}渐渐散去，又能看见了。",
        Detail::YouKilled => "你在{zone}力战倒下！麾下幕僚以你的名义继续指挥。",
        Detail::YouWounded => "你在{zone}负伤，被抬下阵来。",
        Detail::YouCaptured => "你在{zone}被俘！麾下幕僚以你的名义继续指挥。",
        Detail::Killed => "{commander}在{zone}阵亡！",
        Detail::Wounded => "{commander}在{zone}负伤，被抬下阵来。",
        Detail::Captured => "{commander}在{zone}被俘！",
    }
}

pub(super) fn state_name(state: MoraleState) -> &'static str {
    match state {
        MoraleState::Steady => "严整",
        MoraleState::Wavering => "动摇",
        MoraleState::Routing => "溃逃",
        MoraleState::Rallied => "重整",
        MoraleState::Surrendered => "已降",
        MoraleState::Shattered => "崩散",
    }
}

pub(super) fn modifier_name(modifier: Modifier) -> &'static str {
    match modifier {
        Modifier::Casualties => "伤亡",
        Modifier::Outnumbered => "众寡悬殊",
        Modifier::Contagion => "友军溃逃",
        Modifier::Leader => "主将在侧",
        Modifier::Rumor => "流言",
        Modifier::Smoke => "烟呛",
        Modifier::Trapped => "退路断绝",
        Modifier::Drums => "鼓声",
        Modifier::Recovery => "喘息",
        Modifier::Orders => "号令",
        Modifier::CommanderFell => "主将倒下",
        Modifier::Withdrawal => "临阵后撤",
        Modifier::Event => "战局",
    }
}

pub(super) fn bearing(bearing: Bearing) -> &'static str {
    match bearing {
        Bearing::Standing => "列阵不动",
        Bearing::Moving => "正在移动",
        Bearing::Fighting => "正在交战",
        Bearing::Shaken => "阵脚松动",
        Bearing::Running => "溃逃",
        Bearing::Broken => "已溃散",
    }
}

pub(super) fn wind_phrase(band: u8, toward: Compass) -> String {
    let from = match toward {
        Compass::North => "南",
        Compass::South => "北",
        Compass::East => "西",
        Compass::West => "东",
    };
    match band {
        0 => "无风".to_string(),
        1 => format!("微微{from}风"),
        2 => format!("{from}风渐紧"),
        _ => format!("{from}风大作"),
    }
}

pub(super) fn time_words(locale: Locale, minute: u32) -> String {
    let hm = clock(minute);
    let minute = minute % (24 * 60);
    // Night watches: the first from 19:00, each two hours, the fifth ending at 05:00.
    let watch = match minute {
        m if m >= 19 * 60 => Some((m - 19 * 60) / 120),
        m if m < 5 * 60 => Some((m + 5 * 60) / 120),
        _ => None,
    };
    let words = match watch {
        Some(w) => format!("{}更", ["一", "二", "三", "四", "五"][w.min(4) as usize]),
        None => {
            // 子 is 23:00-01:00; each double hour has 初 (first hour) and 正.
            const BRANCHES: [&str; 12] = [
                "子", "丑", "寅", "卯", "辰", "巳", "午", "未", "申", "酉", "戌", "亥",
            ];
            let shifted = (minute + 60) % (24 * 60);
            let branch = BRANCHES[(shifted / 120) as usize];
            let half = if (shifted % 120) < 60 { "初" } else { "正" };
            let ke = (minute % 60) / 15;
            let ke = ["", "一刻", "二刻", "三刻"][ke as usize];
            format!("{branch}{half}{ke}")
        }
    };
    locale.zh_string(format!("{words}（{hm}）"))
}

pub(super) fn bodies(locale: Locale, name: &str, count: usize) -> String {
    let n = u32::try_from(count).unwrap_or(u32::MAX);
    let said = locale.zh_string(crate::repl::numbers::zh_numeral(n));
    for one in ["一队", "一支", "一隊"] {
        if name.contains(one) {
            return name.replacen(
                one,
                &format!("{said}{}", one.chars().nth(1).unwrap_or('队')),
                1,
            );
        }
    }
    name.to_string()
}

pub(super) fn msg(l: Locale, message: Msg) -> String {
    match message {
        Msg::DrumsOf { yours: true, .. } => l.zh_string("你的鼓声".to_string()),
        Msg::DrumsOf { commander, .. } => l.zh_string(format!("{commander}的鼓声")),
        Msg::Body { side, troops } => l.zh_string(match troops {
            Troops::Horse => format!("一队{side}骑兵"),
            Troops::Foot => format!("一队{side}步卒"),
            Troops::Troops => format!("一支{side}人马"),
        }),
        Msg::Troops { side, troops } => l.zh_string(match troops {
            Troops::Horse => format!("{side}骑兵"),
            Troops::Foot => format!("{side}步卒"),
            Troops::Troops => format!("{side}人马"),
        }),
        Msg::Order(order) => l.zh_string(match order {
            Order::Hold => "原地坚守".to_string(),
            Order::Advance(zone) => format!("进至{zone}"),
            Order::Attack(zone) => format!("进攻{zone}"),
            Order::Withdraw => "撤退".to_string(),
            Order::Rally => "向主帅靠拢".to_string(),
        }),
        Msg::OrderedNow { unit, what, .. } => l.zh_string(format!("{unit}当即奉令：{what}。")),
        Msg::OrderedRider {
            unit, what, minute, ..
        } => l.zh_string(format!(
            "传令兵飞马奔向{unit}，令其{what}；约{}可到。",
            time_words(l, minute)
        )),
        Msg::OrderDelivered { unit } => l.zh_string(format!("军令送到{unit}。")),
        Msg::OrderLost { unit } => l.zh_string(format!("传令兵赶到时，{unit}已溃，军令落空。")),
        Msg::Doing(doing) => l.zh_string(match doing {
            Doing::Hold => "坚守".to_string(),
            Doing::MoveTo(zone) => format!("开赴{zone}"),
            Doing::Pursue => "追击".to_string(),
            Doing::RallyTo(commander) => format!("向{commander}靠拢"),
        }),
        Msg::DoingThereBy { doing, at } => format!("{doing}，约{at}可到"),
        Msg::OrdersLine {
            unit,
            id,
            at,
            doing,
        } => l.zh_string(format!("  {unit}（{id}）：{at}，{doing}")),
        Msg::CourierLine { unit, what, minute } => l.zh_string(format!(
            "  {unit}：{what}，约{}送到",
            time_words(l, minute)
        )),
        Msg::TurnHeader { minute, wind, .. } => format!("{}，{wind}", time_words(l, minute)),
        Msg::TurnsHeader { from, to, wind, .. } => {
            let (a, b) = (time_words(l, from), time_words(l, to));
            // 三更（23:30）至三更（00:00） reads as 三更（23:30至00:00）.
            let period = |t: &str| t.split('（').next().unwrap_or("").to_string();
            if period(&a) == period(&b) {
                format!(
                    "{}（{}{}{}），{wind}",
                    period(&a),
                    clock(from),
                    l.zh("至"),
                    clock(to)
                )
            } else {
                format!("{a}{}{b}，{wind}", l.zh("至"))
            }
        }
        Msg::MenCell { men } => format!("{}{men}{}", l.zh("兵力"), l.zh(ui(Ui::Men))),
        Msg::Marks { marks } => format!("（{}）", marks.join("、")),
        Msg::UnitLabel { id } => format!("（{id}）"),
        Msg::SeenInZone {
            name,
            men: "",
            bearing,
        } => format!("{name}，{bearing}"),
        Msg::SeenInZone { name, men, bearing } => format!("{name}{men}人，{bearing}"),
        Msg::SeenAt { line, at } => format!("{line}（{at}所见）"),
        Msg::Stale { what, at } => l.zh_string(format!("{what}（{at}消息）")),
        Msg::PlaceGone { zone_cap, at, .. } => format!("已不在{zone_cap}（{at}曾见）"),
        Msg::PlaceReported { zone } => format!("{zone}（探报）"),
        Msg::PlaceSeen { zone, at } => format!("{zone}（{at}所见）"),
        Msg::PlaceReportedAt { zone, at } => format!("{zone}（{at}探报）"),
        Msg::Whereabouts {
            here,
            blind,
            smoky,
            seen,
        } => match (blind, seen.is_empty()) {
            (true, _) if smoky => format!("你在{here}，烟雾浓得看不见身边以外的人马。"),
            (true, _) => format!("你在{here}，看不见身边以外的人马。"),
            (false, true) => format!("你在{here}，目力不能及于别处。"),
            (false, false) => format!("你在{here}，目力所及：{}。", seen.join("、")),
        },
        Msg::OwnLosses { side, lost, left } => {
            l.zh_string(format!("  {side}：折损{lost}人，尚有{left}人在阵中"))
        }
        Msg::TheirReckoning {
            side,
            men: Some(men),
        } => l.zh_string(format!("  {side}：据你估计，尚有{men}人在阵中")),
        Msg::TheirReckoning { side, men: None } => {
            l.zh_string(format!("  {side}：兵力始终未能看清"))
        }
        Msg::RevealSide {
            side,
            brought,
            lost,
            standing,
            guess: Some(g),
        } => l.zh_string(format!(
            "{side}共有{brought}人上阵，折损{lost}人，战终尚有{standing}人。你估计其兵力{g}人。"
        )),
        Msg::RevealSide {
            side,
            brought,
            lost,
            standing,
            guess: None,
        } => l.zh_string(format!(
            "{side}共有{brought}人上阵，折损{lost}人，战终尚有{standing}人。你始终没能看清他们的兵力。"
        )),
        Msg::AndMore { more } => format!("另有{more}部"),
        Msg::UnseenUnit { unit, men, zone } => format!("{unit}（{men}人，在{zone}）"),
        Msg::NeverSeen { items } => l.zh_string(format!("你从未见到：{items}。")),
        Msg::MovedUnit { unit, at, was, is } => {
            format!("{unit}：你最后于{at}在{was}见到，其实已到{is}")
        }
        Msg::NotWhereThought { items } => l.zh_string(format!("不在你以为的地方：{items}。")),
        Msg::WrongUnit { unit, guess, truth } => {
            format!("{unit}：你估计{guess}人，实有{truth}人")
        }
        Msg::ReckonedWrong { items } => l.zh_string(format!("估计有误：{items}。")),
        Msg::Claim { side, routed: true } => format!("{side}败了"),
        Msg::Claim {
            side,
            routed: false,
        } => format!("{side}胜了"),
        Msg::Cry {
            claim,
            believers,
            at,
            true_then,
        } => {
            let n = super::small_count(l, believers);
            let truth = if true_then { "真" } else { "假" };
            l.zh_string(format!(
                "“{claim}”的喊声{at}传到你{n}部人马耳中：那是{truth}的。"
            ))
        }
        Msg::WeatherLine { wind, zone, smoke } => {
            l.zh_string(format!("{wind}；{zone}：{smoke}。"))
        }
        Msg::SavesIn { dir } => format!("{dir}{}", l.zh(" 中尚无存档。")),
        Msg::SaveTurn { turn } => l.zh_string(format!("第{turn}回合")),
    }
}

pub(super) fn say(say: Say) -> &'static str {
    match say {
        Say::Destroyed => "{zone}被毁，{men}人随之罹难！",
        Say::DestroyedEmpty => "{zone}被毁！",
        Say::OwnRout | Say::OwnRoutMany => "{list}溃散奔逃！",
        Say::SeenRout | Say::SeenRoutMany => "望见{list}溃散奔逃。",
        Say::Shattered | Say::ShatteredMany => "{list}已然崩散，收拢不住了。",
        Say::Surrender | Say::SurrenderMany => "{list}弃械投降，降者{men}人。",
        Say::Officers => "不肯降的军官{men}人被部下砍倒。",
        Say::Arrive | Say::ArriveMany => "{list}赶到{zone}。",
        Say::Fight => "{zone}激战：我军折损{own}人，{enemy}折损{seen}人。",
        Say::FightOwnOnly => "{zone}激战：我军折损{own}人。",
        Say::FightSeenOnly => "{zone}激战：{enemy}折损{seen}人。",
        Say::FightGoesOn => "{zone}仍在厮杀（{losses}）。",
        Say::FightHeard => "{zone}方向传来厮杀声。",
        Say::Trampled => "{zone}人马拥塞，{men}人被挤倒践踏。",
        Say::TrampledOwn => "{zone}人马拥塞，我军{men}人被挤倒践踏。",
        Say::LossOwn => "我军折损{men}人。",
        Say::LossSeen => "{enemy}折损{men}人。",
        Say::Rally | Say::RallyMany => "{list}重整旗鼓。",
        Say::Drums => "{commander}的战鼓在{zone}擂响。",
        Say::DrumsYours => "你的战鼓在{zone}擂响。",
        Say::DrumsHeardFar => "{zone}方向鼓声大作。",
        Say::Shaken | Say::ShakenMany => "{list}听见喊声，以为大势已去。",
        Say::Heartened | Say::HeartenedMany => "{list}闻声士气大振。",
        Say::Doubted => "我军亲眼所见，不为喊声所动。",
        Say::Waver | Say::WaverMany => "{list}阵脚动摇。",
        Say::Steady | Say::SteadyMany => "{list}重新稳住阵脚。",
        Say::March | Say::MarchMany => "{list}开赴{zone}。",
        Say::Flee | Say::FleeMany => "{list}向{zone}溃退。",
        Say::Cross | Say::CrossMany => "{list}经{ford}抵达{zone}。",
        Say::EnemyComes => "{enemy}向{zone}压来。",
        Say::FireStarts => "{zone}火起。",
        Say::FireSpreads => "火势蔓延至{zone}。",
        Say::FireOut => "{zone}的火烧尽了。",
        Say::SmokeThick => "浓烟笼罩{zone}。",
        Say::SmokeClears => "{zone}上空烟消。",
        Say::WindNow => "风势转变：{wind}。",
        Say::Others => "等{n}部",
    }
}

pub(super) fn alert(alert: Alert) -> &'static str {
    match alert {
        Alert::Destroyed => "渡口被毁",
        Alert::CommanderFell => "我军将领有失",
        Alert::OwnBroke => "我军有部溃散",
        Alert::Attacked => "我军遭到攻击",
        Alert::EnemySighted => "发现敌军",
        Alert::Arrived => "我军援兵赶到",
        Alert::Story => "战局有变",
    }
}
