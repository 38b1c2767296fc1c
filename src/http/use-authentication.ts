import type { RequestHandler } from 'express';
import type { Authenticator } from '../auth/authenticator.ts';
import { describeClient } from '../auth/client.ts';
import { currentRequestScope } from '../log/request-scope.ts';

/** Gives every request a client (and names it in the request's log lines); bad tokens end in 401. */
export function useAuthentication(authenticator: Authenticator): RequestHandler {
  return (req, _res, next) => {
    const scope = currentRequestScope();
    authenticator.authenticate(req.get('authorization'), req.ip ?? 'unknown').then(
      (client) => {
        req.client = client;
        if (scope) scope.client = describeClient(client);
        next();
      },
      next,
    );
  };
}
