import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServe, type ServeProcess } from '../helpers/server-process.js';
import { storeBackends } from '../helpers/store-backends.js';
import { until } from '../helpers/until.js';
import { startWebhookReceiver, type ReceivedRequest } from '../helpers/webhook-receiver.js';

// Before: a webhook carried only `X-Alertform-Signature: sha256=<HMAC of the body>`, so a captured delivery could
// be replayed for ever, and a channel's secret was fixed for its life (recreate the channel to change it).

/**
 * The receiver's check exactly as docs/server.md shows it: every `v1` of `Alertform-Signature` compared with the
 * HMAC of `<t>.<raw body>` under the receiver's secret, and `t` within the tolerance window of the receiver's clock.
 */
function verifyAlertform(raw: string, header: string | undefined, secret: string, nowSeconds = Math.floor(Date.now() / 1000), toleranceSeconds = 300): boolean {
  const parts = String(header ?? '').split(',').map((part) => part.split('='));
  const t = Number(parts.find(([key]) => key === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex'));
  return parts.some(([key, value]) => key === 'v1' && value !== undefined && value.length === expected.length && timingSafeEqual(Buffer.from(value), expected));
}

const OTHER_KEY = 'other-tenant-key-0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'af-webhook-sig-'));
const backends = storeBackends();
afterAll(async () => {
  for (const backend of backends) await backend.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(backends)('webhook signatures on $name', (backend) => {
  it.skipIf(backend.skip)(
    `sign a timestamp with the body, rotate with the old secret still accepted until it ends, and survive a restart${backend.skip ? ` (skipped: ${backend.reason})` : ''}`,
    async () => {
      const db = backend.name === 'sqlite' ? join(dir, 'sig.db') : await backend.createDb();
      const receiver = await startWebhookReceiver();
      const start = () => spawnServe({ db, key: 'owner-key-0123456789abcdefghij', logLevel: 'debug', extraArgs: ['--allow-private-destinations', '--api-key', OTHER_KEY] });
      let server: ServeProcess = await start();
      const call = async (method: string, path: string, body?: unknown, key = server.key) => {
        const answer = await fetch(`${server.url}${path}`, {
          method,
          headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: answer.status, body: (await answer.json()) as any };
      };
      const logs: string[] = [];
      try {
        const created = await call('POST', '/v2/notifications', { type: 'webhook', description: 'hook', destination: `${receiver.url}/hook` });
        expect(created.status).toBe(201);
        const id = created.body.id as string;
        const send = async (): Promise<ReceivedRequest> => {
          expect((await call('POST', `/v2/notifications/${id}/test`)).status).toBe(202);
          return receiver.next();
        };
        const first = (await call('GET', `/v2/notifications/${id}/signing-secret/`)).body;
        expect(first).toMatchObject({ timestamped_header: 'Alertform-Signature', tolerance_seconds: 300, previous_signing_secret: null, previous_expires_at: null });
        const secret0 = first.signing_secret as string;

        // The delivery carries t (this attempt's time) and one v1 under the channel's secret.
        const plain = await send();
        const header = plain.headers['alertform-signature'] as string | undefined;
        expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
        const t = Number(/^t=(\d+)/.exec(header!)![1]);
        expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(60);
        expect(verifyAlertform(plain.raw, header, secret0)).toBe(true);
        // A replay outside the window is refused by the documented check, a changed body or t at once.
        expect(verifyAlertform(plain.raw, header, secret0, t + 301)).toBe(false);
        expect(verifyAlertform(plain.raw, header, secret0, t - 301)).toBe(false);
        expect(verifyAlertform(plain.raw.replace('"test":true', '"test":false'), header, secret0)).toBe(false);
        expect(verifyAlertform(plain.raw, header!.replace(`t=${t}`, `t=${t + 1}`), secret0)).toBe(false);
        // Receivers written for the body-only signature go on verifying it.
        expect(plain.headers['x-alertform-signature']).toBe(`sha256=${createHmac('sha256', secret0).update(plain.raw).digest('hex')}`);

        // Rotation: a new secret at once; the old one signs too (a second v1) until the grace ends.
        const bad = [{ previous_valid_seconds: -1 }, { previous_valid_seconds: 604_801 }, { previous_valid_seconds: '1h' }, { previous_valid_seconds: 1.5 }, { grace: 10 }];
        for (const body of bad) {
          const refused = await call('POST', `/v2/notifications/${id}/signing-secret/rotate`, body);
          expect([body, refused.status, refused.body.error.code]).toEqual([body, 400, 'invalid_body']);
        }
        expect((await call('POST', `/v2/notifications/${id}/signing-secret/rotate`, {}, OTHER_KEY)).status).toBe(404);
        const rotated = await call('POST', `/v2/notifications/${id}/signing-secret/rotate`, { previous_valid_seconds: 3600 });
        expect(rotated.status).toBe(200);
        const secret1 = rotated.body.signing_secret as string;
        expect(secret1).toMatch(/^[\w-]{43}$/);
        expect(secret1).not.toBe(secret0);
        expect(rotated.body.previous_signing_secret).toBe(secret0);
        expect(Date.parse(rotated.body.previous_expires_at) / 1000 - Date.now() / 1000).toBeGreaterThan(3500);
        const during = await send();
        const both = during.headers['alertform-signature'] as string;
        expect(both).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
        expect(verifyAlertform(during.raw, both, secret1)).toBe(true);
        expect(verifyAlertform(during.raw, both, secret0)).toBe(true);
        expect(during.headers['x-alertform-signature']).toBe(`sha256=${createHmac('sha256', secret1).update(during.raw).digest('hex')}`);

        // A restart (another process on the same database) keeps the rotation.
        expect(await server.stop()).toBe(0);
        logs.push(server.stderr());
        server = await start();
        const reread = (await call('GET', `/v2/notifications/${id}/signing-secret/`)).body;
        expect([reread.signing_secret, reread.previous_signing_secret]).toEqual([secret1, secret0]);

        // A rotation with a short grace: the previous secret stops signing once it ends (awaited, not slept).
        const short = await call('POST', `/v2/notifications/${id}/signing-secret/rotate`, { previous_valid_seconds: 1 });
        const secret2 = short.body.signing_secret as string;
        expect(short.body.previous_signing_secret).toBe(secret1);
        await until(
          async () => (await call('GET', `/v2/notifications/${id}/signing-secret/`)).body,
          (answer) => answer.previous_signing_secret === null,
          10_000,
        );
        const after = await send();
        const single = after.headers['alertform-signature'] as string;
        expect(single).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
        expect(verifyAlertform(after.raw, single, secret2)).toBe(true);
        expect(verifyAlertform(after.raw, single, secret1)).toBe(false);
        expect(verifyAlertform(after.raw, single, secret0)).toBe(false);
        for (const secret of [secret0, secret1, secret2]) expect(JSON.stringify(after.headers) + after.raw).not.toContain(secret);
      } finally {
        expect(await server.stop()).toBe(0);
        logs.push(server.stderr());
        await receiver.close();
      }
      const log = logs.join('\n');
      expect(log).toContain('"msg":"request"');
      for (const line of log.split('\n')) expect(line).not.toMatch(/signing_secret"?:\s*"[\w-]{43}/);
    },
    120_000,
  );
});
