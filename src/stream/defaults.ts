/** The carbon receiver's and the stream's default bounds (serve's option table shows them; the server uses them). */
export const DEFAULT_MAX_LINE_BYTES = 8192;
export const DEFAULT_MAX_CONNECTIONS = 256;
/** Matched series kept in memory. */
export const DEFAULT_STREAM_MAX_SERIES = 500_000;
