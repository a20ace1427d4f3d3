import { AlertformError } from '../model/errors.js';
import { parseServerUrl } from './connection.js';

/** A server and key named by one source. */
export interface ServerChoice {
  server?: string;
  apiKey?: string;
}

/** Where the server URL came from. */
export type ServerSource = 'given' | 'env' | 'project' | 'fallback';

/** The server to talk to and the key to send it. */
export interface ResolvedServer {
  server: string;
  apiKey?: string;
  source: ServerSource;
}

export interface ResolveServerOptions {
  /** What the caller was told directly: the CLI's --server/--api-key, the Action's server-url/api-key inputs. */
  given?: ServerChoice;
  /** ALERTFORM_URL and ALERTFORM_API_KEY are read from here. */
  env?: NodeJS.ProcessEnv;
  /**
   * alertform.yaml's `server:`. Pass it only when the files are as trusted as the key: the CLI does, the Action
   * never does (a pull request can edit alertform.yaml, and the key must not follow it to the PR's server).
   */
  projectServer?: string;
  /** The server when no source names one (the agent: the hosted API); without it, no server is an error. */
  fallback?: string;
  /** What to say when no source names a server. */
  missingHint: string;
}

/**
 * The one server resolution: given (flags or inputs) over env (ALERTFORM_URL, ALERTFORM_API_KEY) over
 * alertform.yaml's `server:`. Empty values count as unset. The URL is checked here, so a bad one fails before any
 * file is read or request sent.
 */
export function resolveServer(options: ResolveServerOptions): ResolvedServer {
  const env = options.env ?? process.env;
  const candidates: [ServerSource, string | undefined][] = [
    ['given', options.given?.server],
    ['env', env.ALERTFORM_URL],
    ['project', options.projectServer],
    ['fallback', options.fallback],
  ];
  const found = candidates.find(([, server]) => server !== undefined && server !== '');
  if (!found) throw new AlertformError('no_server', `no server: ${options.missingHint}`);
  const [source, server] = found as [ServerSource, string];
  const apiKey = options.given?.apiKey || env.ALERTFORM_API_KEY || undefined;
  parseServerUrl(server, apiKey);
  return { server, source, ...(apiKey ? { apiKey } : {}) };
}
