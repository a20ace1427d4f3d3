import { checkedAlertCreate } from '../../src/server/routes/alerts.js';
import { checkedWindowWrite } from '../../src/server/routes/windows.js';
import type { AlertRecord, Store } from '../../src/server/store/store.js';
import type { WindowRecord } from '../../src/server/store/window-store.js';

/**
 * A test's bulk setup written straight into a server's store, through the API's own checks (checkedAlertCreate,
 * checkedWindowWrite): the rows are the ones the API would write. For setup that is not what the test proves, at
 * sizes where the write path's own work (HTTP, a window's match against every alert, a history entry per matched
 * alert) would be most of the file's CPU. A problem fails the test with the API's 400.
 */
export async function seedAlerts(store: Store, key: string, bodies: readonly Record<string, unknown>[]): Promise<AlertRecord[]> {
  const account = await accountOfKey(store, key);
  const created: AlertRecord[] = [];
  for (const body of bodies) created.push(await store.alerts.createAlert(account, await checkedAlertCreate(store, account, body)));
  return created;
}

/** Maintenance windows (API bodies) straight into the store; see seedAlerts. */
export async function seedWindows(store: Store, key: string, bodies: readonly Record<string, unknown>[]): Promise<WindowRecord[]> {
  const account = await accountOfKey(store, key);
  const created: WindowRecord[] = [];
  for (const body of bodies) created.push(await store.windows.createWindow(account, await checkedWindowWrite(store, account, body, 'api')));
  return created;
}

async function accountOfKey(store: Store, key: string): Promise<string> {
  const account = await store.accounts.findAccountByKey(key);
  if (!account) throw new Error('no account has this key');
  return account.id;
}
