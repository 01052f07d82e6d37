@_exported import ChronicleTracer
