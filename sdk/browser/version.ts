// The tracker's version and wire name: the one place they are written. The build reads
// this file too, so the bundles, the manifest and the output folder always agree.
export const TRACKER_VERSION = '0.6.5';
export const TRACKER_NAME = 'pp-browser';
