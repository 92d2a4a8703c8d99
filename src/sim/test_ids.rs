// A scene's typed ids by the names its file gives them, for tests: the
// unit tests include this file from `sim/testing.rs`, the integration
// tests from `tests/common` (each importing `FileId`, `Scene`, `UnitId`,
// `ZoneId` and `Game` first). A name the scene lacks is a mistake in the
// test: it panics.

/// Typed ids by name, for tests.
pub trait Ids {
    fn scene_of(&self) -> &Scene;
    fn id<T: FileId>(&self, name: &str) -> T {
        let found = self.scene_of().find(name);
        found.unwrap_or_else(|| panic!("the scene has no `{name}`"))
    }
    /// What the file calls `id`.
    fn name_of<T: FileId>(&self, id: T) -> &str {
        self.scene_of().id_of(id)
    }
    fn unit(&self, name: &str) -> UnitId {
        self.id(name)
    }
    fn zone(&self, name: &str) -> ZoneId {
        self.id(name)
    }
}

impl Ids for Scene {
    fn scene_of(&self) -> &Scene {
        self
    }
}

impl Ids for Game {
    fn scene_of(&self) -> &Scene {
        self.scene()
    }
}
