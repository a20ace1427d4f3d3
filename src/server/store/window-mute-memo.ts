import type { WindowMute } from './window-mutes.js';

/** Most (window, alert) pairs a memo keeps before it starts over (then the store's rows dedupe, as after a restart). */
const MAX_PAIRS = 200_000;

/**
 * The window episodes this process has recorded, by (window, alert): a cycle reports every alert a window mutes,
 * every cycle, and only a new episode needs the store. Forgetting is harmless: the store records each pair's
 * episode once (window_mutes), so after a restart or a full memo the pairs are merely asked again.
 */
export class WindowMuteMemo {
  private readonly recorded = new Map<string, number>();

  /** The mutes not known to be recorded already. */
  unseen(mutes: readonly WindowMute[]): WindowMute[] {
    return mutes.filter((mute) => this.recorded.get(`${mute.id} ${mute.alertId}`) !== mute.startedAt);
  }

  /** Mutes the store has recorded (or found recorded). */
  remember(mutes: readonly WindowMute[]): void {
    if (this.recorded.size + mutes.length > MAX_PAIRS) this.recorded.clear();
    for (const mute of mutes) this.recorded.set(`${mute.id} ${mute.alertId}`, mute.startedAt);
  }
}
