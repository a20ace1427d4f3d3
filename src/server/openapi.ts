/** Placeholder replaced below. */
export function buildOpenApiDocument(): Record<string, unknown> {
  return { openapi: '3.1.0', info: { title: 'alertform /v2', version: '0.1.0' }, paths: {} };
}
