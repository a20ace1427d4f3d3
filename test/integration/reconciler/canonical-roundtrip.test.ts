import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertformClient } from '../../../src/client/api.js';
import { applyPlan } from '../../../src/apply/run.js';
import { RESOURCE_KINDS, type Defined, type Definitions, type ResourceKind } from '../../../src/definitions/definitions.js';
import { loadProject } from '../../../src/definitions/source.js';
import { adapterFor, readsOf } from '../../../src/plan/adapters/registry.js';
import { computePlan } from '../../../src/plan/compute.js';
import { NameIndex } from '../../../src/plan/references.js';
import { readActualState, type ActualState } from '../../../src/plan/state.js';
import type { KindTypes } from '../../../src/plan/types.js';
import { writeDefinitionsDir } from '../../helpers/definitions-dir.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { definitionsOf, GOLDEN_DEFINITIONS, NORMAL_FORM_DEFINITIONS } from '../../unit/plan/fixtures.js';
import { EXAMPLES } from './helpers.js';

/** Loads a definitions directory, failing on problems. */
async function loadDir(dir: string): Promise<Definitions> {
  const loaded = await loadProject(dir, { env: {} });
  expect(loaded.problems).toEqual([]);
  return loaded.definitions;
}

/** Every definitions set the tests use: the examples, the fixtures, the generated repos of the benches. */
const SOURCES: Record<string, () => Promise<Definitions>> = {
  examples: () => loadDir(EXAMPLES),
  'golden fixture': async () => definitionsOf(GOLDEN_DEFINITIONS.yaml, GOLDEN_DEFINITIONS.env),
  'normal-form fixture': async () => definitionsOf(NORMAL_FORM_DEFINITIONS),
  'generated repo': () => loadDir(writeDefinitionsDir(mkdtempSync(join(tmpdir(), 'af-roundtrip-')), { alerts: 12, channels: 3, schedules: 2 })),
};

/** Per kind: the planner's canonical form of each definition beside the canonical form of what the server returned. */
function canonicalPairs<K extends ResourceKind>(kind: K, definitions: Definitions, actual: ActualState) {
  const adapter = adapterFor(kind);
  const index = (k: 'channel' | 'schedule' | 'alert') => new NameIndex([], readsOf(actual, k).map((r) => ({ id: adapterFor(k).idOf(r), key: adapterFor(k).keyOf(r) })));
  const channels = index('channel');
  const schedules = index('schedule');
  const alerts = index('alert');
  const desiredRefs = { channel: (ref: string) => channels.resolve(ref) ?? `unresolved ${ref}`, schedule: (ref: string) => schedules.resolve(ref) ?? `unresolved ${ref}`, alert: (ref: string) => alerts.resolve(ref) ?? ref };
  const actualRefs = { channel: (id: string) => channels.nameOf(id), schedule: (id: string) => schedules.nameOf(id), alert: (id: string) => alerts.nameOf(id) };
  const byKind: { [P in ResourceKind]: readonly Defined<KindTypes[P]['spec']>[] } = { schedule: definitions.schedules, channel: definitions.channels, alert: definitions.alerts, 'maintenance window': definitions.maintenanceWindows ?? [] };
  const defined = byKind[kind];
  return defined.map((item) => {
    const read = readsOf(actual, kind).find((r) => adapter.keyOf(r) === item.key);
    return {
      key: item.key,
      read,
      desired: adapter.canonicalDesired(item.spec, desiredRefs),
      stored: read ? adapter.canonicalActual(read, actualRefs) : undefined,
    };
  });
}

describe('one normal form for the planner and the server', () => {
  let server: TestServer;
  const keys = Object.keys(SOURCES).map((name, i) => `roundtrip-key-${i}-${name.replace(/\W/g, '')}`);

  beforeAll(async () => {
    server = await startTestServer({ keys });
  });
  afterAll(async () => server?.close());

  Object.keys(SOURCES).forEach((name, i) => {
    it(`stores every ${name} definition in the form the planner expects`, async () => {
      // Each source in an account of its own, so that names never meet.
      const client = new AlertformClient({ server: server.url, apiKey: keys[i]! });
      const definitions = await SOURCES[name]!();
      const first = computePlan(definitions, await readActualState(client), new Date());
      expect(first.problems).toEqual([]);
      const applied = await applyPlan(first, await readActualState(client), client);
      expect(applied.failed.map((f) => `${f.change.id}: ${f.error.message}`)).toEqual([]);

      const actual = await readActualState(client);
      let compared = 0;
      for (const kind of RESOURCE_KINDS) {
        for (const pair of canonicalPairs(kind, definitions, actual)) {
          expect(pair.stored, `${kind} ${pair.key}`).toEqual(pair.desired);
          compared += 1;
        }
      }
      expect(compared).toBe(definitions.alerts.length + definitions.channels.length + definitions.schedules.length + (definitions.maintenanceWindows?.length ?? 0));
      expect(compared).toBeGreaterThan(0);

      // The server stores the normal form itself: what it returns is already canonical, not merely comparable.
      for (const pair of canonicalPairs('alert', definitions, actual)) {
        const { read, stored } = pair;
        expect({ ...read, id: undefined }).toMatchObject({
          expression: stored!.expression,
          notification_type: stored!.notification_type,
          alert_criteria: stored!.alert_criteria,
          additional_criteria: stored!.additional_criteria,
          on_query_failure: stored!.on_query_failure,
        });
      }
      for (const pair of canonicalPairs('schedule', definitions, actual)) expect(pair.read!.timezone).toBe(pair.stored!.timezone);
      for (const pair of canonicalPairs('channel', definitions, actual)) {
        expect([pair.read!.destination, pair.read!.auto_resolve]).toEqual([pair.stored!.destination, pair.stored!.auto_resolve]);
      }

      const again = computePlan(definitions, actual, new Date());
      expect(again.changes.filter((c) => c.action !== 'mute' && c.action !== 'unmute')).toEqual([]);
      expect(again.summary.noOp).toBe(compared);
    });
  });
});
