import type { AlertBody } from '../../src/model/types.js';
import { checkWindowBody } from '../../src/model/window-rules.js';
import { referenceLookup } from '../../src/server/routes/alerts.js';
import type { AlertRecord, Store } from '../../src/server/store/store.js';
import type { WindowRecord } from '../../src/server/store/window-store.js';
import { checkAlertRules } from '../../src/server/validation/alert-rules.js';
import { checkSchema } from '../../src/server/validation/check-schema.js';

/**
 * A test's bulk setup written straight into a server's store, checked by the API's own checks (schema and rules):
 * the rows are the ones the API would write. For setup that is not what the test proves, at sizes where the write
 * path's own work (HTTP, a window's match against every alert, a history entry per matched alert) would be most of
 * the file's CPU. A problem fails the test with the API's words.
 */
export async function seedAlerts(store: Store, key: string, bodies: readonly Record<string, unknown>[]): Promise<AlertRecord[]> {
  const account = await accountOfKey(store, key);
  const created: AlertRecord[] = [];
  for (const body of bodies) {
    const problems = checkSchema('alert', 'create', body);
    if (problems.length > 0) throw new Error(`alert ${JSON.stringify(body.name)}: ${JSON.stringify(problems)}`);
    const checked = await checkAlertRules(body as unknown as AlertBody, referenceLookup(store, account));
    if (!checked.ok) throw new Error(`alert ${JSON.stringify(body.name)}: ${JSON.stringify(checked.problems)}`);
    created.push(await store.alerts.createAlert(account, checked.value));
  }
  return created;
}

/** Maintenance windows (API bodies) straight into the store; see seedAlerts. Channel refs must be ids. */
export async function seedWindows(store: Store, key: string, bodies: readonly Record<string, unknown>[]): Promise<WindowRecord[]> {
  const account = await accountOfKey(store, key);
  const created: WindowRecord[] = [];
  for (const body of bodies) {
    const checked = checkWindowBody(body);
    if (!checked.ok) throw new Error(`window ${JSON.stringify(body.name)}: ${JSON.stringify(checked.problems)}`);
    created.push(await store.windows.createWindow(account, { ...checked.value, by: 'api' }));
  }
  return created;
}

async function accountOfKey(store: Store, key: string): Promise<string> {
  const account = await store.accounts.findAccountByKey(key);
  if (!account) throw new Error('no account has this key');
  return account.id;
}
