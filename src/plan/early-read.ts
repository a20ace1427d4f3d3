import { AlertformClient } from '../client/api.js';
import { parseServerUrl, redactUrl } from '../client/connection.js';
import { resolveServer } from '../client/resolve-server.js';
import type { ServerRequest } from './plan-project.js';
import { readLists, type ServerLists } from './state.js';
import type { ReadReporter } from '../progress/reads.js';

/** The server a plan talks to, known before its definitions load, and the reading of its lists already under way. */
export interface EarlyRead {
  client: AlertformClient;
  /** The server's base URL as it may be printed (never the key). */
  server: string;
  /** The lists, or `undefined` when the early read failed: the plan then reads them as it always did. */
  lists: Promise<ServerLists | undefined>;
  /** Gives the read up (definitions that do not load, a flag check that fails); harmless once it finished. */
  stop(): void;
}

/**
 * Starts reading the server's lists while the definitions load (the two are independent, and on a large account
 * each takes about as long as the other), when the server is known without alertform.yaml: a client given by the
 * caller, or a server named by the flags/inputs or ALERTFORM_URL (both come before alertform.yaml's `server:`).
 * Otherwise `undefined`, and the plan reads once the definitions loaded.
 *
 * Nothing of this early read is seen: it does not retry (so it prints no retry notice) and its failure is dropped;
 * the plan then reads again the ordinary way, with the same retries, notices and errors as without it. Invalid
 * definitions stop it, so they are reported exactly as before, with nothing left running.
 */
export function startEarlyRead(request: ServerRequest, env: NodeJS.ProcessEnv, reportRead?: ReadReporter): EarlyRead | undefined {
  let client: AlertformClient;
  let reader: AlertformClient;
  let server: string;
  if ('client' in request) {
    ({ client } = request);
    reader = client;
    server = request.printable;
  } else {
    if (!request.given?.server && !env.ALERTFORM_URL) return undefined;
    let resolved: ReturnType<typeof resolveServer>;
    try {
      resolved = resolveServer({ env, missingHint: request.missingHint, ...(request.given ? { given: request.given } : {}) });
    } catch {
      // A bad URL is reported after the definitions loaded, where it always was.
      return undefined;
    }
    const reporting = reportRead ? { reportRead } : {};
    client = new AlertformClient({ ...resolved, ...reporting });
    reader = new AlertformClient({ ...resolved, ...reporting, retry: { retries: 0 } });
    server = redactUrl(parseServerUrl(resolved.server, resolved.apiKey).baseUrl);
  }
  const controller = new AbortController();
  const lists = readLists(reader, controller.signal).catch(() => undefined);
  return { client, server, lists, stop: () => controller.abort() };
}
