import { PUBLIC_ONLY, type DestinationPolicy } from '../net/destination-policy.js';
import type { SigningSecrets } from './webhook-signing.js';

// What sending takes (the notifiers' settings) and how a send fails. What is sent, a Notification, and to which
// channel, a DeliveryChannel, live below the server in src/notifications/, shared with the planner's previews.

/** Where third-party services live (configurable for tests and regions) and how to reach SMTP. */
export interface NotifierSettings {
  /** Default https://events.pagerduty.com (Events API v2 lives at /v2/enqueue). */
  pagerdutyUrl: string;
  /** Default https://api.opsgenie.com (EU: https://api.eu.opsgenie.com). */
  opsgenieUrl: string;
  /** When set, replaces the scheme, host and port of VictorOps destination URLs. */
  victoropsUrl: string | null;
  /** smtp:// or smtps:// URL of the mail server; email channels fail without it. */
  smtpUrl: string | null;
  smtpFrom: string;
  /** Per delivery attempt. */
  timeoutMs: number;
  /** Where tenant-chosen URLs (webhook, Slack, VictorOps) may lead; default public addresses only. */
  destinations: DestinationPolicy;
  /** Each webhook channel's signing secrets (webhook-signing.ts); absent: webhook bodies go unsigned (tests). */
  signingSecrets?: SigningSecrets;
}

/** Defaults of NotifierSettings: the public endpoints, no SMTP. */
export const DEFAULT_NOTIFIER_SETTINGS: NotifierSettings = {
  pagerdutyUrl: 'https://events.pagerduty.com',
  opsgenieUrl: 'https://api.opsgenie.com',
  victoropsUrl: null,
  smtpUrl: null,
  smtpFrom: 'alertform@localhost',
  timeoutMs: 10_000,
  destinations: PUBLIC_ONLY,
};

/** A failed delivery. Its message is safe to log and to show on the channel (no destination, no key). */
export class DeliveryError extends Error {
  constructor(
    message: string,
    /** Whether trying again may help (network trouble, 5xx, 429), as opposed to a rejected request. */
    readonly retryable: boolean,
    /** The wait the service asked for (its Retry-After), in ms; null when it said nothing. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}
