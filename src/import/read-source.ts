import { readFile, stat } from 'node:fs/promises';
import { parse } from 'yaml';
import { maxAnswerBytes, readCappedText } from '../client/capped-answer.js';
import { AlertformError } from '../model/errors.js';
import type { ImportSource } from './import-types.js';

/** The environment variable that holds each tool's token for URL sources. */
export const TOKEN_VARIABLE: Record<ImportSource, string> = { moira: 'MOIRA_TOKEN', grafana: 'GRAFANA_TOKEN' };

/**
 * The read-only calls that export each tool's rules from its URL, in order; a call marked optional may be refused
 * (a Moira without user settings, a Grafana token that may not decrypt contact points) and the import goes on.
 */
const CALLS: Record<ImportSource, { path: string; optional: boolean; fallback?: string }[]> = {
  moira: [
    { path: '/api/trigger', optional: false },
    { path: '/api/user/settings', optional: true },
  ],
  grafana: [
    { path: '/api/v1/provisioning/alert-rules/export?format=json', optional: false },
    { path: '/api/v1/provisioning/contact-points/export?format=json&decrypt=true', optional: true, fallback: '/api/v1/provisioning/contact-points/export?format=json' },
  ],
};

/** One parsed document and where it came from (a file path, or a URL without credentials). */
export interface SourceDocument {
  origin: string;
  document: unknown;
}

/** Reads each SOURCE: files (JSON or YAML) as they are, a URL through the tool's export calls. */
export async function readSources(tool: ImportSource, sources: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<SourceDocument[]> {
  const documents: SourceDocument[] = [];
  for (const source of sources) {
    if (/^https?:\/\//i.test(source)) documents.push(...(await readUrl(tool, source, env)));
    else documents.push({ origin: source, document: await readSourceFile(source, env) });
  }
  return documents;
}

async function readSourceFile(path: string, env: NodeJS.ProcessEnv): Promise<unknown> {
  const limit = maxAnswerBytes(env);
  const size = (await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new AlertformError('bad_source', `${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  })).size;
  if (size > limit) throw new AlertformError('bad_source', `${path}: larger than ${limit} bytes (set ALERTFORM_MAX_ANSWER_BYTES to read it)`);
  return parseDocument(await readFile(path, 'utf8'), path);
}

function parseDocument(text: string, origin: string): unknown {
  try {
    // YAML 1.2 reads JSON as well; aliases are capped so that a crafted file cannot expand without bound.
    return parse(text, { maxAliasCount: 100 });
  } catch (error) {
    const where = (error as { linePos?: { line: number; col: number }[] }).linePos?.[0];
    throw new AlertformError('bad_source', `${origin}${where ? `:${where.line}:${where.col}` : ''}: not JSON or YAML: ${(error as Error).message.split('\n')[0]}`);
  }
}

/**
 * GETs of the tool's export calls, with the token from the environment as a bearer token. No redirect is
 * followed (the token would go along to wherever it leads), answers are read up to the CLI's answer cap.
 */
async function readUrl(tool: ImportSource, base: string, env: NodeJS.ProcessEnv): Promise<SourceDocument[]> {
  const url = new URL(base);
  if (url.username || url.password) throw new AlertformError('bad_source', `put the ${tool} token in ${TOKEN_VARIABLE[tool]}, not in the URL`);
  const token = env[TOKEN_VARIABLE[tool]];
  const root = url.href.replace(/\/+$/, '');
  const documents: SourceDocument[] = [];
  for (const call of CALLS[tool]) {
    let answer = await get(`${root}${call.path}`, token, env);
    if (!answer.ok && call.fallback) answer = await get(`${root}${call.fallback}`, token, env);
    if (!answer.ok) {
      if (call.optional) continue;
      throw new AlertformError('bad_source', `GET ${root}${call.path} answered ${answer.status}${answer.status === 401 || answer.status === 403 ? `: set ${TOKEN_VARIABLE[tool]} to a token that may read it` : ''}`);
    }
    documents.push({ origin: `${root}${call.path}`, document: parseDocument(answer.text, `${root}${call.path}`) });
  }
  return documents;
}

async function get(url: string, token: string | undefined, env: NodeJS.ProcessEnv): Promise<{ ok: boolean; status: number; text: string }> {
  const response = await fetch(url, {
    redirect: 'manual',
    headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    signal: AbortSignal.timeout(30_000),
  }).catch((error: Error) => {
    throw new AlertformError('bad_source', `GET ${url}: ${(error.cause as Error | undefined)?.message ?? error.message}`);
  });
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    const to = response.headers.get('location');
    throw new AlertformError('bad_source', `GET ${url} answered with a redirect (HTTP ${response.status}${to ? ` to ${safeOrigin(to, url)}` : ''}): not followed, the token would go along; pass the URL it names`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    return { ok: false, status: response.status, text: '' };
  }
  return { ok: true, status: response.status, text: await readCappedText(response, maxAnswerBytes(env), { method: 'GET', url }) };
}

/** The origin a redirect names (never its path or query, which may carry anything). */
function safeOrigin(location: string, base: string): string {
  try {
    return new URL(location, base).origin;
  } catch {
    return '(an address that is not a URL)';
  }
}
