//! Chinese: every message of the catalogue, written in Simplified
//! characters. Traditional is converted from it: a fixed phrase by the
//! dispatch in `mod.rs`, a message with values here, its fixed words (and,
//! where a whole line is converted, the names in it: they come converted
//! already and read the same again).

use super::{
    Action, Alert, Detail, Doing, MapKey, MenuMsg, Msg, Order, OrderHelp, OrderMsg, PromptMsg,
    Reload, RevealMsg, Say, SessionMsg, Troops, Ui, ViewMsg,
};
use crate::picture::Bearing;
use crate::save::SaveError;
use crate::scene::{Compass, Locale, MoraleState};
use crate::sim::morale::Modifier;
use crate::story::StoryError;
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
        Ui::WhyToldOnly => "仅凭所闻得知其状，士气因何起落无从得知",
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
        Ui::UnitDestroyed => "全军覆没",
        Ui::StuckCourier => "新令尚在途中",
        Ui::StuckCrowd => "渡口拥塞，前路不通",
        Ui::StuckDark => "夜黑难辨，摸索过渡",
        Ui::StuckDepth => "水深难行，缓缓涉渡",
        Ui::StuckBoats => "正等船只渡水",
        Ui::StuckHeld => "为当面之敌所阻",
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
        Ui::DatePlaceSep => "，",
        Ui::FirstHint => {
            "（回车静待一回合；wait 静待到有事；order 营 advance C 调动部队，字母见 map；help 查看其余命令。）"
        }
        Ui::Cancelled => "（已取消。再按一次 Ctrl-C 退出，游戏会自动存档。）",
        Ui::NotText => "这一行不是文本（非 UTF-8），已略过。",
        Ui::OrderUsage => {
            "用法：order 营 坚守|前进 地点|进攻 地点|撤退|收拢（英文 hold|advance|attack|withdraw|rally 亦可）"
        }
        Ui::OrdersChanged => "此一抉择改了你的军令：",
        Ui::NextTakesNumber => "next 后面跟回合数，如 next 5（1 到 1000）。",
        Ui::NothingToReport => "上一回合无事可报。",
        Ui::NoSceneFolder => "没有可重读的剧本目录：请用 `--scenes 目录` 开局。",
        Ui::NothingToRedo => "没有可复原的：redo 只能重做刚被 undo 收回的命令。",
        Ui::GivenBack => "复原了。",
        Ui::SoFar => "前情：",
        Ui::ChooseBattle => "选择战役",
        Ui::ChooseCommander => "选择统帅",
        Ui::GoOnWith => "接着玩上次的哪一局？",
        Ui::NewGame => "开始新的一局",
        Ui::ChooseGame => "请选择",
        Ui::WelcomeTitle => "小凌河 xiaoling",
        Ui::WelcomeWhat => {
            "明末辽东的战役，以文字推演：你扮演一方统帅，在紧要关头作出抉择，其间向各营下令；烟雾、谣言、渡口的拥挤与军心决定你的抉择会落得怎样的结局。"
        }
        Ui::CardSep => "；",
        Ui::Against => "对",
        Ui::Or => "或",
        Ui::LegendGap => "　",
        Ui::HelpHead => "输入数字作出抉择；回车静待一回合。命令（help 命令名 详述）：",
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
        Detail::Drowned => "{zone}争船抢渡，{men}人落水溺死。",
        Detail::Burned => "{zone}大火，烧死{men}人。",
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
        Detail::GHeartened => "{units}闻声士气大振。",
        Detail::GShaken => "{units}听见喊声，以为大势已去。",
        Detail::GDoubted => "{units}亲眼所见，不为喊声所动。",
        Detail::GMoves => "{units}移往{zone}。",
        Detail::GCrossed => "{units}渡过{zone}。",
        Detail::GWavers => "{units}阵脚动摇。",
        Detail::GSteadies => "{units}重新稳住阵脚。",
        Detail::GRouts => "{units}溃散奔逃！",
        Detail::GCascade => "见左右奔逃，{units}亦随之溃散！",
        Detail::GShattered => "{units}已然崩散，收拢不住了。",
        Detail::GDrumsHeard => "{units}听见{drums}。",
        Detail::GRallies => "{units}重整旗鼓。",
        Detail::Destroyed => "{zone}被毁！{men}人随之罹难。",
        Detail::Obscured => "{name}笼罩{zone}，对面不见人影。",
        Detail::Unobscured => "{zone}的{name}渐渐散去，又能看见了。",
        Detail::YouKilled => "你在{zone}力战倒下！麾下幕僚以你的名义继续指挥。",
        Detail::YouWounded => "你在{zone}负伤，被抬下阵来。",
        Detail::YouCaptured => "你在{zone}被俘！麾下幕僚以你的名义继续指挥。",
        Detail::Killed => "{commander}在{zone}阵亡！",
        Detail::Wounded => "{commander}在{zone}负伤，被抬下阵来。",
        Detail::Captured => "{commander}在{zone}被俘！",
        Detail::KilledHeard => "{zone}传来消息：{commander}已经阵亡。",
        Detail::WoundedHeard => "{zone}传来消息：{commander}负伤，已被抬下阵来。",
        Detail::CapturedHeard => "{zone}传来消息：{commander}已经被俘。",
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
        Modifier::Leader => "将领在侧",
        Modifier::Rumor => "流言",
        Modifier::Smoke => "烟呛",
        Modifier::Trapped => "退路断绝",
        Modifier::Drums => "鼓声",
        Modifier::Recovery => "喘息",
        Modifier::Orders => "号令",
        Modifier::CommanderFell => "主将倒下",
        Modifier::Withdrawal => "临阵后撤",
        Modifier::Charged => "遭铁骑冲击",
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

/// A point of the compass by its name.
pub(super) fn point(p: Compass) -> &'static str {
    match p {
        Compass::North => "北",
        Compass::South => "南",
        Compass::East => "东",
        Compass::West => "西",
        Compass::NorthEast => "东北",
        Compass::SouthEast => "东南",
        Compass::SouthWest => "西南",
        Compass::NorthWest => "西北",
    }
}

