import type { Client } from '../auth/client.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the authentication middleware for every request that passes it. */
    client: Client;
    /** From `X-Request-Id`, or made up; echoed in the response and in every log line. */
    requestId: string;
    /** `performance.now()` when the request arrived. */
    startedAt: number;
  }
}

export {};
