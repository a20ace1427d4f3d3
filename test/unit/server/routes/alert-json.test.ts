import { afterEach, describe, expect, it } from 'vitest';
import { alertJson } from '../../../../src/server/routes/alert-json.js';
import { presentAlert } from '../../../../src/server/present.js';
import { openSqliteStore } from '../../../../src/server/store/sqlite/sqlite-store.js';
import type { AlertRecord, Store } from '../../../../src/server/store/store.js';
import { alertWrite } from '../../../helpers/alert-write.js';

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

/** A stored alert as the read cache shares it: frozen all the way down. */
async function storedAlert(change: Partial<AlertRecord> = {}): Promise<AlertRecord> {
  const store = openSqliteStore(':memory:');
  opened.push(store);
  const account = await store.accounts.createAccount('a@example.com');
  const [channel] = await store.channels.findChannelsByRefs(account.id, ['Email me']);
  const alert = { ...(await store.alerts.createAlert(account.id, alertWrite(channel!.id, { name: 'cpu', metric: 'm.cpu' }))), ...change };
  return deepFreeze(alert);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

const T = 1_800_000_000_000;

describe("an alert's JSON text, remembered per cached record", () => {
  it('is byte for byte what JSON.stringify of a fresh read object gives, before and after an acknowledgement expires', async () => {
    const alert = await storedAlert({ acknowledgement: { by: 'ana', note: 'looking', at: T / 1000 - 60, until: T / 1000 + 60 } });
    for (const now of [T, T + 1_000, T + 59_999, T + 60_000, T + 120_000, T]) {
      expect(alertJson(alert, [], now, true)).toBe(JSON.stringify(presentAlert(alert, [], now, true)));
    }
    expect(JSON.parse(alertJson(alert, [], T, true)).acknowledgement).toMatchObject({ by: 'ana' });
    expect(JSON.parse(alertJson(alert, [], T + 60_000, true)).acknowledgement).toBeNull();
  });

  it('says muted while a mute by hand holds and not after, from the same remembered record', async () => {
    const alert = await storedAlert({ mutedUntil: T + 30_000 });
    expect(JSON.parse(alertJson(alert, [], T, true)).muted).toBe(true);
    expect(JSON.parse(alertJson(alert, [], T + 30_000, true)).muted).toBe(false);
    expect(JSON.parse(alertJson(alert, [], T, true)).muted).toBe(true);
    for (const now of [T, T + 30_000]) expect(alertJson(alert, [], now, true)).toBe(JSON.stringify(presentAlert(alert, [], now, true)));
  });

  it("says the alert's state for whether anything evaluates, from the same remembered record", async () => {
    const alert = await storedAlert({ evalState: JSON.stringify({ version: 1, status: 'healthy', triggered: [] }) });
    expect(JSON.parse(alertJson(alert, [], T, true)).state).toBe('healthy');
    expect(JSON.parse(alertJson(alert, [], T, false)).state).toBe('not_evaluated');
    expect(JSON.parse(alertJson(alert, [], T, true)).state).toBe('healthy');
  });

  it('serializes a record that is not frozen (a write\'s answer) afresh each time', async () => {
    const alert = { ...(await storedAlert()) } as AlertRecord;
    const first = alertJson(alert, [], T, true);
    (alert as { name: string }).name = 'renamed';
    expect(JSON.parse(alertJson(alert, [], T, true)).name).toBe('renamed');
    expect(JSON.parse(first).name).toBe('cpu');
  });
});

describe('JSON text sent as is', () => {
  it('has the Content-Type and Content-Length Koa gives the same object as a body', async () => {
    const { default: Koa } = await import('koa');
    const { sendJson } = await import('../../../../src/server/routes/alert-json.js');
    const { createServer } = await import('node:http');
    const value = { alerts: [{ id: 'a', name: 'é ü' }], next_page: false };
    const app = new Koa();
    app.use((ctx) => {
      if (ctx.path === '/object') ctx.body = value;
      else sendJson(ctx, JSON.stringify(value));
    });
    const server = createServer(app.callback()).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const [object, text] = await Promise.all([fetch(`${base}/object`), fetch(`${base}/text`)]);
      expect(text.headers.get('content-type')).toBe(object.headers.get('content-type'));
      expect(text.headers.get('content-length')).toBe(object.headers.get('content-length'));
      expect(await text.text()).toBe(await object.text());
    } finally {
      server.close();
    }
  });
});
