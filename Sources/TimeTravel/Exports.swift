@_exported import ChronicleFormats
@_exported import ChronicleStore
@_exported import ChronicleTracer
