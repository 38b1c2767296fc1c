import type { Client } from '../auth/client.ts';
import type { RequestWork } from '../limits/request-work.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the authentication middleware for every request that passes it. */
    client: Client;
    /** From `X-Request-Id`, or made up; echoed in the response and in every log line. */
    requestId: string;
    /** `performance.now()` when the request arrived. */
    startedAt: number;
    /**
     * Set past the rate limits: the request's deadline, budget and client's signal, which what runs
     * store queries for the request is handed (`SelectOptions.work`).
     */
    work?: RequestWork;
  }
}

export {};
