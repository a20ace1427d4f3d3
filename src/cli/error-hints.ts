import { AlertformError } from '../model/errors.js';

/**
 * The next step for a failure a newcomer meets first, said after the error: nothing listening at the server's
 * address, or a key the server refused (401). undefined for every other failure. Reads only the error's code and
 * fields, so main.ts need not load the HTTP client to ask.
 */
export function hintFor(error: unknown): string | undefined {
  if (!(error instanceof AlertformError)) return undefined;
  const fields = error as AlertformError & { refused?: boolean; blockedPort?: boolean; url?: string; status?: number; keySent?: boolean };
  if (error.code === 'connection_failed' && fields.blockedPort) {
    return `${originOf(fields.url)} uses a port that fetch never connects to (the fetch standard's blocked ports, such as 1, 9, 6000 and 6667): serve on another port (alertform serve --port 8080)`;
  }
  if (error.code === 'connection_failed' && fields.refused) {
    return `nothing is listening at ${originOf(fields.url)}: start \`alertform serve\` or set --server / ALERTFORM_URL to your server`;
  }
  if (error.code === 'api_response' && fields.status === 401) {
    return fields.keySent !== false
      ? 'the server does not know this API key: set ALERTFORM_API_KEY (or --api-key) to a key of that server (`alertform keys create` makes one there)'
      : 'no API key was sent: set ALERTFORM_API_KEY (or pass --api-key) to a key of that server (`alertform keys create` makes one there)';
  }
  return undefined;
}

function originOf(url: string | undefined): string {
  try {
    return new URL(url ?? '').origin;
  } catch {
    return 'the server';
  }
}
