import { ipKeyGenerator } from 'express-rate-limit';
import type { Client } from '../auth/client.ts';

/** The counter an anonymous address is limited by (an IPv6 address by its /56, as one household). */
export const anonymousKey = (ip: string) => `ip:${ipKeyGenerator(ip)}`;

/** Whom a client's requests count against: its API key, its user, or its address (an IPv6 /56 as one). */
export const clientKey = (client: Client) =>
  client.kind === 'anonymous' ? anonymousKey(client.id) : `${client.kind}:${client.id}`;
