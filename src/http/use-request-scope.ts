import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { runInRequestScope } from '../log/request-scope.ts';
import '../http-kit/request-context.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The first middleware: gives every request an id (a well-formed `X-Request-Id` is kept, else one
 * is made), echoes it in the response, and serves the rest of the request inside its log scope.
 */
export function useRequestScope(): RequestHandler {
  return (req, res, next) => {
    const given = req.get('x-request-id');
    req.requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    req.startedAt = performance.now();
    res.setHeader('X-Request-Id', req.requestId);
    runInRequestScope({ requestId: req.requestId }, next);
  };
}
