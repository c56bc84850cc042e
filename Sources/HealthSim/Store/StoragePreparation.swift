/// What a storage made of a sample ahead of its save, on another thread (an import's
/// reader): the part of the sample's stored form that depends on its content alone, not on
/// the UUID, writer, creation date or position the save gives it.
///
/// Opaque to Health: a storage's own code makes it (`CheckedSample(checking:preparing:)`),
/// and a save of checked samples hands it back to the storage with the sample saved from it
/// (`HealthSampleStorage.apply(_:prepared:)`), which checks that it fits that sample before
/// it uses it. A preparation never changes once made, so it may cross threads.
public protocol StoragePreparation: AnyObject, Sendable {}
