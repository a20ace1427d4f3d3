import type { IncomingMessage } from 'node:http';

/**
 * The fields of a render request as graphite-web reads them (render/views.py parseOptions: the query string's, then
 * those of an application/x-www-form-urlencoded body added to them), so `target` may come from either. For the
 * stand-ins of the render API (the demo's Graphite, the tests' and benchmarks' fakes), which must answer the POSTs
 * of the render client as graphite-web does.
 */
export async function readRenderFields(req: IncomingMessage): Promise<{ fields: URLSearchParams; path: string; body: string }> {
  const url = new URL(req.url ?? '/', 'http://render');
  let body = '';
  req.setEncoding('utf8');
  for await (const chunk of req) body += chunk as string;
  const fields = new URLSearchParams(url.searchParams);
  if (req.headers['content-type']?.split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded') {
    for (const [name, value] of new URLSearchParams(body)) fields.append(name, value);
  }
  return { fields, path: url.pathname, body };
}
