@_exported import ChronicleStore
