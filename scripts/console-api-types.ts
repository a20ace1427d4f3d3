/**
 * The console's API types: `npx tsx scripts/console-api-types.ts` writes console/api-schema.d.ts, the types
 * openapi-typescript generates from the /v2/openapi.json document the server builds. console/api.js types `api()`
 * with them, so `npx tsc -p console` fails when the console reads a field the server no longer answers.
 * test/unit/console/api-types.test.ts fails while the checked-in file differs from a fresh one.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildOpenApiDocument } from '../src/server/openapi/document.js';

export const CONSOLE_API_SCHEMA = fileURLToPath(new URL('../console/api-schema.d.ts', import.meta.url));

const HEADER = '// Generated from /v2/openapi.json by scripts/console-api-types.ts: do not edit; run it again after a change to the API.\n\n';

/** The text of console/api-schema.d.ts for the document as the server builds it now. */
export async function consoleApiSchema(): Promise<string> {
  const document = buildOpenApiDocument() as unknown as Parameters<typeof openapiTS>[0];
  return HEADER + astToString(await openapiTS(document, { silent: true }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(CONSOLE_API_SCHEMA, await consoleApiSchema());
  console.log(`wrote ${CONSOLE_API_SCHEMA}`);
}
