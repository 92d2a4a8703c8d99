//! `graph`: a battle's choice graph in Graphviz DOT — turning points and
//! their options, events and endings, and which conditions name which.

use crate::scene::{Condition, Scene};

/// The choice graph: turning points and their options, with an edge from an
/// option to every turning point, event or ending whose condition names it.
pub fn graph_dot(scene: &Scene) -> String {
    let mut dot = format!(
        "digraph \"{}\" {{\n  rankdir=LR;\n  node [fontname=\"sans-serif\"];\n",
        scene.id()
    );
    for tp in scene.turning_points() {
        dot.push_str(&format!(
            "  \"{}\" [shape=box, style=bold, label=\"★ {}\\n({})\"];\n",
            tp.id, tp.id, tp.role
        ));
        for option in &tp.options {
            let node = format!("{}/{}", tp.id, option.id);
            let style = if option.historical {
                ", style=filled, fillcolor=lightyellow"
            } else {
                ""
            };
            dot.push_str(&format!(
                "  \"{node}\" [shape=ellipse, label=\"{}\"{style}];\n",
                option.id
            ));
            dot.push_str(&format!("  \"{}\" -> \"{node}\";\n", tp.id));
        }
    }
    for event in scene.events() {
        dot.push_str(&format!(
            "  \"event:{}\" [shape=note, label=\"{}\"];\n",
            event.id, event.id
        ));
    }
    for ending in scene.endings() {
        dot.push_str(&format!(
            "  \"ending:{}\" [shape=doubleoctagon, label=\"{}\"];\n",
            ending.id, ending.id
        ));
    }
    let mut edges = Vec::new();
    let targets = scene
        .turning_points()
        .iter()
        .map(|t| (t.id.clone(), &t.when))
        .chain(
            scene
                .events()
                .iter()
                .map(|e| (format!("event:{}", e.id), &e.when)),
        )
        .chain(
            scene
                .endings()
                .iter()
                .map(|e| (format!("ending:{}", e.id), &e.when)),
        );
    for (target, when) in targets {
        let mut sources = Vec::new();
        mentions(when, &mut sources);
        for source in sources {
            edges.push(format!("  \"{source}\" -> \"{target}\" [style=dashed];\n"));
        }
    }
    edges.sort();
    edges.dedup();
    for edge in edges {
        dot.push_str(&edge);
    }
    dot.push_str("}\n");
    dot
}

fn mentions(condition: &Condition, out: &mut Vec<String>) {
    match condition {
        Condition::All(items) | Condition::Any(items) => {
            items.iter().for_each(|c| mentions(c, out))
        }
        Condition::Not(item) => mentions(item, out),
        Condition::Chosen { tp, option } => out.push(format!("{tp}/{option}")),
        Condition::Reached(tp) => out.push(tp.clone()),
        Condition::Happened(event) => out.push(format!("event:{event}")),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_point_at_what_their_choice_brings_about() {
        let scene = crate::sim::testing::small_scene(|mut raw| {
            raw.turning_points = vec![
                ron::from_str(
                    r#"(id: "at-the-ford", role: "zhang", when: Always, situation: "", options: [
                        (id: "cross", text: "Cross.", narration: "", effects: [SetFlag("crossed")]),
                        (id: "stay", text: "Stay.", narration: "", effects: [SetFlag("stayed")], historical: true),
                    ])"#,
                )
                .expect("a turning point"),
            ];
            raw.endings.insert(
                0,
                ron::from_str(
                    r#"(id: "over", title: "Over", text: "", summary: "",
                        when: All([Turn(AtLeast(2)), Chosen(tp: "at-the-ford", option: "cross")]))"#,
                )
                .expect("an ending"),
            );
            raw
        });
        let dot = graph_dot(&scene);
        assert!(dot.starts_with("digraph \"small\" {"), "{dot}");
        assert!(
            dot.contains("\"at-the-ford\" -> \"at-the-ford/cross\";"),
            "{dot}"
        );
        assert!(dot.contains("\"at-the-ford/stay\" [shape=ellipse, label=\"stay\", style=filled"));
        assert!(
            dot.contains("\"at-the-ford/cross\" -> \"ending:over\" [style=dashed];"),
            "{dot}"
        );
        assert!(!dot.contains("\"at-the-ford/stay\" -> \"ending:over\""));
        assert!(dot.ends_with("}\n"));
    }
}
