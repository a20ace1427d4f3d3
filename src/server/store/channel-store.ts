import type { ChannelType, MessageTemplate } from '../../model/types.js';
import type { ChannelThrottle } from '../../model/noise-control.js';
import type { Page } from './page.js';
import type { ChannelGroupBy } from '../../model/types.js';

/** An account's notification channels. */
export interface ChannelStore {
  createChannel(accountId: string, channel: ChannelWrite): Promise<ChannelRecord>;
  getChannel(accountId: string, id: string): Promise<ChannelRecord | null>;
  /** Channels of the account whose id or description equals one of `refs` (ids win over descriptions). */
  findChannelsByRefs(accountId: string, refs: string[]): Promise<ChannelRecord[]>;
  updateChannel(accountId: string, id: string, channel: ChannelWrite): Promise<ChannelRecord | null>;
  /**
   * Deletes the channel and removes it from every alert; an alert left without channels gets `Email me` back.
   * null when the channel does not exist.
   */
  deleteChannel(accountId: string, id: string): Promise<{ alertsChanged: number } | null>;
  searchChannels(accountId: string, query: ChannelQuery): Promise<Page<ChannelRecord>>;
  /**
   * Email channels of every account with an address and at least one alert notifying them: what a server without
   * an SMTP server would dead-letter (its start warns). Optional: a store without it is not asked.
   */
  countEmailChannelsInUse?(): Promise<number>;
  /** The channel's signing-secret generations; a channel never rotated is at generation 0 with no previous one. */
  getSigningRotation(channelId: string): Promise<SigningRotation>;
  /**
   * Moves the account's channel to its next signing generation; the one it leaves keeps signing until
   * `previousExpiresAt` (unix seconds). A generation older than that is dropped at once. null: no such channel.
   */
  rotateSigningSecret(accountId: string, channelId: string, previousExpiresAt: number): Promise<SigningRotation | null>;
}

/** Which generations of a channel's derived signing secret are in use (webhook-signing.ts derives them). */
export interface SigningRotation {
  generation: number;
  /** The generation before, still signing until `previousExpiresAt` (unix seconds); null when none. */
  previous: { generation: number; expiresAt: number } | null;
}

export interface ChannelWrite {
  type: ChannelType;
  description: string;
  destination: string;
  autoResolve: boolean;
  /** Extension (noise control); absent or null: none. */
  throttle?: ChannelThrottle | null;
  /** Extension: the channel's message template; null or absent, the default message. */
  template?: MessageTemplate | null;
  /** Extension (noise control): grouping by path nodes; null or absent: none. */
  groupBy?: ChannelGroupBy | null;
}

export interface ChannelError {
  /** Epoch seconds. */
  time: number;
  message: string;
}

export interface ChannelRecord extends ChannelWrite {
  id: string;
  accountId: string;
  lastError: ChannelError | null;
}

export interface ChannelQuery {
  types: string[];
  descriptions: string[];
  ids: string[];
  autoResolve: boolean | null;
  page: number;
  max: number;
}
