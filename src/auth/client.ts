/** Who is calling: an API key, a user with a token, or an anonymous client (by IP). */
export type Client =
  | { readonly kind: 'anonymous'; readonly id: string }
  | {
      readonly kind: 'key';
      readonly id: string;
      readonly name: string;
      readonly sites: readonly string[] | '*';
      readonly write: boolean;
      readonly admin: boolean;
    }
  | { readonly kind: 'user'; readonly id: string; readonly sites: readonly string[] | '*' };

/** The id of the shared read-only demo site: every caller may read it, anonymous ones through GraphQL. */
export const DEMO_SITE = 'demo';

/** Whether the client may read the site's data (its existence is not checked here). */
export function canRead(client: Client, siteId: string): boolean {
  // Shared: a key or token scoped to other sites must not see less than an anonymous caller.
  if (siteId === DEMO_SITE) return true;
  return client.kind !== 'anonymous' && (client.sites === '*' || client.sites.includes(siteId));
}

/** Whether the client may change the site's data; nobody may change the demo site. */
export function canWrite(client: Client, siteId: string): boolean {
  return siteId !== DEMO_SITE && client.kind === 'key' && (client.admin || (client.write && canRead(client, siteId)));
}

/** Whether the client may manage sites and keys. */
export function isAdmin(client: Client): boolean {
  return client.kind === 'key' && client.admin;
}

/** What logs may say of a client: never a secret. */
export function describeClient(client: Client): Record<string, string> {
  return client.kind === 'key'
    ? { kind: 'key', keyId: client.id, keyName: client.name }
    : { kind: client.kind, id: client.id };
}
