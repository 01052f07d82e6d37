import ChroniclePersistence
// A child process for the persistence crash test: it saves ever-changing states as fast as it
// can until it is killed. Each state's elements all equal its generation number, so a state read
// back is either whole or detectably mixed.
import ChronicleStore
import Foundation

struct Snapshot: Codable, Sendable, Equatable {
  var generation: Int
  var values: [Int]
}

let directory = URL(fileURLWithPath: CommandLine.arguments[1])
let persistence = StatePersistence<Snapshot>(key: "crash", directory: directory, typeName: "Snapshot")
var generation = 0
while true {
  generation += 1
  try persistence.save(Snapshot(generation: generation, values: Array(repeating: generation, count: 20_000)))
  if generation == 1 {
    FileHandle.standardOutput.write(Data("ready\n".utf8))
  }
}
