// Intentionally empty: CChronicleTicks is a header-only module (see include/chronicle_ticks.h);
// SwiftPM needs one source file to build a C target.