pub(super) fn wind_phrase(band: u8, toward: Compass) -> String {
    let from = point(toward.opposite());
    match band {
        0 => "无风".to_string(),
        1 => format!("微微{from}风"),
        2 => format!("{from}风阵阵"),
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

/// A template's fixed words in the reader's script, then its values as they
/// were given: names and figures come already in that script, and
/// converting Traditional text again is not a no-op (OpenCC writes 凌河 →
/// 淩河).
fn filled(l: Locale, template: &'static str, values: &[(&str, &str)]) -> String {
    crate::scene::placeholder::fill(l.zh(template), |name| {
        values
            .iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value.to_string())
    })
}

pub(super) fn msg(l: Locale, message: Msg) -> String {
    match message {
        Msg::Order(message) => order(l, message),
        Msg::View(message) => view(l, message),
        Msg::Reveal(message) => reveal(l, message),
        Msg::Prompt(message) => prompt(l, message),
        Msg::Session(message) => session(l, message),
        Msg::Menu(message) => menu(l, message),
    }
}

fn order(l: Locale, message: OrderMsg) -> String {
    match message {
        OrderMsg::Order(order) => match order {
            Order::Hold => l.zh("原地坚守").to_string(),
            Order::Advance(zone) => filled(l, "进至{zone}", &[("zone", zone)]),
            Order::Attack(zone) => filled(l, "进攻{zone}", &[("zone", zone)]),
            Order::Withdraw => l.zh("撤退").to_string(),
            Order::Rally => l.zh("向主帅靠拢").to_string(),
        },
        OrderMsg::OrderedNow { unit, what, .. } => filled(
            l,
            "{unit}当即奉令：{what}。",
            &[("unit", unit), ("what", what)],
        ),
        OrderMsg::OrderedRider {
            unit, what, minute, ..
        } => filled(
            l,
            "传令兵飞马奔向{unit}，令其{what}；约{at}可到。",
            &[
                ("unit", unit),
                ("what", what),
                ("at", &time_words(l, minute)),
            ],
        ),
        OrderMsg::OrderDelivered { unit } => filled(l, "军令送到{unit}。", &[("unit", unit)]),
        OrderMsg::OrderLost { unit } => {
            filled(l, "传令兵赶到时，{unit}已溃，军令落空。", &[("unit", unit)])
        }
        OrderMsg::Doing(doing) => match doing {
            Doing::Hold => l.zh("坚守").to_string(),
            Doing::MoveTo(zone) => filled(l, "开赴{zone}", &[("zone", zone)]),
            Doing::Pursue => l.zh("追击").to_string(),
            Doing::RallyTo(commander) => {
                filled(l, "向{commander}靠拢", &[("commander", commander)])
            }
        },
        OrderMsg::DoingThereBy { doing, at } => {
            filled(l, "{doing}，约{at}可到", &[("doing", doing), ("at", at)])
        }
        OrderMsg::OrdersLine {
            unit,
            id,
            at,
            doing,
        } => format!("  {unit}（{id}）：{at}，{doing}"),
        OrderMsg::CourierLine { unit, what, minute } => filled(
            l,
            "  {unit}：{what}，约{at}送到",
            &[
                ("unit", unit),
                ("what", what),
                ("at", &time_words(l, minute)),
            ],
        ),
        OrderMsg::ChangedOrder { unit, was, now } => filled(
            l,
            "  {unit}：原为{was}，现{now}",
            &[("unit", unit), ("was", was), ("now", now)],
        ),
        OrderMsg::CalledBack { unit, what } => filled(
            l,
            "  给{unit}的军令（{what}）已收回",
            &[("unit", unit), ("what", what)],
        ),
    }
}

fn view(l: Locale, message: ViewMsg) -> String {
    match message {
        ViewMsg::DrumsOf { yours: true, .. } => l.zh_string("你的鼓声".to_string()),
        ViewMsg::DrumsOf { commander, .. } => {
            filled(l, "{commander}的鼓声", &[("commander", commander)])
        }
        ViewMsg::Body { side, troops } => filled(
            l,
            match troops {
                Troops::Horse => "一队{side}骑兵",
                Troops::Foot => "一队{side}步卒",
                Troops::Troops => "一支{side}人马",
            },
            &[("side", side)],
        ),
        ViewMsg::Troops { side, troops } => filled(
            l,
            match troops {
                Troops::Horse => "{side}骑兵",
                Troops::Foot => "{side}步卒",
                Troops::Troops => "{side}人马",
            },
            &[("side", side)],
        ),
        ViewMsg::TurnHeader { minute, wind, .. } => format!("{}，{wind}", time_words(l, minute)),
        ViewMsg::TurnsHeader { from, to, wind, .. } => {
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
        ViewMsg::MenCell { men } => format!("{}{men}{}", l.zh("兵力"), l.zh(ui(Ui::Men))),
        ViewMsg::Marks { marks } => format!("（{}）", marks.join("、")),
        ViewMsg::UnitLabel { id } => format!("（{id}）"),
        ViewMsg::SeenInZone {
            name,
            men: "",
            bearing,
        } => filled(
            l,
            "{name}，{bearing}",
            &[("name", name), ("bearing", bearing)],
        ),
        ViewMsg::SeenInZone { name, men, bearing } => filled(
            l,
            "{name}{men}人，{bearing}",
            &[("name", name), ("men", men), ("bearing", bearing)],
        ),
        ViewMsg::SeenAt {
            line,
            at,
            reported: false,
        } => filled(l, "{line}（{at}所见）", &[("line", line), ("at", at)]),
        ViewMsg::SeenAt {
            line,
            at,
            reported: true,
        } => filled(l, "{line}（{at}探报）", &[("line", line), ("at", at)]),
        ViewMsg::Stale { what, at } => {
            filled(l, "{what}（{at}消息）", &[("what", what), ("at", at)])
        }
        ViewMsg::PlaceGone { zone_cap, at, .. } => filled(
            l,
            "已不在{zone}（{at}曾见）",
            &[("zone", zone_cap), ("at", at)],
        ),
        ViewMsg::PlaceReported { zone, at } => {
            filled(l, "{zone}（{at}探报）", &[("zone", zone), ("at", at)])
        }
        ViewMsg::PlaceSeen { zone, at } => {
            filled(l, "{zone}（{at}所见）", &[("zone", zone), ("at", at)])
        }
        ViewMsg::Whereabouts {
            here,
            blind,
            smoky,
            seen,
        } => match (blind, seen.is_empty()) {
            (true, _) if smoky => filled(
                l,
                "你在{here}，烟雾浓得看不见身边以外的人马。",
                &[("here", here)],
            ),
            (true, _) => filled(l, "你在{here}，看不见身边以外的人马。", &[("here", here)]),
            (false, true) => filled(l, "你在{here}，目力不能及于别处。", &[("here", here)]),
            (false, false) => filled(
                l,
                "你在{here}，目力所及：{seen}。",
                &[("here", here), ("seen", &seen.join("、"))],
            ),
        },
        ViewMsg::AndMore { more } => filled(l, "另有{more}部", &[("more", &more.to_string())]),
        ViewMsg::WeatherLine { wind, zone, smoke } => {
            format!("{wind}；{zone}：{smoke}。")
        }
        ViewMsg::SavesIn { dir } => format!("{dir}{}", l.zh(" 中尚无存档。")),
        ViewMsg::SaveTurn { turn } => l.zh_string(format!("第{turn}回合")),
    }
}

fn reveal(l: Locale, message: RevealMsg) -> String {
    match message {
        RevealMsg::OwnLosses { side, lost, left } => filled(
            l,
            "  {side}：折损{lost}人，尚有{left}人在阵中",
            &[("side", side), ("lost", lost), ("left", left)],
        ),
        RevealMsg::TheirReckoning {
            side,
            men: Some(men),
        } => filled(
            l,
            "  {side}：据你估计，尚有{men}人在阵中",
            &[("side", side), ("men", men)],
        ),
        RevealMsg::TheirReckoning { side, men: None } => {
            filled(l, "  {side}：兵力始终未能看清", &[("side", side)])
        }
        RevealMsg::RevealSide {
            side,
            brought,
            lost,
            standing,
            guess: Some(g),
        } => filled(
            l,
            "{side}共有{brought}人上阵，折损{lost}人，战终尚有{standing}人。你估计其兵力{g}人。",
            &[
                ("side", side),
                ("brought", brought),
                ("lost", lost),
                ("standing", standing),
                ("g", g),
            ],
        ),
        RevealMsg::RevealSide {
            side,
            brought,
            lost,
            standing,
            guess: None,
        } => filled(
            l,
            "{side}共有{brought}人上阵，折损{lost}人，战终尚有{standing}人。你始终没能看清他们的兵力。",
            &[
                ("side", side),
                ("brought", brought),
                ("lost", lost),
                ("standing", standing),
            ],
        ),
        RevealMsg::UnseenUnit { unit, men, zone } => filled(
            l,
            "{unit}（{men}人，在{zone}）",
            &[("unit", unit), ("men", men), ("zone", zone)],
        ),
        RevealMsg::NeverSeen { items } => filled(l, "你从未见到：{items}。", &[("items", items)]),
        RevealMsg::MovedUnit { unit, at, was, is } => filled(
            l,
            "{unit}：最后的消息是{at}在{was}，实则已到{is}",
            &[("unit", unit), ("at", at), ("was", was), ("is", is)],
        ),
        RevealMsg::NotWhereThought { items } => {
            filled(l, "不在你以为的地方：{items}。", &[("items", items)])
        }
        RevealMsg::WrongUnit { unit, guess, truth } => filled(
            l,
            "{unit}：你估计{guess}人，实有{truth}人",
            &[("unit", unit), ("guess", guess), ("truth", truth)],
        ),
        RevealMsg::ReckonedWrong { items } => filled(l, "估计有误：{items}。", &[("items", items)]),
        RevealMsg::Claim { side, routed: true } => filled(l, "{side}败了", &[("side", side)]),
        RevealMsg::Claim {
            side,
            routed: false,
        } => filled(l, "{side}胜了", &[("side", side)]),
        // A cry by its claim or by its words, quoted alike.
        RevealMsg::Cry {
            claim,
            believers,
            at,
            true_then,
        }
        | RevealMsg::CryHeard {
            words: claim,
            believers,
            at,
            true_then,
        } => {
            let n = l.zh_string(super::small_count(l, believers));
            let template = if true_then {
                "“{claim}”的喊声{at}传到你{n}部人马耳中：那是真的。"
            } else {
                "“{claim}”的喊声{at}传到你{n}部人马耳中：那是假的。"
            };
            filled(l, template, &[("claim", claim), ("at", at), ("n", &n)])
        }
    }
}

fn prompt(l: Locale, message: PromptMsg) -> String {
    match message {
        PromptMsg::NotFound { words, near, zone } => l.zh_string(match (zone, near) {
            (false, Some(near)) => format!(
                "你麾下没有叫“{words}”的营。是不是“{near}”？（orders 列出各营及可输入的标签。）"
            ),
            (false, None) => {
                format!("你麾下没有叫“{words}”的营。（orders 列出各营及可输入的标签。）")
            }
            (true, Some(near)) => format!(
                "没有叫“{words}”的地方。是不是“{near}”？（map 给每处标了字母，如 order 营 advance C。）"
            ),
            (true, None) => {
                format!("没有叫“{words}”的地方。（map 给每处标了字母，如 order 营 advance C。）")
            }
        }),
        PromptMsg::Several {
            words,
            several,
            zone,
        } => {
            let list = super::or_list(several, ("“", "”"), "、", "或");
            let how = if zone {
                "（map 给每处标了字母，如 order 营 advance C。）"
            } else {
                "（orders 列出各营及可输入的标签。）"
            };
            l.zh_string(format!("“{words}”可能是{list}：请把名字打全些。{how}"))
        }
        PromptMsg::NotAnOrder { word, near, usage } => {
            l.zh_string(format!("没有“{word}”这道军令。是不是“{near}”？{usage}"))
        }
        PromptMsg::StdinBroken { why } => l.zh_string(format!("无法读取标准输入：{why}")),
        PromptMsg::TooLong { size, max } => {
            l.zh_string(format!("这一行长达 {size}，命令至多 {max}，已略过。"))
        }
        PromptMsg::ChooseOption { count } => {
            l.zh_string(format!("请输入 1 到 {count} 作出抉择（look 重看局势）。"))
        }
        PromptMsg::TooLarge {
            number,
            max: Some(max),
        } => l.zh_string(format!("{number} 太大了：请输入 1 到 {max}。")),
        PromptMsg::TooLarge { number, max: None } => {
            l.zh_string(format!("{number} 太大了，眼下也无可抉择。"))
        }
        PromptMsg::SlotOneWord {
            command,
            extra,
            max,
        } => l.zh_string(format!(
            "槽位名只能是一个词：字母、数字、汉字、- 和 _，不含空格，至多 {max} 个字（如 `{command} 我的存档` 或 `{command} my-slot`）。“{extra}”多出来了，什么也没做。"
        )),
        PromptMsg::ExtraWords {
            command,
            usage,
            extra,
        } => l.zh_string(format!(
            "`{command}` 后面多了“{extra}”：用法是 {usage}。什么也没做。"
        )),
        PromptMsg::OrderNamesUnit { example } => format!(
            "{}`{example}`{}",
            l.zh("命令要指明哪一部："),
            l.zh("。UNIT 填部队的 id 或名字，`status` 列出你的部队。")
        ),
        PromptMsg::UnknownCommand {
            word,
            suggestion: Some(s),
        } => format!(
            "{}`{word}`{}`{s}`{}",
            l.zh("没有"),
            l.zh("这个命令。是不是"),
            l.zh("？输入 help 查看命令。")
        ),
        PromptMsg::UnknownCommand {
            word,
            suggestion: None,
        } => format!(
            "{}`{word}`{}",
            l.zh("没有"),
            l.zh("这个命令。输入 help 查看命令。")
        ),
        PromptMsg::NoHelp { topic } => l.zh_string(format!(
            "没有关于“{topic}”的说明。可查：order、hold、advance、attack、withdraw、rally，或任一命令（help 列出全部）。"
        )),
        PromptMsg::MapTakesList { word } => {
            l.zh_string(format!("`map` 后面只能跟 list：“{word}”不认得。"))
        }
        PromptMsg::SourcesTakes { word } => filled(
            l,
            "`sources` 后面只能跟 on 或 off：“{word}”不认得。",
            &[("word", word)],
        ),
        PromptMsg::UnknownLanguage { tag, tags } => {
            l.zh_string(format!("没有`{tag}`这种语言：可用 {}。", tags.join("、")))
        }
    }
}

fn session(l: Locale, message: SessionMsg) -> String {
    match message {
        SessionMsg::RoleLine { role, seed } => format!(
            "{}{role}（{}{seed}）",
            l.zh(ui(Ui::YouAre)),
            l.zh(ui(Ui::Seed))
        ),
        SessionMsg::CryNearby { cry } => format!("{}“{cry}”", l.zh("近处有人高喊：")),
        SessionMsg::Left { slot, saves, over } => {
            // In the language it was played in (English needs no flag).
            let dir = saves.map(|dir| format!(" --saves {dir}")).unwrap_or_default();
            let dir = format!(" --lang {}{dir}", l.tag());
            let template = if over {
                "战事已毕，存入槽位 {slot}。重看：\n  xiaoling play --load {slot}{dir}"
            } else {
                "游戏已自动存入槽位 {slot}。接着玩：\n  xiaoling play --load {slot}{dir}"
            };
            filled(l, template, &[("slot", slot), ("dir", &dir)])
        }
        SessionMsg::LeaveFailed { err } => format!("{}{err}", l.zh("退出时未能存档：")),
        SessionMsg::Fatal { err } => format!("{}{err}", l.zh("错误：")),
        SessionMsg::NoSuchBattle {
            id,
            near,
            list,
            example,
        } => {
            let near = near
                .map(|g| format!("{}{g}{}", l.zh("是不是“"), l.zh("”？")))
                .unwrap_or_default();
            let hint = if example {
                format!(
                    "{}{id}{}",
                    l.zh("\n提示：“"),
                    l.zh("”是 scenes/examples 里的示例战役：请在命令前加上 --scenes scenes/examples")
                )
            } else {
                String::new()
            };
            format!(
                "{}{id}{}{near}{}{list}{hint}",
                l.zh("没有名为“"),
                l.zh("”的战役。"),
                l.zh("可选的战役：")
            )
        }
        SessionMsg::NoSuchRole {
            role,
            battle,
            near,
            list,
        } => {
            let near = near
                .map(|g| format!("{}{g}{}", l.zh("是不是“"), l.zh("”？")))
                .unwrap_or_default();
            format!(
                "{}{battle}{}{role}{}{near}{}{list}",
                l.zh("战役“"),
                l.zh("”中没有可扮演的“"),
                l.zh("”。"),
                l.zh("可扮演的角色：")
            )
        }
        SessionMsg::FolderBusy { folder } => format!(
            "{}{folder}{}",
            l.zh("另一局 xiaoling 正用着存档文件夹 "),
            l.zh("：请先结束那一局，或给这一局另用一个文件夹（--saves 文件夹）。")
        ),
        SessionMsg::Stopped { reason } => format!("{}{reason}{}", l.zh("（暂停："), l.zh("。）")),
        SessionMsg::StoppedLosses {
            men,
            percent,
            turns,
        } => {
            let percent = crate::repl::numbers::zh_numeral(percent);
            let when = match turns {
                0 | 1 => l.zh("（暂停：本回合我军折损").to_string(),
                n => format!(
                    "{}{}{}",
                    l.zh("（暂停：这"),
                    crate::repl::numbers::zh_numeral(n),
                    l.zh("回合间我军折损")
                ),
            };
            format!(
                "{when}{men}{}{percent}{}",
                l.zh("人，占全军百分之"),
                l.zh("。）")
            )
        }
        SessionMsg::SourcesShown { on: true } => l
            .zh("此后每逢抉择，书中或史实所取的选项后会标出「书中之选」或「史实之选」；sources off 可再隐去。")
            .to_string(),
        SessionMsg::SourcesShown { on: false } => l
            .zh("抉择时不标出书中之选或史实之选；sources on 可在抉择前标出。")
            .to_string(),
        SessionMsg::ResumeItem {
            title,
            who,
            turn,
            when,
            slot,
        } => filled(
            l,
            "{title}，{who}，第{turn}回合（{when} UTC 存于 {slot}）",
            &[
                ("title", title),
                ("who", who),
                ("turn", &turn.to_string()),
                ("when", when),
                ("slot", slot),
            ],
        ),
        SessionMsg::Saved { slot, path } => format!("{}{slot}（{path}）", l.zh("已存档：")),
        SessionMsg::Loaded { slot } => format!("{}{slot}", l.zh("已读档：")),
        SessionMsg::SceneProblems { count } => {
            l.zh_string(format!("剧本有{count}处问题；本局照旧进行。"))
        }
        SessionMsg::NoBattleIn { id, folder } => {
            l.zh_string(format!("{folder} 中没有 `{id}` 这一战；本局照旧进行。"))
        }
        SessionMsg::CannotOpen { err } => {
            l.zh_string(format!("新版剧本无法开局（{err}）；本局照旧进行。"))
        }
        SessionMsg::Reloaded { id, how } => l.zh_string(match how {
            Reload::Failed { command, why } => format!(
                "已重读 `{id}`。第{command}条指令在新版上无法执行（{why}），本局从其前继续。"
            ),
            Reload::PartsAt { turn } => {
                format!("已重读 `{id}`。新版自第{turn}回合起与本局不同，此后依新版进行。")
            }
            Reload::Same => format!("已重读 `{id}`。新版下本局进程不变，此后按新文本讲述。"),
            Reload::Differs { .. } => format!("已重读 `{id}`。新版下本局结果有所不同。"),
        }),
        SessionMsg::TakenBack { steps: 1 } => l.zh("悔了一步（redo 可复原）。").to_string(),
        SessionMsg::TakenBack { steps } => l.zh_string(format!(
            "悔了一步：上一条命令，共{}步（redo 可复原）。",
            crate::repl::numbers::zh_numeral(steps)
        )),
        SessionMsg::Staff { commander } => filled(l, "{commander}麾下", &[("commander", commander)]),
        SessionMsg::ChoiceSource { source } => format!("（{source}）"),
        SessionMsg::LogTurn { turn } => {
            let turn = turn.map_or("?".to_string(), |t| t.to_string());
            format!("{}{turn}{}", l.zh(ui(Ui::Turn)), l.zh(ui(Ui::TurnSuffix)))
        }
        SessionMsg::RecapLine {
            role,
            side,
            turn,
            time,
            seed,
        } => format!(
            "{} {role}（{side}）· {}{turn}{} · {time} · {} {seed}",
            l.zh(ui(Ui::YouAre)),
            l.zh(ui(Ui::Turn)),
            l.zh(ui(Ui::TurnSuffix)),
            l.zh(ui(Ui::Seed))
        ),
        SessionMsg::AutosaveFailed { err } => format!(
            "{}{err}）",
            l.zh("（自动存档失败，游戏照常进行；存档恢复后若再失败，才再提示：")
        ),
        SessionMsg::OtherSave {
            slot,
            turn,
            when,
            more,
            in_game,
            saves,
        } => {
            let template = if more {
                "本局另有存档可读：{slot}，第{turn}回合（{when} UTC 存；其余见 saves）。由此接着玩："
            } else {
                "本局另有存档可读：{slot}，第{turn}回合（{when} UTC 存）。由此接着玩："
            };
            let turn = turn.to_string();
            let head = filled(l, template, &[("slot", slot), ("turn", &turn), ("when", when)]);
            super::en::go_on_from(&head, slot, in_game, saves, Some(l.tag()))
        }
        SessionMsg::SavesHere {
            slot,
            turn,
            when,
            next,
            more,
            in_game,
            saves,
        } => {
            let template = if more {
                "读不出它是哪一局的存档。此文件夹里可读的存档，由新到旧：{slot}，第{turn}回合（{when} UTC 存）{next}（其余见 saves）。由最新的一个接着玩："
            } else {
                "读不出它是哪一局的存档。此文件夹里可读的存档，由新到旧：{slot}，第{turn}回合（{when} UTC 存）{next}。由最新的一个接着玩："
            };
            let turn = turn.to_string();
            let next: String = next.iter().map(|name| format!("、{name}")).collect();
            let values = [("slot", slot), ("turn", turn.as_str()), ("when", when), ("next", &next)];
            let head = filled(l, template, &values);
            super::en::go_on_from(&head, slot, in_game, saves, Some(l.tag()))
        }
    }
}

fn menu(l: Locale, message: MenuMsg) -> String {
    match message {
        MenuMsg::RoleItem { name, id, side } => format!("{name}（{id}）· {side}"),
        MenuMsg::RoleWithSide { name, side } => format!("{name}（{side}）"),
        MenuMsg::BattleLength {
            max_turns,
            turn_minutes,
        } => {
            let said = crate::repl::numbers::zh_numeral;
            let minutes = max_turns.saturating_mul(turn_minutes);
            let hours = minutes / 60;
            let span = if hours >= 24 {
                format!("约{}天", said(hours.div_ceil(24)))
            } else if hours > 0 {
                format!("约{}个时辰", said(hours.div_ceil(2)))
            } else {
                format!("{}分钟", said(minutes))
            };
            l.zh_string(format!(
                "至多{}回合，每回合{}分钟，{span}",
                said(max_turns),
                said(turn_minutes)
            ))
        }
        MenuMsg::CardWhen { date, place } => format!("{date}，{place}"),
        MenuMsg::CardWho {
            sides,
            roles,
            length,
        } => {
            let sep = ui(Ui::CardSep);
            format!(
                "{}{sep}{}{}{sep}{length}",
                sides.join(l.zh(ui(Ui::Against))),
                l.zh("可扮演："),
                roles.join(l.zh(ui(Ui::Or)))
            )
        }
        MenuMsg::PickHelp { n, asked: true } => l.zh_string(format!(
            "输入 1 到 {n} 的数字，或所列的 id、名字；quit（或 Ctrl-C）退出。"
        )),
        MenuMsg::PickHelp { n, asked: false } => l.zh_string(format!(
            "请输入 1 到 {n} 的数字，或所列的 id、名字（help、quit）。"
        )),
    }
}

pub(super) fn story_error(l: Locale, err: &StoryError) -> String {
    match err {
        StoryError::ChoicePending => l.zh("尚有抉择待定：请输入选项编号。").to_string(),
        StoryError::NothingToChoose => l
            .zh("眼下无可抉择。按回车或输入 next 静待一回合。")
            .to_string(),
        StoryError::NoSuchOption(_, max) => {
            l.zh_string(format!("没有这个选项：请输入 1 到 {max}。"))
        }
        StoryError::NoOptionNamed(id) => l.zh_string(format!("此番抉择没有“{id}”这一项。")),
        StoryError::Ended => l.zh("此战已毕。可输入 undo、load 或 quit。").to_string(),
        StoryError::UndoForbidden => l.zh("此战不许悔棋。").to_string(),
        StoryError::NothingToUndo => l.zh("已是开局，无可悔之步。").to_string(),
        StoryError::NoOrders(_) => l.zh("此战你只在关头决断，不能向各营下令。").to_string(),
        StoryError::NoSuchUnit(unit) => l.zh_string(format!("你麾下没有“{unit}”。")),
        StoryError::NoSuchZone(zone) => l.zh_string(format!("战场上没有“{zone}”这个地方。")),
        StoryError::NotOnField => l.zh("该营不在战场上。").to_string(),
        StoryError::WillNotListen => l.zh("该营正在溃逃，重整之前不听号令。").to_string(),
        StoryError::NoRoad => l.zh("没有道路通往该营，传令兵到不了。").to_string(),
        StoryError::TooManyOrders(n) => l.zh_string(format!(
            "你已下令 {n} 次，存档容不下更多命令：此战不能再下令，回合与抉择照常（next）。"
        )),
        StoryError::NoSuchRole(role, roles) => {
            l.zh_string(format!("此战没有“{role}”这个角色；可扮演：{roles}。"))
        }
        StoryError::Stuck { seed, turn, error } => format!(
            "{}{}",
            l.zh_string(format!("局号{seed}的一局在第{turn}回合出错停住：")),
            story_error(l, error)
        ),
    }
}

pub(super) fn save_error(l: Locale, err: &SaveError) -> String {
    use crate::save::{MAX_SLOT_CHARS, SlotProblem};
    // Only the catalogue's own words are converted for zh-Hant: paths,
    // slot names and what the system said are shown as they are.
    let z = |text: &'static str| l.zh(text);
    match err {
        SaveError::BadSlot(slot, why) => {
            let why = match why {
                SlotProblem::Empty => z("名字是空的"),
                SlotProblem::TooLong => z("名字太长"),
                SlotProblem::PathSeparator => z("名字里不能有路径分隔符"),
                SlotProblem::Dot => z("名字不能以点开头"),
                SlotProblem::Dash => z("名字不能以 - 开头（会被当作选项）"),
                SlotProblem::Control => z("名字里有控制字符"),
                SlotProblem::OtherCharacters => z("名字里有字母、数字、- 和 _ 以外的字符"),
            };
            // The limit is said, as a number in Chinese prose is.
            let most = crate::repl::numbers::zh_numeral(MAX_SLOT_CHARS as u32);
            format!(
                "{}「{slot}」{}：{why}。{}{}{}",
                z("存档名"),
                z("不可用"),
                z("请只用字母、数字、- 和 _（至多"),
                l.zh_string(most),
                z("个字符）。"),
            )
        }
        SaveError::Missing(slot, path) => {
            format!("{}「{slot}」{}（{path}）。", z("没有名为"), z("的存档"))
        }
        SaveError::Folder(path, why) => {
            format!("{}{path}{}{why}", z("无法使用存档文件夹 "), z("："))
        }
        SaveError::Write(path, why) => format!(
            "{}{path}{}{why}{}",
            z("无法存档到 "),
            z("："),
            z("（原有的存档未动）")
        ),
        SaveError::Refused(path, why) => format!(
            "{}{path}{}{why}{}",
            z("未存入 "),
            z("：读回检查时发现，载入时会拒绝此存档（"),
            z("）；该存档位保留上一次完好的存档。")
        ),
        SaveError::Read(path, why) => format!("{}{path}{}{why}", z("无法读取 "), z("：")),
        SaveError::Damaged(path, why) => {
            format!(
                "{path}{}{}{}",
                z(" 不是可用的 xiaoling 存档："),
                damage(l, why),
                z("。")
            )
        }
        SaveError::TooNew(path, format, min, max) => format!(
            "{path}{}{format}{}{min}{}{max}{}",
            z(" 出自更新版本的 xiaoling（存档格式 "),
            z("；本版本能读 "),
            z(" 至 "),
            z("）：请先更新 xiaoling。")
        ),
        SaveError::TooOld(path, format, min, max) => format!(
            "{path}{}{format}{}{min}{}{max}{}",
            z(" 是旧存档（格式 "),
            z("），本版本已不再读取（只读 "),
            z(" 至 "),
            z("）。")
        ),
        SaveError::UnknownScene(path, battle, here) => format!(
            "{path}{}{battle}{}{here}{}",
            z(" 是战役「"),
            z("」的存档，此处没有载入这一战（现有："),
            z("）。")
        ),
    }
}

/// Why a file is not a usable save, in Chinese words of the catalogue's
/// own: the kind of damage and where, never the parser's or a check's
/// English (a file's or journal's path aside, which is not said here).
pub(super) fn damage(l: Locale, damage: &crate::save::Damage) -> String {
    use crate::save::{Damage, Flaw, JournalFault, Part};
    let z = |text: &'static str| l.zh(text);
    match damage {
        Damage::Text {
            part,
            at,
            flaw,
            near,
            ..
        } => {
            let part = match part {
                Part::Syntax => z("文件已损坏或被截断"),
                Part::Foreign => z("文件的文字可读，却不是存档的格式"),
                Part::Contents => z("存档的内容已损坏"),
            };
            let flaw = match flaw {
                Flaw::CutShort => z("文字到此中断，后面的内容缺失").to_string(),
                Flaw::Unexpected(c) => {
                    let shown = if c.is_control() || c.is_whitespace() {
                        format!("U+{:04X}", u32::from(*c))
                    } else {
                        c.to_string()
                    };
                    format!("{}{shown}{}", z("出现了不该有的字符「"), z("」"))
                }
                Flaw::MissingField(_) => z("缺了存档必有的一项").to_string(),
                Flaw::UnknownField(_) => z("多出一项存档里没有的内容").to_string(),
                Flaw::DuplicateField(_) => z("同一项写了两次").to_string(),
                Flaw::WrongValue => z("有一个值的类型或范围不对").to_string(),
                Flaw::TooDeep => z("括号嵌套之深，超过任何存档").to_string(),
                Flaw::Other => z("写法不合存档的格式").to_string(),
            };
            // The column where it can be counted to; the words there (as
            // the file has them) where the line is too long for that.
            let near = if near.is_empty() {
                String::new()
            } else {
                format!("{}{near}{}", z("（“"), z("”一带）"))
            };
            let place = if at.shows_column() {
                format!(
                    "{}{}{}{}{}",
                    z("第"),
                    at.line,
                    z("行第"),
                    at.column,
                    z("列处")
                )
            } else {
                format!("{}{}{}", z("第"), at.line, z("行"))
            };
            format!("{part}{}{place}{near}{flaw}", z("，"))
        }
        Damage::NotText => z("它不是文本（字节无法按文字编码读出）").to_string(),
        Damage::Empty => z("文件是空的").to_string(),
        Damage::TooLarge(cap) => {
            let size = if *cap >= 1 << 20 {
                format!("{} MB", cap >> 20)
            } else {
                format!("{}{}", crate::stdx::group_thousands(*cap), z(" 字节"))
            };
            format!("{}{size}{}", z("文件大于 "), z("，远超任何存档"))
        }
        Damage::NotAFile(what) => {
            let what = match *what {
                "a folder" => z("文件夹"),
                "a FIFO (named pipe)" => z("命名管道"),
                "a device" => z("设备"),
                "a socket" => z("套接字"),
                _ => z("特殊文件"),
            };
            format!("{}{what}{}", z("它是"), z("，不是普通文件"))
        }
        Damage::JournalAndCommands => z("它既指向日志，又自带命令").to_string(),
        Damage::JournalAndPrints => z("它既指向日志，又自带局面指纹").to_string(),
        Damage::JournalNotRead => z("它的命令在一份未读取的日志里").to_string(),
        Damage::Journal { fault, .. } => match fault {
            JournalFault::Missing => z("它所依的日志文件不见了"),
            JournalFault::CutShort => z("它所依的日志被截断了，比存档所记的短"),
            JournalFault::Mismatch => z("它所依的日志与存档写成时的内容对不上"),
            JournalFault::Unreadable => z("它所依的日志无法读取（系统拒绝）"),
            JournalFault::Damaged => z("它所依的日志已损坏"),
        }
        .to_string(),
        Damage::OutOfBounds(_) => z("其中有数值超出任何战役的范围").to_string(),
        Damage::Misfit(_) => {
            z("它与这一战对不上：其中有这一战没有的部队、地段、阵营、角色或命令").to_string()
        }
        Damage::Unreplayable { command, .. } => format!(
            "{}{command}{}",
            z("写成之后被改动过（校验和不符），而且它的命令已无法重演（第 "),
            z(" 条命令走不通）")
        ),
    }
}

/// What a replay of a save's commands found, in Chinese words: which
/// command did not run, or at which turn the replay parted from the save
/// (what differed is told by kind, not in the check's English words).
pub(super) fn replay_report(l: Locale, report: &crate::save::ReplayReport) -> String {
    let z = |text: &'static str| l.zh(text);
    let end = if report.end_difference.is_some() {
        z("到最后，局面也与所存的不同。")
    } else {
        ""
    };
    match (&report.failed, report.diverged_at) {
        (Some((n, _)), _) => format!(
            "{}{}{}",
            z("第 "),
            n + 1,
            z(" 条命令在那里走不通，游戏停在它之前。")
        ),
        (None, Some((n, turn))) => format!(
            "{}{turn}{}{}{}{end}",
            z("重演在第"),
            z("回合（第 "),
            n + 1,
            z(" 条命令之前）与所存的对局分道。"),
        ),
        (None, None) if report.same_end => z("重演恰好到达所存的局面。").to_string(),
        (None, None) => z("最后的局面与所存的不同。").to_string(),
    }
}

/// Why a slot cannot be read, in a few words for the `saves` table.
pub(super) fn short_reason(l: Locale, err: &SaveError) -> String {
    use crate::save::{Damage, Part};
    let z = |text: &'static str| l.zh(text);
    match err {
        SaveError::TooNew(_, format, ..) => format!("{}{format}", z("新版格式 ")),
        SaveError::TooOld(_, format, ..) => format!("{}{format}", z("旧版格式 ")),
        SaveError::Damaged(_, Damage::Text { part, .. }) => match part {
            Part::Syntax => z("已损坏或被截断"),
            Part::Foreign => z("不是存档"),
            Part::Contents => z("内容已损坏"),
        }
        .to_string(),
        SaveError::Damaged(_, why) => damage(l, why),
        other => save_error(l, other),
    }
}

pub(super) fn load_notice(l: Locale, notice: &crate::save::LoadNotice) -> String {
    use crate::save::{Changed, LoadNotice};
    let z = |text: &'static str| l.zh(text);
    match notice {
        LoadNotice::Changed {
            shown,
            what,
            scene,
            commands,
            report,
        } => {
            let what = match what {
                Changed::Battle => z("」已有改动"),
                Changed::Rules => z("」的规则已有改动"),
                Changed::Both => z("」及其规则都已有改动"),
            };
            let outcome = report.as_ref().map_or_else(
                || z("所到的局面与存档相同，一无所失。").to_string(),
                |report| replay_report(l, report),
            );
            format!(
                "{shown}{}{scene}{what}{}{commands}{}{outcome}",
                z("：自此存档写成以来，战役「"),
                z("。你的 "),
                z(" 条命令已在现行版本上重演："),
            )
        }
        LoadNotice::Unreached { shown, report } => format!(
            "{shown}{}{}{}",
            z("：在这一版 xiaoling 上，此存档的命令到不了它所存的局面（"),
            replay_report(l, report),
            z("）。游戏从所存的局面接着走；悔棋不能退到它之前。"),
        ),
        LoadNotice::Replayed {
            shown,
            commands,
            turn,
            reached,
        } => {
            let reached = if *reached {
                z("正是存档所记之处")
            } else {
                z("文件里所写的局面不用")
            };
            format!(
                "{shown}{}{commands}{}{turn}{}{reached}。",
                z(" 写成之后被改动过（校验和不符）。它的 "),
                z(" 条命令已从局号重演：游戏在第"),
                z("回合接着走，"),
            )
        }
        LoadNotice::Rebuilt {
            shown,
            why,
            from,
            commands,
            turn,
            then,
        } => {
            let then = then
                .as_deref()
                .map(|then| load_notice(l, then))
                .unwrap_or_default();
            let from = match from {
                None => z("它的日志").to_string(),
                Some(slot) => format!("{}{slot}", z("它的自动存档 ")),
            };
            let why = damage(l, why);
            format!(
                "{shown}{}{why}{}{from}{}{commands}{}{turn}{}{then}",
                z(" 读不出来（"),
                z("）。游戏已按"),
                z("重建：它的 "),
                z(" 条命令已从局号重演，游戏在第"),
                z("回合接着走。下一次存档会写在这个损坏的文件上。"),
            )
        }
    }
}

pub(super) fn order_refused(l: Locale, unit: &str, err: &StoryError) -> Option<String> {
    let template = match err {
        StoryError::WillNotListen => {
            "{unit}正在溃逃，重整之前什么命令都不听：听得见鼓声（附近有带鼓的主将），或脱离战斗喘过气来，才会收拢。眼下可向未溃的部队下令（orders；help rally）。"
        }
        StoryError::NoRoad => {
            "没有传令兵走得通的道路通往{unit}（道路断绝或为敌所据），军令送不出去。等道路通了再下令，或向够得着的部队下令（orders）。"
        }
        StoryError::NotOnField => "{unit}已不在战场上（溃散、被俘或离去），不再受令。",
        _ => return None,
    };
    Some(filled(l, template, &[("unit", unit)]))
}

pub(super) fn say(say: Say) -> &'static str {
    match say {
        Say::Destroyed => "{zone}被毁，{men}人随之罹难！",
        Say::DestroyedOwn => "{zone}被毁，{men}人随之罹难，其中我军{own}人！",
        Say::DestroyedAllOwn => "{zone}被毁，我军{own}人随之罹难！",
        Say::DestroyedEmpty => "{zone}被毁！",
        Say::OwnRout | Say::OwnRoutMany => "{list}溃散奔逃！",
        Say::SeenRout | Say::SeenRoutMany => "望见{list}溃散奔逃。",
        Say::Shattered | Say::ShatteredMany => "{list}已然崩散，收拢不住了。",
        Say::UnitDestroyed | Say::UnitDestroyedMany => "{list}全军覆没，无一生还。",
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
        Say::TrampledBoth => "{zone}人马拥塞，{men}人被挤倒践踏，其中我军{own}人。",
        Say::Drowned => "{zone}争船抢渡，{men}人落水溺死。",
        Say::DrownedOwn => "{zone}争船抢渡，我军{men}人落水溺死。",
        Say::DrownedBoth => "{zone}争船抢渡，{men}人落水溺死，其中我军{own}人。",
        Say::Burned => "{zone}大火，烧死{men}人。",
        Say::BurnedOwn => "{zone}大火，我军{men}人被烧死。",
        Say::BurnedBoth => "{zone}大火，烧死{men}人，其中我军{own}人。",
        Say::LossOwn => "我军折损{men}人。",
        Say::LossSeen => "{enemy}折损{men}人。",
        Say::Rally | Say::RallyMany => "{list}重整旗鼓。",
        Say::RoutRallied | Say::RoutRalliedMany => "{list}一度溃散奔逃，随即重整旗鼓。",
        Say::News => "{since}以来音讯全无的{list}终于有了消息：现在{zone}，兵力{men}人，{state}。",
        Say::NewsMany => {
            "{since}以来音讯全无的{zone}诸部终于有了消息：{list}，兵力{men}人，{state}。"
        }
        Say::NewsLost => {
            "{since}以来音讯全无的{list}终于有了消息：现在{zone}，兵力{men}人，{state}；其间折损{lost}人。"
        }
        Say::NewsLostMany => {
            "{since}以来音讯全无的{zone}诸部终于有了消息：{list}，兵力{men}人，{state}；其间折损{lost}人。"
        }
        Say::Rider => "{list}{since}遣骑来报：在{zone}，兵力{men}人，{state}。",
        Say::RiderMany => "{zone}诸部{since}遣骑来报：{list}，兵力{men}人，{state}。",
        Say::RiderLost => "{list}{since}遣骑来报：在{zone}，兵力{men}人，{state}；折损{lost}人。",
        Say::RiderLostMany => {
            "{zone}诸部{since}遣骑来报：{list}，兵力{men}人，{state}；折损{lost}人。"
        }
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
        Say::MarchFight | Say::MarchFightMany => "{list}开赴{zone}，投入激战：{losses}。",
        Say::CrossFight | Say::CrossFightMany => "{list}经{ford}抵达{zone}，投入激战：{losses}。",
        Say::EnemyComes => "{enemy}向{zone}压来。",
        Say::EnemyAppears => "{zone}出现{enemy}旗号，望去{men}人。",
        Say::EnemyAppearsAgain => "{zone}又见{enemy}旗号，望去{men}人。",
        Say::FireStarts => "{zone}火起。",
        Say::FireSpreads => "火势蔓延至{zone}。",
        Say::FireOut => "{zone}的火烧尽了。",
        Say::SmokeThick => "浓烟笼罩{zone}。",
        Say::SmokeClears => "{zone}上空烟消。",
        Say::WindNow => "风势转变：{wind}。",
        Say::WindVeers => "风向右转，如今刮的是{from}风。",
        Say::WindBacks => "风向左转，如今刮的是{from}风。",
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

pub(super) fn command_help(action: Action) -> &'static str {
    match action {
        Action::Look => "眼下的局势，以及待决的抉择",
        Action::Status => "我军各部（兵力、状态、士气，或最后的消息）与所知敌情",
        Action::Map => "战场图：道路、河流、烟火、我军与所知敌情；map list 逐处列出",
        Action::Next => "静待一回合，或N回合（有事即停）；回车亦可",
        Action::Wait => "静待，直到有事：待决之事、军情、我军遇袭或溃散、发现敌军",
        Action::Order => {
            "向本部某营下令（用标签或名字）：坚守、前进 某地、进攻 某地、撤退、收拢；不在身边者由传令兵送达"
        }
        Action::Orders => "各部现行军令与在途军令",
        Action::Report => "上一回合详报：各部的行止、交战与士气",
        Action::Log => "至今的抉择与事件",
        Action::Why => "上一回合各部士气起落之因",
        Action::Save => "存档（默认槽位 quick）",
        Action::Load => "读档",
        Action::Saves => "列出存档",
        Action::Reload => "供剧本作者：重读本战剧本文件，并在新版上重演本局的指令",
        Action::Undo => "悔一步：收回上一条命令（一回合、整个 next 5 或 wait、一次抉择、一道军令）",
        Action::Redo => "复原：重做刚悔掉的那一步",
        Action::Sources => "抉择前是否在选项后标出书中之选或史实之选（起初不标；随本局存档）",
        Action::Lang => "查看或切换语言",
        Action::Help => "本帮助；help order、help rally、help map 等详述",
        Action::Quit => "退出（自动存档）",
    }
}

pub(super) fn order_help(key: OrderHelp) -> &'static str {
    match key {
        OrderHelp::Intro => {
            "order 营 命令 [地点]：向本部某营下令。营可用标签（orders 与地图在名字后列出）或名字，中英文皆可；地点可用地图上的字母（A、B……）、编号或名字。你所在之处的部队立即奉令；别处的由传令兵送去，要走几回合（经浓烟更慢，部队动摇时再慢一回合），送到之前部队若已溃逃，命令作废。orders 列出各营现行军令、在途军令与预计到达的回合。"
        }
        OrderHelp::Hold => {
            "order 营 hold（坚守）：原地不动，就地接战；有掩蔽（芦苇、车营、城墙）之处折损较少。正在溃逃的部队不听此令。"
        }
        OrderHelp::Advance => {
            "order 营 advance 地点（前进）：循最近的道路开往该地，每回合走一段，途中遇敌即战；渡口与桥每回合只能过有限的人。正在溃逃的部队不听此令。"
        }
        OrderHelp::Attack => {
            "order 营 attack 地点（进攻）：与前进相同，但全军鼓勇而进（士气上升）；敌军若看见这一击，会派最近的生力军来迎。正在溃逃的部队不听此令。"
        }
        OrderHelp::Withdraw => {
            "order 营 withdraw（撤退）：循最近的道路退回本方大营（溃兵奔逃之处）；若与敌军相接，敌骑可能追击。正在溃逃的部队不听此令。"
        }
        OrderHelp::Rally => {
            "order 营 rally（收拢）：严整或动摇的部队向你靠拢，到你所在之处，留在你身边。已在溃逃的部队什么命令都不听：只有听得见鼓声（附近有带鼓的主将）或脱离战斗喘过气来，才能收拢。"
        }
    }
}

pub(super) fn map_key(key: MapKey) -> &'static str {
    match key {
        MapKey::Legend => "图例：",
        MapKey::You => "★ 你所在",
        MapKey::YourMen => "● 我军",
        MapKey::EnemyNow => "◆ 敌军（眼下所见）",
        MapKey::EnemyEarlier => "◇ 敌军（先前所见或探报）",
        MapKey::Unseen => "? 未见",
        MapKey::ThinSmoke => "▒ 薄烟",
        MapKey::ThickSmoke => "▓ 浓烟",
        MapKey::Fire => "* 火",
        MapKey::Roads => "─│ 道路相通",
        MapKey::InABox => "框内：字母、地形、地名、你、我军、敌军；烟火染其两边",
    }
}
