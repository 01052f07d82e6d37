// chronicle-inspector: the live inspector. Serves the inspector page and accepts apps streaming
// their journals (docs/formats/live-link.md).
//
//     chronicle-inspector [--host 127.0.0.1] [--port 0] [--data DIR] [--token T] [--allow-origin ORIGIN]
//
// Its first line of output is the page's address with the token, its second the address apps
// connect to; it runs until interrupted.
import ChronicleInspectorServer
import Foundation

let usage =
  "usage: chronicle-inspector [--host 127.0.0.1] [--port 0] [--data DIR] [--token T] [--allow-origin ORIGIN]"

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data((message + "\n" + usage + "\n").utf8))
  exit(64)
}

var configuration = InspectorConfiguration()
var arguments = CommandLine.arguments.dropFirst()
while let option = arguments.popFirst() {
  if option == "--help" || option == "-h" {
    print(usage)
    exit(0)
  }
  guard let value = arguments.popFirst() else { fail("\(option) needs a value") }
  switch option {
  case "--host": configuration.host = value
  case "--port":
    guard let port = Int(value), (0...65535).contains(port) else { fail("--port takes 0 to 65535") }
    configuration.port = port
  case "--data": configuration.dataDirectory = URL(fileURLWithPath: value, isDirectory: true)
  case "--token":
    guard !value.isEmpty,
      value.unicodeScalars.allSatisfy({
        $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0)
          || "-_.~".unicodeScalars.contains($0)
      })
    else {
      fail("--token takes letters, digits, '-', '_', '.' and '~'")
    }
    configuration.token = value
  case "--allow-origin": configuration.allowedOrigins.append(value)
  default: fail("unknown option \(option)")
  }
}

do {
  let server = try InspectorServer(configuration: configuration)
  try await server.start()
  // Written unbuffered: a script reading the address waits for these two lines.
  FileHandle.standardOutput.write(
    Data("Chronicle inspector on \(server.pageURL)\napps connect to \(server.appURL)\n".utf8))
  try await server.wait()
} catch {
  FileHandle.standardError.write(Data("chronicle-inspector: \(error)\n".utf8))
  exit(1)
}
