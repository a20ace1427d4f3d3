export { AlertformClient, PAGE_SIZE, type ClientOptions } from './api.js';
export { ApiResponseError, ConnectionError, isNotFound, isTransient } from './errors.js';
export { parseServerUrl, redactUrl, type Connection } from './connection.js';
export { resolveServer, type ResolvedServer, type ResolveServerOptions, type ServerChoice, type ServerSource } from './resolve-server.js';
export { HttpClient, defaultRetryPolicy, parseRetryAfter, type RetryPolicy, type HttpOptions } from './http.js';
