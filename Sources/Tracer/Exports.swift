@_exported import ChronicleInspection
@_exported import ChronicleStore
