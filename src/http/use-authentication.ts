import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Authenticator } from '../auth/authenticator.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Gives every request an id (a well-formed `X-Request-Id` is kept) and a client; bad tokens end in 401. */
export function useAuthentication(authenticator: Authenticator): RequestHandler {
  return (req, res, next) => {
    const given = req.get('x-request-id');
    req.requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', req.requestId);
    authenticator.authenticate(req.get('authorization'), req.ip ?? 'unknown').then(
      (client) => {
        req.client = client;
        next();
      },
      next,
    );
  };
}
