// `import Chronicle` brings in the whole toolkit.
@_exported import ChronicleClocks
@_exported import ChronicleFormats
@_exported import ChronicleInspection
@_exported import ChronicleMiddleware
@_exported import ChroniclePersistence
@_exported import ChronicleStore
@_exported import ChronicleTimeTravel
@_exported import ChronicleTracer
