import type { RequestHandler } from 'express';
import type { LimitsConfig } from '../config/limits-config.ts';
import { RequestWork } from '../limits/request-work.ts';
import '../http-kit/request-context.ts';

/**
 * After authentication: gives the request its work (`req.work`): its deadline, the budget of its
 * client's tier, and a signal aborted when the connection closes before the response is sent
 * (queued queries leave their queue, queries to an external store stop; as they do once the
 * request is over its budget). Routes and GraphQL's context pass it to what runs store queries.
 */
export function useRequestWork(limits: LimitsConfig): RequestHandler {
  return (req, res, next) => {
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort(new Error('The client went away'));
    });
    const anonymous = req.client.kind === 'anonymous';
    const budget = anonymous ? limits.budgets.anonymous : limits.budgets.client;
    req.work = new RequestWork(
      controller.signal,
      limits.queryTimeoutMs,
      budget,
      anonymous ? 'anonymous' : 'client',
      limits.budgets.client,
    );
    next();
  };
}
