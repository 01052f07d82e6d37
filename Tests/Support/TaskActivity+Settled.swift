import ChronicleStore

extension TaskActivity {
  /// Waits until no job of this activity is queued or running, for at most `limit`.
  ///
  /// A task's value (or its error) is published from inside its last job, which the activity
  /// counts until the job returns: a test that awaited a task's value and then reads
  /// ``runningCount`` may still see that job. After this returns, `runningCount` is 0 unless a job
  /// is really stuck, which the caller's expectation then reports instead of hanging.
  package func settled(within limit: Duration = .seconds(10)) async {
    let waiter = Task { await self.waitUntilQuiescent() }
    let deadline = Task {
      try? await Task.sleep(for: limit)
      waiter.cancel()
    }
    await waiter.value
    deadline.cancel()
  }
}
