/// Marks the thread that applies actions on behalf of a ``TimeTravel`` controller (held actions,
/// branch actions), so that its middleware lets them through instead of treating them as live.
///
/// `Store.send` processes an action on the calling thread (it is queued only when that thread is
/// already processing one), so a value bound around the call is seen by the middleware.
enum ReleaseMarker {
  @TaskLocal static var controller: ObjectIdentifier?
}
