/** Accounts and their API keys (the CLI's `keys`, the API's authentication). */
export interface AccountStore {
  /** A new account with its `Email me` channel (destination = email, or "" when there is none). */
  createAccount(email: string | null): Promise<AccountRecord>;
  findAccountByEmail(email: string): Promise<AccountRecord | null>;
  /** Stores the SHA-256 of `key` for the account; the key itself is never stored. */
  addApiKey(accountId: string, key: string): Promise<ApiKeyRecord>;
  /** The key record of a key (revoked or not); null when unknown. */
  findApiKey(key: string): Promise<ApiKeyRecord | null>;
  /** The account of a key that exists and is not revoked. */
  findAccountByKey(key: string): Promise<AccountRecord | null>;
  /** Confines an account's queries to metric prefixes (`keys create --metric-prefix`); [] lifts the confinement. */
  setMetricPrefixes(accountId: string, prefixes: string[]): Promise<void>;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked; false when no key has that id. */
  revokeApiKey(keyId: string): Promise<boolean>;
}

export interface AccountRecord {
  id: string;
  email: string | null;
  /** ISO 8601. */
  createdAt: string;
  /**
   * Metric path prefixes the account's queries must stay inside (`alertform keys create --metric-prefix`);
   * absent or empty: not confined (one Graphite is then one trust domain).
   */
  metricPrefixes?: string[];
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  email: string | null;
  createdAt: string;
  revokedAt: string | null;
}
