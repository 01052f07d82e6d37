// `import Chronicle` brings in the whole toolkit.
@_exported import ChronicleFormats
@_exported import ChronicleMiddleware
@_exported import ChronicleStore
@_exported import ChronicleTimeTravel
@_exported import ChronicleTracer
