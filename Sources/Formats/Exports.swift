// `import ChronicleFormats` is enough to read and write journals: their types come from the Tracer.
@_exported import ChronicleTracer
