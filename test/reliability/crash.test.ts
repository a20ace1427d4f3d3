import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { callServe, spawnServe, type ServeProcess } from '../helpers/server-process.js';

// One or two cycles in the suite; scripts/crash-test.sh runs ten (CRASH_RUNS=10).
const RUNS = Number(process.env.CRASH_RUNS ?? 2);
const WORKERS = 8;

const dir = mkdtempSync(join(tmpdir(), 'alertform-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the clients were told was written: alerts created (id -> name), and each worker's last acked info. */
interface Acked {
  alerts: Map<string, string>;
  channels: Map<string, string>;
  infoVersion: Map<string, number>;
}

const call = callServe;

/**
 * WORKERS clients write as fast as they can (alert creates, channel creates, and updates of one alert each) until
 * `killAfter` writes were acknowledged; then the server gets SIGKILL while the other workers' requests are in flight.
 */
async function writeUntilKilled(server: ServeProcess, cycle: number, killAfter: number, acked: Acked): Promise<number> {
  let count = 0;
  let killed: Promise<unknown> | undefined;
  const worker = async (w: number) => {
    let own: string | undefined;
    for (let n = 0; !killed; n++) {
      try {
        if (own && n % 4 === 0) {
          const response = await call(server, 'PUT', `/v2/alerts/${own}/`, { info: `v${n}` });
          if (response.status !== 200) throw new Error(`PUT answered ${response.status}`);
          acked.infoVersion.set(own, n);
        } else if (n % 4 === 1) {
          const description = `c${cycle}-w${w}-${n}`;
          const response = await call(server, 'POST', '/v2/notifications/', {
            type: 'webhook',
            description,
            destination: 'https://example.com/hook',
          });
          if (response.status !== 201) throw new Error(`channel POST answered ${response.status}`);
          acked.channels.set(response.body.id, description);
        } else {
          const name = `c${cycle}-w${w}-${n}`;
          const response = await call(server, 'POST', '/v2/alerts/', {
            name,
            metric: `crash.${w}.${n}`,
            alert_criteria: { type: 'above', above_value: n },
          });
          if (response.status !== 201) throw new Error(`alert POST answered ${response.status}`);
          acked.alerts.set(response.body.id, name);
          own ??= response.body.id;
        }
      } catch (error) {
        // After the kill, failures are expected: those writes were never acknowledged.
        if (killed) return;
        throw error;
      }
      if (++count >= killAfter && !killed) killed = server.kill();
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  await killed;
  return count;
}

/** PRAGMA integrity_check on a copy of the files exactly as the crash left them (the copy is what recovers). */
function checkIntegrityOfCopy(db: string, cycle: number): string {
  const copy = join(dir, `copy-${cycle}.db`);
  copyFileSync(db, copy);
  if (existsSync(`${db}-wal`)) copyFileSync(`${db}-wal`, `${copy}-wal`);
  const raw = new Database(copy);
  try {
    return raw.pragma('integrity_check', { simple: true }) as string;
  } finally {
    raw.close();
  }
}

async function readBack(server: ServeProcess, acked: Acked) {
  const ids = [...acked.alerts.keys()];
  const found = new Map<string, { name: string; info: string | null }>();
  for (let i = 0; i < ids.length; i += 100) {
    const query = ids.slice(i, i + 100).map((id) => `id=${id}`).join('&');
    const page = await call(server, 'GET', `/v2/alerts/?${query}`);
    expect(page.status).toBe(200);
    for (const alert of page.body.alerts) found.set(alert.id, { name: alert.name, info: alert.info });
  }
  const channels = new Map<string, string>();
  for (let page = 1; ; page++) {
    const response = await call(server, 'GET', `/v2/notifications/?page=${page}`);
    for (const channel of response.body.notifications) channels.set(channel.id, channel.description);
    if (!response.body.next_page) break;
  }
  return { found, channels };
}

describe('kill -9 of the server under concurrent writes', () => {
  it(
    `loses no acknowledged write and leaves an intact database, ${RUNS} crash(es) in a row`,
    async () => {
      const db = join(dir, 'crash.db');
      const acked: Acked = { alerts: new Map(), channels: new Map(), infoVersion: new Map() };
      let server = await spawnServe({ db });
      const key = server.key;
      try {
        for (let cycle = 0; cycle < RUNS; cycle++) {
          // Kill at a different point each time: after 30..130 acknowledged writes.
          const written = await writeUntilKilled(server, cycle, 30 + Math.floor(Math.random() * 100), acked);
          expect(written).toBeGreaterThanOrEqual(30);
          expect(checkIntegrityOfCopy(db, cycle), `integrity after crash ${cycle}`).toBe('ok');

          server = await spawnServe({ db, key });
          const { found, channels } = await readBack(server, acked);
          const lostAlerts = [...acked.alerts].filter(([id, name]) => found.get(id)?.name !== name);
          expect(lostAlerts, `acknowledged alerts missing after crash ${cycle}`).toEqual([]);
          const lostChannels = [...acked.channels].filter(([id, description]) => channels.get(id) !== description);
          expect(lostChannels, `acknowledged channels missing after crash ${cycle}`).toEqual([]);
          for (const [id, version] of acked.infoVersion) {
            // An update in flight at the kill may have landed too, so the stored version is at least the acked one.
            const stored = Number(found.get(id)?.info?.slice(1) ?? -1);
            expect(stored, `info of ${id} after crash ${cycle}`).toBeGreaterThanOrEqual(version);
          }
        }
      } finally {
        await server.stop();
      }
      const raw = new Database(db, { readonly: true });
      try {
        expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
      } finally {
        raw.close();
      }
    },
    30_000 + RUNS * 20_000,
  );
});
