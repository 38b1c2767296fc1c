import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** API key secrets: 'bkg_' and 32 random bytes in base64url (43 characters). */
export const API_KEY_SECRET = /^bkg_[A-Za-z0-9_-]{43}$/;

/** How many leading characters of a secret are stored to find its row ('bkg_' and 8 random ones). */
export const API_KEY_PREFIX_LENGTH = 12;

/** A new random secret, to be shown once and stored only as its hash. */
export const generateApiKeySecret = (): string => `bkg_${randomBytes(32).toString('base64url')}`;

/** The stored lookup prefix of a secret. */
export const apiKeyPrefix = (secret: string): string => secret.slice(0, API_KEY_PREFIX_LENGTH);

/** The stored hash of a secret: sha256, hex. */
export const hashApiKeySecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** Compares two hex sha256 hashes in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === 32 && right.length === 32 && timingSafeEqual(left, right);
}
