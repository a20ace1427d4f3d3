import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new resource id: 16 random bytes as hex, unguessable and, in practice, never reused. */
export function createId(): string {
  return randomBytes(16).toString('hex');
}

/** A new API key: 32 random bytes, base64url. */
export function createApiKey(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored form of an API key: its SHA-256, hex. Enough for random 32-byte keys. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time equality of two hex hashes. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
