/**
 * IFC GlobalIds (IfcGloballyUniqueId): a 128-bit GUID written as 22 characters of the IFC base64
 * alphabet `0-9A-Za-z_$`. The first character carries the top 2 bits (so it is 0-3), each of the other
 * 21 characters 6 bits.
 *
 * Fixture generators need GlobalIds that are stable: the same entity must get the same GlobalId on every
 * run and in every file that refers to it (the knowledge graph and, later, the IFC model). So they are
 * derived from a key (e.g. "demo:AHU-1") with SHA-256, not drawn from a random source.
 */
import { createHash } from 'node:crypto';

export const IFC_GUID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$';

const IFC_GUID_PATTERN = /^[0-3][0-9A-Za-z_$]{21}$/;

export function isValidIfcGlobalId(value: string): boolean {
  return IFC_GUID_PATTERN.test(value);
}

function bytesToBigInt(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}

/** Compress 16 bytes (a GUID in RFC 4122 byte order) into a 22-character IFC GlobalId. */
export function ifcGlobalIdFromBytes(bytes: Uint8Array): string {
  if (bytes.length !== 16) throw new RangeError(`IFC GlobalId needs 16 bytes, got ${bytes.length}`);
  const n = bytesToBigInt(bytes);
  let out = '';
  for (let i = 21; i >= 0; i--) {
    out += IFC_GUID_ALPHABET[Number((n >> BigInt(6 * i)) & 63n)];
  }
  return out;
}

/** Compress a UUID string (with or without hyphens) into an IFC GlobalId. */
export function ifcGlobalIdFromUuid(uuid: string): string {
  const hex = uuid.replace(/-/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new RangeError(`Not a UUID: ${uuid}`);
  return ifcGlobalIdFromBytes(Uint8Array.from(Buffer.from(hex, 'hex')));
}

/** Expand an IFC GlobalId back into a lowercase hyphenated UUID string. */
export function uuidFromIfcGlobalId(globalId: string): string {
  if (!isValidIfcGlobalId(globalId)) throw new RangeError(`Not an IFC GlobalId: ${globalId}`);
  let n = 0n;
  for (const ch of globalId) n = (n << 6n) | BigInt(IFC_GUID_ALPHABET.indexOf(ch));
  const hex = n.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A deterministic IFC GlobalId for a key. The GUID is the first 16 bytes of SHA-256(key) with the
 * RFC 4122 version (4) and variant bits set, so IFC tools that expand GlobalIds see a well-formed UUID.
 */
export function deterministicIfcGlobalId(key: string): string {
  const digest = createHash('sha256').update(key, 'utf8').digest();
  const bytes = Uint8Array.from(digest.subarray(0, 16));
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  return ifcGlobalIdFromBytes(bytes);
}
